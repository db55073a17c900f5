/**
 * The end of every sign-in: a password sign-in or sign-up, an e-mailed code,
 * the OAuth authorization-code exchange, and a session server code opens for
 * a user. Whatever proved who the person is, `completeSignIn` opens the
 * session with what every sign-in records in the same statement (the day's
 * activity and the country they came from, the audit event, for a sign-in
 * the user's last activity), issues the access token and builds the route's
 * answer. A new sign-in method proves the person and calls it; so does
 * nothing else.
 *
 * A person's sign-in from a browser the account has not used queues the
 * new-device alert mail in the same transaction, when the project asks for it
 * (`new-device-alert.ts`).
 *
 * A person's sign-in of an account with TOTP (or of any account, when the
 * project requires it) opens no session here: its first factor's effects
 * commit with an attempt code, and the route answers
 * MULTI_FACTOR_AUTHENTICATION_REQUIRED (or _SETUP_REQUIRED). The second step
 * (`mfa/mfa-routes.ts`) ends the sign-in here with the method `secondFactor`.
 *
 * Access tokens are issued here and nowhere else: `tokenEndpointAnswer` is
 * the token endpoint's answer for a session that already exists (a refresh,
 * the code exchange of an OAuth link), built by the same function as a
 * sign-in's. A test holds every other source file to it.
 */
import { constants } from '@latchkey/protocol';
import { z } from 'zod';
import type { Deps } from '../deps.js';
import type { EventData } from '../events/catalogue.js';
import { type ActionContext, type ActionTx, act, actorOf, record, recordWrites } from '../events/recorder.js';
import { countryOf } from '../http/client-address.js';
import type { ClientInfo, RequestAuth } from '../http/env.js';
import { activityWrites } from '../metrics/activity.js';
import { issueAttempt, secondFactorDue, secondFactorRequired } from '../mfa/mfa-attempts.js';
import type { ProjectRecord } from '../projects/projects.js';
import { type Db, type Write, writeTogether } from '../storage/db.js';
import { queueNewDeviceAlert } from './new-device-alert.js';
import { type RefreshNeeds, type RefreshRequest, refreshSession } from './refresh-rotation.js';
import { createSession } from './session-store.js';

/** What ending a sign-in needs of the service. */
export type SignInDeps = Pick<Deps, 'db' | 'clock' | 'accessTokens' | 'countryHeader' | 'changes'>;

/** The request that signs someone in: a route's input, or its parts. */
export interface SignInCaller {
  /** The caller's authentication; null at the token endpoint, which authenticates its client itself. */
  auth: RequestAuth | null;
  /** The project signed in to, when `auth` is null. */
  project?: ProjectRecord;
  client: ClientInfo;
  request: Request;
  deps: SignInDeps;
}

/** Who signs in. */
interface SignedIn {
  userId: string;
  /** A new account's first session (`sign_up`), or a sign-in to an existing one, which marks the user active. */
  isNewUser: boolean;
}

/**
 * How the person proved who they are, as the audit log names it. `oauth`
 * records no event here: the provider's callback recorded it, with the
 * provider, when it applied the account rules. `server`: server code opened
 * the session for the user (`session.created`, or `impersonation.started`),
 * which records no activity of the user's.
 */
type SignInMethod =
  | 'password'
  | 'otp'
  | 'oauth'
  | { server: { impersonation: boolean; lifetimeMs: number } }
  | 'passkey'
  | { secondFactor: SecondStep };

/** The second step of a sign-in: the first factor it followed (as the events name it), and what proved the second. */
export interface SecondStep {
  first: EventData<'sign_in.succeeded'>['method'];
  factor: 'totp' | 'recovery_code';
}

/** The answer of a password or e-mail-code sign-in: a new session's tokens and the user's id. */
export const signInAnswer = z
  .object({
    access_token: z.string(),
    refresh_token: z.string(),
    user_id: z.uuid(),
    is_new_user: z.boolean().optional(),
  })
  .meta({ id: 'SignInAnswer' });

/** A new session's tokens (`POST /auth/sessions`). */
export const sessionTokensAnswer = z
  .object({ access_token: z.string(), refresh_token: z.string() })
  .meta({ id: 'SessionTokens' });

/** The token endpoint's answer for a session (RFC 6749 §5.1), without what only a code exchange adds. */
export interface TokenEndpointAnswer {
  access_token: string;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
}

/** The token endpoint's answer to an authorization code: the session, who, and where the app goes next. */
export interface CodeExchangeAnswer extends TokenEndpointAnswer {
  refresh_token: string;
  user_id: string;
  is_new_user: boolean;
  newUser: boolean;
  after_callback_redirect_url: string | null;
  afterCallbackRedirectUrl: string | null;
}

/**
 * The wire answer a route gives: `session` (`POST /auth/sessions`: the
 * tokens), `sign-in` (password: and the user's id), `sign-in-or-up` (e-mail
 * code: and whether the account is new), `code-exchange` (the token
 * endpoint: RFC 6749 JSON, and where the app goes after its callback).
 */
