/**
 * Routes as data. A route is declared once — method, path, minimum access,
 * whether a signed-in user is required, its schemas, its answer per access
 * type and the known errors it may answer — and that one declaration drives
 * authentication, validation, the view, the error contract and the OpenAPI
 * document (`openapi.ts`). `mountRoutes` runs every route through the same
 * steps in the same order: authenticate, check the user, validate params,
 * query and body, call the handler, render the answer.
 */
import type { AccessType, KnownErrorCode } from '@latchkey/protocol';
import { z } from 'zod';
import type { SignedOutError } from '../access/request-auth.js';
import type { Deps } from '../deps.js';
import type { ClientInfo, RequestAuth } from './env.js';
import type { RefreshCookie } from './refresh-cookie.js';
import type { RefusalStatus } from './responses.js';
import type { ViewSet } from './views.js';

export { defineViews, type RenderContext, type ViewSet } from './views.js';

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * Who may call a route: at least this access type; `none` (no project
 * authentication: JWKS, token endpoint); or `optional`: anyone, authenticated
 * as at least a client when the request names an access type, a key or an
 * admin token (the API root, which says what it saw).
 */
export type RouteAccess = AccessType | 'none' | 'optional';

/** One schema for every caller, or one per access type (a caller gets its own, else the nearest below it). */
export type ByAccess<S> = S | { readonly client?: S; readonly server?: S; readonly admin?: S };

/**
 * The answer of a route: a JSON schema the handler's value already matches,
 * views that render a domain value per access type, or `text` (a plain-text
 * answer). A handler may also return a `Response` where the protocol wants an
 * answer of its own (the OAuth token endpoint's RFC 6749 errors).
 */
export type AnswerSpec = z.ZodType | ViewSet<never> | 'text';

/** A form body (`application/x-www-form-urlencoded`), documented by `schema`, handed to the handler as read. */
export interface FormBody {
  readonly form: z.ZodObject;
}

type BodySpec = ByAccess<z.ZodType> | FormBody;

type BodyOf<B> = B extends FormBody
  ? URLSearchParams
  : B extends z.ZodType
    ? z.output<B>
    : B extends { client?: infer C; server?: infer S; admin?: infer A }
      ? OutputOf<C> | OutputOf<S> | OutputOf<A>
      : undefined;

type OutputOf<S> = S extends z.ZodType ? z.output<S> : never;

type ResultOf<A> = A extends ViewSet<infer T> ? T : A extends z.ZodType ? z.input<A> : string;

/** What a handler receives: the request, who is calling and the validated inputs. */
interface RouteInput<X extends RouteAccess, U extends boolean, B, Q, P> {
  request: Request;
  /** The caller (project, access type, user); `null` on routes with access `none`, and on `optional` ones for an anonymous caller. */
  auth: X extends 'none' ? null : X extends 'optional' ? RequestAuth | null : RequestAuth;
  /** The signed-in user's id; declared `user: true` routes always have one. */
  userId: U extends true ? string : string | null;
  body: BodyOf<B>;
  query: Q extends z.ZodType ? z.output<Q> : Record<string, never>;
  params: P extends z.ZodType ? z.output<P> : Record<string, never>;
  /** Where the request came from (recorded on sessions). */
  client: ClientInfo;
  /**
   * The session's refresh token the request names: `x-stack-refresh-token`,
   * else, in the refresh-token cookie mode, the service's cookie. Always the
   * header alone on routes with access `none`.
   */
  refreshToken: string | null;
  /**
   * The refresh-token cookie mode of the request (`refresh-cookie.ts`), null
   * unless the service has it on and the request asks. The wrapper binds it to
   * the authenticated project; a route with access `none` binds it itself
   * once it knows the project (the token endpoint).
   */
  refreshCookie: RefreshCookie | null;
  deps: Deps;
}

/** A route declaration (see `defineRoute`). */
export interface RouteDefinition<
  X extends RouteAccess = RouteAccess,
  U extends boolean = boolean,
  B extends BodySpec | undefined = BodySpec | undefined,
  Q extends z.ZodObject | undefined = z.ZodObject | undefined,
  P extends z.ZodObject | undefined = z.ZodObject | undefined,
  A extends AnswerSpec = AnswerSpec,
