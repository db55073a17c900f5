/**
 * Serving declared routes: the one wrapper every route runs through, in the
 * same order everywhere — authenticate, require the user, validate params,
 * query and body, call the handler, render the answer for the caller's
 * access type, and in the refresh-token cookie mode move the refresh token
 * between body and cookie (`refresh-cookie.ts`). In strict mode (tests) it
 * also checks each answer against its schema and each known error against
 * the route's declaration, so the OpenAPI document cannot drift from what
 * the service does.
 */
import { type AccessType, isKnownError, KnownError, type KnownErrorCode } from '@latchkey/protocol';
import type { Context, Hono } from 'hono';
import type { z } from 'zod';
import {
  authenticate,
  authenticateIfNamed,
  projectAuthErrors,
  requireAccessType,
  requireUserId,
} from '../access/request-auth.js';
import { validate } from '../common/validate.js';
import type { Deps } from '../deps.js';
import { asRouteHandler } from '../events/action-guard.js';
import { opensToWebhookToken } from '../webhooks/webhook-token.js';
import { emptyBody, ignoredBody, readForm, readJson, textProblem } from './body.js';
import { countryOf } from './client-address.js';
import type { AppEnv, RequestAuth } from './env.js';
import { type RefreshCookie, refreshCookieOf, sentRefreshToken } from './refresh-cookie.js';
import { jsonResponse, knownErrorResponse, StatusRefusal, textResponse } from './responses.js';
import { type AnswerSpec, isFormBody, isSchema, isViewSet, pickByAccess, type Route, type ViewSet } from './route.js';

/** Errors any route of this shape may answer besides its declared ones. */
export function implicitErrors(route: Route): KnownErrorCode[] {
  const errors: KnownErrorCode[] = [];
  if (route.access === 'optional') {
    // Anonymous when nothing names a project: never ACCESS_TYPE_REQUIRED.
    errors.push(...projectAuthErrors('client').filter((code) => code !== 'ACCESS_TYPE_REQUIRED'));
  } else if (route.access !== 'none') errors.push(...projectAuthErrors(route.access));
  if (route.user) errors.push(route.signedOutError ?? 'CANNOT_GET_OWN_USER_WITHOUT_USER');
  if (route.method !== 'GET' || route.query || route.params) errors.push('SCHEMA_ERROR');
  if (route.method !== 'GET') errors.push('BODY_PARSING_ERROR');
  return errors;
}