export type SignInAnswerShape =
  | 'session'
  | 'sign-in'
  | 'sign-in-or-up'
  | { codeExchange: { afterCallbackRedirectUrl: string | null } };

type AnswerOf<S extends SignInAnswerShape> = S extends 'session'
  ? z.output<typeof sessionTokensAnswer>
  : S extends 'sign-in'
    ? Omit<z.output<typeof signInAnswer>, 'is_new_user'>
    : S extends 'sign-in-or-up'
      ? z.output<typeof signInAnswer> & { is_new_user: boolean }
      : CodeExchangeAnswer;

/** A sign-in whose person is proven: who, how, and what the route answers. */
export interface SignIn<S extends SignInAnswerShape> {
  method: SignInMethod;
  /**
   * Who signs in; or the work that commits with their session (creates the
   * user, uses the code), run in the session's transaction, which answers who.
   * Given as a value, the session's statement stands alone.
   */
  user: SignedIn | ((trx: Db) => Promise<SignedIn>);
  /** More writes for the session's statement (the sign-in's counted attempt, taken back). */
  also?: readonly Write[];
  answer: S;
}

/**
 * Ends a sign-in whose person is proven: opens the session (one statement
 * with its activity and audit rows), issues the access token, and answers
 * as the route does.
 *
 * @example
 * return completeSignIn(input, { method: 'password', user: { userId: user.id, isNewUser: false }, answer: 'sign-in' });
 */
export async function completeSignIn<S extends SignInAnswerShape>(
  caller: SignInCaller,
  signIn: SignIn<S>,
): Promise<AnswerOf<S>> {
  const { deps } = caller;
  const user = signIn.user;
  const opened = await act(signInContext(caller), async (tx) => {
    const signedIn = typeof user === 'function' ? await user(tx.db) : user;
    // A second factor, when the account has one, is asked for here: after the first is proven, before a session opens.
    return (await askSecondFactor(tx, caller, signIn, signedIn)) ?? openSession(tx, caller, signIn, signedIn);
  });
  if ('refusal' in opened) throw opened.refusal;
  return (await answer(deps, signIn.answer, opened)) as AnswerOf<S>;
}

/**
 * The action of a sign-in: in the project signed in to, by whoever the
 * request says (nobody yet, a signed-in user, or server code opening a
 * session), from where it came.
 */
function signInContext(caller: SignInCaller): ActionContext {
  const { deps, auth } = caller;
  const projectId = caller.project?.id ?? auth?.project.id;
  if (projectId === undefined) throw new Error('completeSignIn: no project to sign in to');
  const userId = auth?.userId ?? null;
  return {
    db: deps.db,
    clock: deps.clock,
    actor: actorOf(auth, userId),
    projectId,
    userId,
    client: caller.client,
    feed: deps.changes,
  };
}

/**
 * Records a refused sign-in (`sign_in.failed`) as its own action: `userId` is
 * the account it was for, null when none was found (never the typed address).
 *
 * @example
 * await refuseSignIn(input, { userId: null, method: 'password', reason: 'unknown_account' });
 */
export function refuseSignIn(
  caller: SignInCaller,
  refusal: { userId: string | null; method: 'password' | 'otp' | 'oauth' | 'passkey'; reason: string },
): Promise<void> {
  return act(signInContext(caller), (tx) =>
    record(tx, 'sign_in.failed', {
      userId: refusal.userId,
      data: { method: refusal.method, reason: refusal.reason },
    }),
  );
}

/**
 * The refusal of a person's sign-in that needs a second factor, its first
 * factor's writes (`also`) and its attempt code committed; null when the
 * session may open (server code's sessions, the second step itself, accounts
 * without TOTP in projects that do not require it).
 */
async function askSecondFactor(
  tx: ActionTx,
  caller: SignInCaller,
  signIn: SignIn<SignInAnswerShape>,
  user: SignedIn,
): Promise<{ refusal: Error } | null> {
  const method = signIn.method;
  if (typeof method === 'object') return null;
  const config = (caller.project ?? caller.auth?.project)?.config;
  const due = await secondFactorDue(tx.db, {
    projectId: tx.projectId,
    userId: user.userId,
    mfaRequired: config?.mfa_required ?? false,
  });
  if (!due) return null;
  const pending = { user_id: user.userId, method, is_new_user: user.isNewUser, due };
  const code = await issueAttempt(tx.db, { projectId: tx.projectId, now: caller.deps.clock.now(), pending });
  await writeTogether(tx.db, signIn.also ?? []);
  return { refusal: secondFactorRequired(due, code) };
}

/** A session a sign-in opened (or an OAuth link rotated), and whose it is. */
export interface OpenedSession extends SignedIn {
  projectId: string;
  sessionId: string;
  refreshToken: string;
}

