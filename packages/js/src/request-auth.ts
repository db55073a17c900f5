/**
 * @latchkey/js/request-auth: who signed an incoming request in, for code
 * that sits in front of an app (a middleware, an edge function) and holds no
 * secret key. It reads the session cookies the browser SDK writes (or the
 * `x-stack-auth` header), or the service's HttpOnly refresh-token cookie
 * where the service runs on the app's origin in the refresh-token cookie
 * mode; verifies the access token locally against the project's JWKS
 * (fetched once, cached 300 s: no call to the service while the token is
 * valid), refreshes an expired one with the publishable key (one refresh for
 * concurrent requests of one session), and says which cookies to set so the
 * browser keeps the refreshed session (in the cookie mode HttpOnly ones only:
 * the refresh token never reaches a script).
 * Web APIs only (`fetch`, `crypto.subtle`): no Node built-ins, no server key.
 *
 * @example
 * ```ts
 * import { createRequestAuth, sessionCookies } from '@latchkey/js/request-auth';
 *
 * const auth = createRequestAuth({ projectId, baseUrl, publishableClientKey });
 * const result = await auth.authenticate(request);
 * if (result.status === 'signed-out') return Response.redirect(new URL('/handler/sign-in', request.url));
 * for (const cookie of result.cookies) console.log(cookie.name); // set them on the response
 * ```
 */
import { accessTokenCookieMaxAgeSeconds } from '@latchkey/protocol';
import { createCore } from './internal/core.js';
import { noCredentials } from './internal/http/credentials.js';
import { createAccessTokenVerifier } from './internal/session/access-token-verifier.js';
import { sessionCookieValues } from './internal/session/cookie-store.js';
import { createRefresher, type RefreshOutcome } from './internal/session/refresh-request.js';
import { requestSession } from './internal/session/request-tokens.js';
import {
  boundAccessToken,
  serviceAccessCookieName,
  serviceAccessCookieValue,
  sessionHandleCookieName,
} from './internal/session/service-cookie-session.js';
import { systemClock } from './internal/timers.js';
import type { Clock, FetchFunction, Timers } from './options.js';
import type { RequestTokenStore } from './server-types.js';

/**
 * Options of `createRequestAuth`: the project and the service, and its
 * publishable key (to refresh sessions). No secret key.
 *
 * @example
 * ```ts
 * const options: RequestAuthOptions = { projectId, baseUrl: 'https://auth.example.com', publishableClientKey };
 * ```
 */
export interface RequestAuthOptions {
  projectId: string;
  baseUrl: string;
  publishableClientKey: string;
  fetch?: FetchFunction;
  /** Time source for token expiry; tests move it. */
  clock?: Clock;
  /** Timer functions for retries. */
  timers?: Timers;
}

/**
 * A session's two tokens, as the cookies hold them.
 *
 * @example
 * ```ts
 * const tokens: SessionTokens = { accessToken: null, refreshToken: 'r' }; // the access token expired
 * ```
 */
export interface SessionTokens {
  accessToken: string | null;
  refreshToken: string | null;
}

/**
 * What `authenticate` found. `signed-in`: the user id, the tokens to go on
 * with, and whether they were refreshed. `signed-out`: nobody; `ended` when
 * the request carried a session the service refused. `cookies`: what to set
 * on the response so the browser keeps the session as it now is (the
 * refreshed one stored, the ended one deleted; none when nothing changed), in
 * the store the request came with: the browser SDK's cookies, or in the
 * refresh-token cookie mode the HttpOnly access cookie beside the service's.
 *
 * @example
 * ```ts
 * const result: RequestAuthResult = await auth.authenticate(request);
 * const who = result.status === 'signed-in' ? result.userId : null;
 * ```
 */
export type RequestAuthResult =
  | {
      status: 'signed-in';
      userId: string;
      expiresAt: Date | null;
      tokens: SessionTokens;
      refreshed: boolean;
      cookies: SessionCookie[];
    }
  | { status: 'signed-out'; ended: boolean; cookies: SessionCookie[] };

/**
 * Reads and checks the session of incoming requests.
 *
 * @example
 * ```ts
 * const { accessToken } = auth.readTokens(request);
 * ```
 */
export interface RequestAuth {
  /** The tokens a request (or its headers, or tokens given as they are) carries, unchecked. */
  readTokens(source: RequestTokenStore): SessionTokens;
  /**
   * The request's user: its access token verified locally (no call to the
   * service); when that is missing, expired or invalid and a refresh token
   * is there, one refresh (the refresh token is kept, never rotated, so
   * parallel requests of one browser all go on; concurrent calls with one
   * refresh token share one refresh). Throws when the service cannot be reached.
   */
  authenticate(source: RequestTokenStore): Promise<RequestAuthResult>;
}

/**
 * The request authenticator of a project.
 *
 * @example
 * ```ts
 * const auth = createRequestAuth({ projectId, baseUrl, publishableClientKey });
 * const result = await auth.authenticate({ cookie: request.headers.get('cookie') ?? '' });
 * ```
 */