> {
  method: Method;
  /** Path below `/api/v1`, Hono style (`/users/:userId`). */
  path: string;
  /** One line for the reference: what the route does. */
  summary: string;
  /** The feature it belongs to (the OpenAPI tag). */
  tag: string;
  access: X;
  /** A signed-in user is required (CANNOT_GET_OWN_USER_WITHOUT_USER otherwise, or `signedOutError`). */
  user?: U;
  /**
   * How a `user: true` route refuses a signed-out call: CANNOT_GET_OWN_USER_WITHOUT_USER
   * (default: the route acts on the caller's own user, `me`), USER_AUTHENTICATION_REQUIRED
   * (401) where the original backend asks for a user without naming one (`/internal/projects`),
   * or SCHEMA_ERROR where it validates the signed-in user as part of the request
   * (the deprecated `/contact-channels/send-verification-code`).
   */
  signedOutError?: SignedOutError;
  /** Default: no body (none, or `{}`). */
  body?: B;
  /** Query parameters; unknown ones are ignored. */
  query?: Q;
  /** Path parameters as strings; a handler answers a malformed id with the entity's not-found error. */
  params?: P;
  answer: A;
  /** Status of a successful answer (default 200). */
  status?: number;
  /** The known errors of this route beyond those of authentication and validation (`implicitErrors`). */
  errors: readonly KnownErrorCode[];
  /** The statuses of the plain status errors it answers where the original backend does (`StatusRefusal`). */
  refusals?: readonly RefusalStatus[];
  /** It ends the session of the request's refresh token (sign-out): in the cookie mode its answer clears the cookie. */
  endsSession?: boolean;
  handler(input: RouteInput<X, U, B, Q, P>): Promise<ResultOf<A> | Response>;
}

/** A declared route, as `mountRoutes` and `openApiDocument` read it. */
// biome-ignore lint/suspicious/noExplicitAny: a list holds routes of every input and answer type.
export type Route = RouteDefinition<RouteAccess, boolean, any, any, any, any>;

/**
 * Declares a route. The declaration is data: `mountRoutes` serves it and
 * `openApiDocument` documents it.
 *
 * @example
 * export const getCurrentUser = defineRoute({
 *   method: 'GET', path: '/users/me', summary: 'The signed-in user', tag: 'users',
 *   access: 'client', user: true, answer: userViews, errors: [],
 *   handler: async ({ auth, userId, deps }) => requireOwnUser(await findUser(deps.db, auth.project.id, userId)),
 * });
 */
export function defineRoute<
  X extends RouteAccess,
  U extends boolean = false,
  B extends BodySpec | undefined = undefined,
  Q extends z.ZodObject | undefined = undefined,
  P extends z.ZodObject | undefined = undefined,
  A extends AnswerSpec = AnswerSpec,
>(definition: RouteDefinition<X, U, B, Q, P, A>): RouteDefinition<X, U, B, Q, P, A> {
  return definition;
}

const order: readonly AccessType[] = ['client', 'server', 'admin'];

/** The entry of `spec` for `accessType`, or the nearest below it; a plain value serves everyone. */
export function pickByAccess<S>(
  spec: ByAccess<S>,
  accessType: AccessType,
  isPlain: (value: unknown) => value is S,
): S | undefined {
  if (isPlain(spec)) return spec;
  const table = spec as { client?: S; server?: S; admin?: S };
  for (let index = order.indexOf(accessType); index >= 0; index--) {
    const entry = table[order[index]!];
    if (entry) return entry;
  }
  return undefined;
}

export function isSchema(value: unknown): value is z.ZodType {
  return value instanceof z.ZodType;
}

export function isFormBody(value: unknown): value is FormBody {
  return typeof value === 'object' && value !== null && 'form' in value;
}

export function isViewSet(value: unknown): value is ViewSet<unknown> {
  return typeof value === 'object' && value !== null && 'client' in value && !isSchema(value);
}
