/**
 * A user's sessions as server code manages them (spec §7, wire-protocol.md
 * §14.1): create one for a user (`POST /auth/sessions`), list them
 * (`GET /auth/sessions?user_id=`), revoke one (`DELETE /auth/sessions/{id}`).
 */
import type { CreateSessionResponseWire, SessionWire } from '@latchkey/protocol';
import type { Send } from '../internal/core.js';
import { type Fields, readFields } from '../internal/decode/fields.js';

/**
 * How long a session created for a user lasts, and whether it is an impersonation.
 *
 * @example
 * ```ts
 * await user.createSession({ expiresInMillis: 3_600_000, isImpersonation: true });
 * ```
 */
export interface CreateSessionOptions {
  /** Lifetime of the refresh token; the service's default is one year (at most 367 days). */
  expiresInMillis?: number;
  /** Marks the session as started by server code on the user's behalf (support staff, say). */
  isImpersonation?: boolean;
}

/**
 * The tokens of a session server code created: hand them to a `ClientApp`
 * (`tokenStore: { accessToken, refreshToken }`) to act as the user.
 *
 * @example
 * ```ts
 * const { accessToken, refreshToken } = await user.createSession();
 * ```
 */
export interface SessionTokens {
  accessToken: string;
  refreshToken: string;
}

/**
 * One of a user's sessions (a signed-in device), without its tokens.
 *
 * @example
 * ```ts
 * for (const session of await user.listSessions()) console.log(session.id, session.lastUsedAt);
 * ```
 */
export interface UserSessionData {
  id: string;
  userId: string;
  createdAt: Date;
  /** When it was last used (signed in, refreshed). */
  lastUsedAt: Date;
  /** When its refresh token stops working. */
  expiresAt: Date;
  /** Address and user agent of the sign-in that opened it, when the service recorded them. */
  ip: string | null;
  userAgent: string | null;
  /** The browser and operating system the user agent names (`Chrome`, `macOS`); null when it names none. */
  browser: string | null;
  os: string | null;
  /** ISO 3166 alpha-2 code of the country it was opened from, when the service trusts a header for it. */
  country: string | null;
  /** True for the session whose tokens came with the request that listed it. */
  isCurrent: boolean;
  isImpersonation: boolean;
}

/**
 * One of a user's sessions, which server code, or the user, may end.
 *
 * @example
 * ```ts
 * const sessions = await user.listSessions();
 * await Promise.all(sessions.filter((s) => !s.isCurrent).map((s) => s.revoke()));
 * ```
 */
export interface UserSession extends UserSessionData {
  /** Ends the session: its refresh token stops working (its access token lasts until it expires). */
  revoke(): Promise<void>;
}

const ignoreAnswer = (): void => {};

/** `POST /auth/sessions`: a new session for `userId`. */
export function createSession(send: Send, userId: string, options: CreateSessionOptions = {}): Promise<SessionTokens> {
  const body = {
    user_id: userId,
    expires_in_millis: options.expiresInMillis,
    is_impersonation: options.isImpersonation,
  };
  return send({ method: 'POST', path: '/auth/sessions', body }, decodeSessionTokens);
}

/** `GET /auth/sessions?user_id=`: the user's sessions. */
export function listSessions(send: Send, userId: string): Promise<UserSessionData[]> {
  return send({ method: 'GET', path: '/auth/sessions', query: { user_id: userId } }, decodeSessionList);
}

/** `DELETE /auth/sessions/{id}`: ends the session; its refresh token stops working. */
export function revokeSession(send: Send, sessionId: string): Promise<void> {
  const path = `/auth/sessions/${encodeURIComponent(sessionId)}`;
  return send({ method: 'DELETE', path }, ignoreAnswer);
}

/** Decodes the answer of `POST /auth/sessions`. */
export function decodeSessionTokens(body: unknown): SessionTokens {
  return readFields<CreateSessionResponseWire, SessionTokens>(body, (answer) => ({
    accessToken: answer.nonEmptyString('access_token'),
    refreshToken: answer.nonEmptyString('refresh_token'),
  }));
}

/** Decodes the answer of `GET /auth/sessions` (`{items: [...]}`). */
export function decodeSessionList(body: unknown): UserSessionData[] {
  return readFields<{ items: SessionWire[] }, UserSessionData[]>(body, (list) => list.list('items', readSession));
}

function readSession(session: Fields<SessionWire>): UserSessionData {
  return {
    id: session.string('id'),
    userId: session.string('user_id'),
    createdAt: new Date(session.number('created_at_millis')),
    lastUsedAt: new Date(session.number('last_used_at_millis')),
    expiresAt: new Date(session.number('expires_at_millis')),
    ip: session.stringOrNull('ip'),
    userAgent: session.stringOrNull('user_agent'),
    browser: session.stringOrNull('browser'),
    os: session.stringOrNull('os'),
    country: session.stringOrNull('country'),
    isCurrent: session.boolean('is_current'),
    isImpersonation: session.boolean('is_impersonation'),
  };
}