export function createRequestAuth(options: RequestAuthOptions): RequestAuth {
  const { projectId } = options;
  const clock = options.clock ?? systemClock;
  const core = createCore(options);
  const verify = createAccessTokenVerifier(projectId, core.sender(noCredentials), clock);
  const refresher = createRefresher({ ...options, rotates: false });
  /** Refreshes in flight by refresh token: the renders of one request (or a browser's parallel requests) share one. */
  const pending = new Map<string, Promise<RefreshOutcome>>();
  const refresh = (refreshToken: string) => {
    let outcome = pending.get(refreshToken);
    if (!outcome) {
      outcome = refresher(refreshToken).finally(() => pending.delete(refreshToken));
      pending.set(refreshToken, outcome);
    }
    return outcome;
  };
  return {
    readTokens: (source) => requestSession(source, projectId).tokens,
    async authenticate(source) {
      const { tokens: sent, serviceCookie } = requestSession(source, projectId);
      const tokens =
        serviceCookie && sent.refreshToken
          ? { ...sent, accessToken: await boundAccessToken(serviceCookie.header, projectId, sent.refreshToken) }
          : sent;
      const store = async (kept: SessionTokens | null) =>
        serviceCookie ? serviceSessionCookies(projectId, kept, serviceCookie.name) : sessionCookies(projectId, kept);
      const verified = tokens.accessToken ? await verify(tokens.accessToken) : null;
      if (verified) return signedIn(verified, tokens, false, []);
      if (!tokens.refreshToken) return { status: 'signed-out', ended: false, cookies: [] };
      const outcome = await refresh(tokens.refreshToken);
      if (outcome.kind === 'refused') return { status: 'signed-out', ended: true, cookies: await store(null) };
      const fresh = { accessToken: outcome.accessToken, refreshToken: outcome.refreshToken ?? tokens.refreshToken };
      const checked = await verify(fresh.accessToken);
      if (!checked) return { status: 'signed-out', ended: true, cookies: await store(null) };
      return signedIn(checked, fresh, true, await store(fresh));
    },
  };
}

function signedIn(
  verified: { userId: string; expiresAt: number | null },
  tokens: SessionTokens,
  refreshed: boolean,
  cookies: SessionCookie[],
): RequestAuthResult {
  const expiresAt = verified.expiresAt === null ? null : new Date(verified.expiresAt);
  return { status: 'signed-in', userId: verified.userId, expiresAt, tokens, refreshed, cookies };
}

/**
 * A cookie of the session to set on a response: its name, its value
 * (unencoded: the framework's cookie API encodes it), lifetime, and whether
 * no script may read it (`httpOnly`); an empty value with `maxAgeSeconds: 0`
 * deletes it. Set each with `path=/` and `SameSite=Lax`, and `Secure` on
 * https, as the browser SDK does.
 *
 * @example
 * ```ts
 * const cookie: SessionCookie = { name: 'stack-access', value: '["r","a"]', maxAgeSeconds: 86400 };
 * ```
 */
export interface SessionCookie {
  name: string;
  value: string;
  maxAgeSeconds: number;
  httpOnly?: boolean;
}

/**
 * The cookies that store `tokens` as the browser SDK's cookie store does
 * (the refresh token in `stack-refresh-<projectId>`, the pair in
 * `stack-access`), or delete them (`null`); the legacy cookie is deleted.
 *
 * @example
 * ```ts
 * for (const { name, value, maxAgeSeconds } of sessionCookies(projectId, result.tokens)) {
 *   response.cookies.set(name, value, { maxAge: maxAgeSeconds, path: '/', sameSite: 'lax' });
 * }
 * ```
 */
export function sessionCookies(projectId: string, tokens: SessionTokens | null): SessionCookie[] {
  return sessionCookieValues(projectId, tokens).map(([name, value, maxAgeSeconds]) =>
    value ? { name, value, maxAgeSeconds } : { name, value: '', maxAgeSeconds: 0 },
  );
}

/**
 * The cookies that store `tokens`, or delete them (`null`), in the
 * refresh-token cookie mode (the service on the app's origin): the HttpOnly
 * `latchkey-access-<projectId>` with the access token, bound to the refresh
 * token by a digest (no copy of it). The refresh token stays in the service's
 * cookie, which is the service's to write; deleting also expires it (under
 * `refreshCookieName`, the name the request sent it by, at `Path=/`) and the
 * browser SDK's session handle, as the service's refusal would.
 *
 * @example
 * ```ts
 * const cookies = await serviceSessionCookies(projectId, null, `__Host-latchkey-refresh-${projectId}`);
 * ```
 */
export async function serviceSessionCookies(
  projectId: string,
  tokens: SessionTokens | null,
  refreshCookieName: string,
): Promise<SessionCookie[]> {
  const name = serviceAccessCookieName(projectId);
  const value = tokens && (await serviceAccessCookieValue(tokens));
  if (tokens) return value ? [{ name, value, maxAgeSeconds: accessTokenCookieMaxAgeSeconds, httpOnly: true }] : [];
  return [
    { name, value: '', maxAgeSeconds: 0, httpOnly: true },
    { name: refreshCookieName, value: '', maxAgeSeconds: 0, httpOnly: true },
    { name: sessionHandleCookieName(projectId), value: '', maxAgeSeconds: 0 },
  ];
}