/** Opens the session and records the sign-in, in one statement of the action `tx`. */
async function openSession(
  tx: ActionTx,
  caller: SignInCaller,
  signIn: SignIn<SignInAnswerShape>,
  user: SignedIn,
): Promise<OpenedSession> {
  const { deps } = caller;
  const { db, projectId } = tx;
  const { userId, isNewUser } = user;
  const now = deps.clock.now();
  const method = signIn.method;
  const also = signIn.also ?? [];
  if (typeof method === 'object' && 'server' in method) {
    const session = await createSession(db, {
      projectId,
      userId,
      now,
      lifetimeMs: method.server.lifetimeMs,
      client: caller.client,
      isImpersonation: method.server.impersonation,
      also: (id) => [
        ...also,
        ...recordWrites(tx, method.server.impersonation ? 'impersonation.started' : 'session.created', {
          userId,
          data: { session_id: id },
        }),
      ],
    });
    return { ...user, projectId, ...session };
  }
  const country = countryOf(caller.request, deps.countryHeader);
  // After a second step, the events name the first factor and what proved the second.
  const first = typeof method === 'object' ? method.secondFactor.first : method;
  const project = caller.project ?? caller.auth?.project;
  // Judged before the session is written: the new session must not count as the browser's own.
  if (project && !isNewUser) {
    await queueNewDeviceAlert(db, {
      project,
      userId,
      userAgent: caller.client.userAgent,
      origin: caller.request.headers.get('origin'),
      oauth: first === 'oauth',
      now,
    });
  }
  const secondFactor = typeof method === 'object' ? { second_factor: method.secondFactor.factor } : {};
  const session = await createSession(db, {
    projectId,
    userId,
    now,
    client: caller.client,
    also: () => [
      ...also,
      // The provider's callback marked a returning user active already.
      ...activityWrites(db, { projectId, userId, now, country, markActive: !isNewUser && first !== 'oauth' }),
      // An OAuth sign-in's first factor was recorded by the provider's callback; its second step is recorded here.
      ...(method === 'oauth'
        ? []
        : recordWrites(tx, isNewUser ? 'sign_up' : 'sign_in.succeeded', {
            userId,
            data: { method: first, ...secondFactor },
          })),
    ],
  });
  return { ...user, projectId, ...session };
}

/** The route's answer for the new session. */
async function answer(deps: SignInDeps, shape: SignInAnswerShape, session: OpenedSession): Promise<unknown> {
  if (typeof shape === 'object') {
    return codeExchangeAnswer(deps, session, shape.codeExchange.afterCallbackRedirectUrl);
  }
  const tokens = {
    access_token: await issueAccessToken(deps, session),
    refresh_token: session.refreshToken,
  };
  if (shape === 'session') return tokens;
  if (shape === 'sign-in') return { ...tokens, user_id: session.userId };
  return { ...tokens, user_id: session.userId, is_new_user: session.isNewUser };
}

/** A session's access token: the only place one is issued. */
function issueAccessToken(
  deps: Pick<SignInDeps, 'accessTokens'>,
  session: { projectId: string; userId: string; sessionId: string },
): Promise<string> {
  return deps.accessTokens.issue(session.projectId, session.userId, session.sessionId);
}

/**
 * The token endpoint's answer for a session: a new access token (a refresh,
 * or the start of a code exchange's answer).
 *
 * @example
 * const access = await tokenEndpointAnswer(deps, { projectId, userId: session.user_id, sessionId: session.id });
 */
async function tokenEndpointAnswer(
  deps: Pick<SignInDeps, 'accessTokens'>,
  session: { projectId: string; userId: string; sessionId: string },
): Promise<TokenEndpointAnswer> {
  return {
    access_token: await issueAccessToken(deps, session),
    token_type: 'Bearer',
    expires_in: constants.accessTokenLifetimeSeconds,
    scope: 'legacy',
  };
}

/**
 * The token endpoint's answer to an authorization code: a signed-in session,
 * or the session an OAuth link added the provider to (its token rotated).
 */
export async function codeExchangeAnswer(
  deps: Pick<SignInDeps, 'accessTokens'>,
  session: OpenedSession,
  afterCallbackRedirectUrl: string | null,
): Promise<CodeExchangeAnswer> {
  return {
    ...(await tokenEndpointAnswer(deps, session)),
    refresh_token: session.refreshToken,
    user_id: session.userId,
    is_new_user: session.isNewUser,
    newUser: session.isNewUser,
    after_callback_redirect_url: afterCallbackRedirectUrl,
    afterCallbackRedirectUrl,
  };
}

/**
 * A refresh (`refreshSession`: found, rotated when the client rotates) and
 * its new access token, as the token endpoint answers it, with the refresh
 * token the client must keep from then on when it rotated. The one refresh
 * of the token endpoint and of `POST /auth/sessions/current/refresh`.
 *
 * @example
 * const refreshed = await refreshAnswer(deps, { projectId, refreshToken, rotates: false, now, country, client });
 */
export async function refreshAnswer(
  deps: RefreshNeeds & Pick<SignInDeps, 'accessTokens'>,
  request: RefreshRequest,
): Promise<TokenEndpointAnswer & { refresh_token?: string }> {
  const refreshed = await refreshSession(deps, request);
  const session = { projectId: request.projectId, userId: refreshed.session.user_id, sessionId: refreshed.session.id };
  const access = await tokenEndpointAnswer(deps, session);
  return refreshed.refreshToken === null ? access : { ...access, refresh_token: refreshed.refreshToken };
}