/** Serves `routes` on `api`. */
export function mountRoutes(api: Hono<AppEnv>, routes: readonly Route[], deps: Deps): void {
  for (const route of routes) {
    const allowed = deps.strict ? new Set<string>([...implicitErrors(route), ...route.errors]) : null;
    // Any request in the refresh-token cookie mode may come from an untrusted origin, or carry the cookie twice.
    if (allowed && deps.refreshCookie) {
      allowed.add('ORIGIN_NOT_TRUSTED');
      allowed.add('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
    }
    api.on(route.method, route.path, async (c) => {
      const cookie = refreshCookieOf(c.req.raw, deps);
      try {
        return await serve(route, c, deps, cookie);
      } catch (error) {
        if (allowed && isKnownError(error) && !allowed.has(error.code)) {
          throw new Error(`${route.method} ${route.path} answered ${error.code}, which it does not declare`);
        }
        if (allowed && error instanceof StatusRefusal && !route.refusals?.includes(error.status)) {
          throw new Error(`${route.method} ${route.path} answered a plain ${error.status}, which it does not declare`);
        }
        // The service refused the cookie's refresh token, or its name came twice: the cookie goes with the refusal.
        if (cookie && isKnownError(error) && cookie.clearsWith(error)) {
          c.env.record.errorCode = error.code;
          return cookie.finish(knownErrorResponse(error), true);
        }
        throw error;
      }
    });
  }
}

async function serve(route: Route, c: Context<AppEnv>, deps: Deps, cookie: RefreshCookie | null): Promise<Response> {
  const request = c.req.raw;
  let auth: RequestAuth | null = null;
  if (route.access === 'optional') {
    auth = await authenticateIfNamed(request, deps);
    if (auth) cookie?.bind(auth.project);
  } else if (route.access !== 'none') {
    auth = await authenticate(request, deps, { webhookToken: opensToWebhookToken(route) });
    requireAccessType(auth, route.access);
    cookie?.bind(auth.project);
  }
  const sent = sentRefreshToken(request);
  const refreshToken = cookie && auth ? cookie.refreshToken(sent) : sent;
  const userId = route.user && auth ? requireUserId(auth, route.signedOutError) : (auth?.userId ?? null);
  if (auth) route.precondition?.({ auth, deps });
  const params = route.params ? validate(route.params, storable(c.req.param(), 'params'), 'params') : {};
  const query = route.query
    ? validate(route.query, storable(firstValues(new URL(request.url).searchParams), 'query'), 'query')
    : {};
  const body = await readBody(route, request, auth?.accessType ?? 'client', deps);
  const client = {
    ip: c.env.record.clientIp,
    userAgent: request.headers.get('user-agent')?.slice(0, 512) || null,
    country: countryOf(request, deps.countryHeader),
  };
  const input = { request, auth, userId, body, query, params, client, refreshToken, refreshCookie: cookie, deps };
  // Strict mode: the handler's database handle knows which route writes (`events/action-guard.ts`).
  const result = deps.strict
    ? await asRouteHandler(`${route.method} ${route.path}`, () => route.handler(input))
    : await route.handler(input);
  const response = result instanceof Response ? result : await answer(route, result, auth, deps, cookie);
  return cookie ? cookie.finish(response, route.endsSession === true) : response;
}

/** The first value of each query parameter (a repeated one is read once, as the SDK never repeats them). */
function firstValues(search: URLSearchParams): Record<string, string> {
  const values: Record<string, string> = {};
  for (const [key, value] of search) if (!(key in values)) values[key] = value;
  return values;
}

/** The values, when each can be stored and compared faithfully (no NUL, no lone surrogate); SCHEMA_ERROR otherwise. */
function storable(values: Record<string, string>, root: string): Record<string, string> {
  for (const [name, value] of Object.entries(values)) {
    const problem = textProblem(value);
    if (problem) throw new KnownError('SCHEMA_ERROR', { message: `${root}.${name}: ${problem}` });
  }
  return values;
}

async function readBody(route: Route, request: Request, accessType: AccessType, deps: Deps): Promise<unknown> {
  if (route.method === 'GET') return undefined;
  if (isFormBody(route.body)) return readForm(request, deps.bodyLimitBytes);
  const none = route.method === 'DELETE' ? ignoredBody : emptyBody;
  const schema = route.body === undefined ? none : pickByAccess(route.body, accessType, isSchema);
  // A body declared only for higher access types: lower ones may send none.
  return readJson(request, schema ?? none, deps.bodyLimitBytes);
}

async function answer(
  route: Route,
  result: unknown,
  auth: RequestAuth | null,
  deps: Deps,
  cookie: RefreshCookie | null,
): Promise<Response> {
  const spec: AnswerSpec = route.answer;
  if (spec === 'text') return textResponse(route.status ?? 200, String(result));
  let value = result;
  let schema: z.ZodType | undefined = isSchema(spec) ? spec : undefined;
  if (isViewSet(spec)) {
    const views: ViewSet<unknown> = spec;
    const view = pickByAccess(views, auth?.accessType ?? 'client', (v): v is never => false);
    if (!view) throw new Error(`${route.method} ${route.path} has no view for ${auth?.accessType}`);
    value = await view.render(result, { auth, deps });
    schema = view.schema;
  }
  if (deps.strict && schema) checkAnswer(route, schema, value);
  // Checked as declared first; then, in the cookie mode, the refresh token leaves the body for the cookie.
  if (cookie) value = cookie.takeRefreshToken(value);
  return jsonResponse(value, route.status ?? 200);
}

function checkAnswer(route: Route, schema: z.ZodType, value: unknown): void {
  const checked = schema.safeParse(JSON.parse(JSON.stringify(value ?? null)));
  if (!checked.success) {
    const where = checked.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`).join('; ');
    throw new Error(`${route.method} ${route.path} answered outside its schema: ${where}`);
  }
}
