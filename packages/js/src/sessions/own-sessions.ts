/**
 * The signed-in user's own sessions and security activity: the sessions
 * slice of `CurrentUser` (list, end one, end all but this one) and the
 * queries of `ClientApp` that hold them (`sessionsQuery`,
 * `securityActivityQuery`). Their code (`own-sessions-code.ts`) is loaded on
 * the first call, as passkeys' is (`auth/deferred.ts`): a page that never
 * shows the sessions never loads it.
 */
import type { AuditEventType } from '@latchkey/protocol';
import { deferred } from '../auth/deferred.js';
import { accountQuery, type ClientQuery, type ClientScope } from '../users/account-data.js';
import type { UserSession } from './sessions-api.js';

const loadCode = () => import('./own-sessions-code.js');

/**
 * One of the signed-in user's security events (a sign-in, a failed one, a
 * password or e-mail change, a new connection, a session ended), from where
 * as far as they can recognise it.
 *
 * @example
 * ```ts
 * const failed = (await user.listSecurityActivity()).filter((event) => event.type === 'sign_in.failed');
 * ```
 */
export interface SecurityEvent {
  id: string;
  type: AuditEventType;
  occurredAt: Date;
  /** The browser and operating system of the request (`Chrome`, `macOS`), null when unknown. */
  browser: string | null;
  os: string | null;
  /** ISO 3166 alpha-2 code, when the service trusts a country header. */
  country: string | null;
  /** The address cut to its network (`203.0.113.x`): a failed sign-in's address is a stranger's. */
  ipAddress: string | null;
  /** How a sign-in (or failed one) was made: `password`, `otp`, `oauth`, `passkey`. */
  method: string | null;
  /** The OAuth provider of a sign-in or a connection. */
  provider: string | null;
}

/**
 * The sessions slice of `CurrentUser`.
 *
 * @example
 * ```ts
 * const sessions = await user.listSessions();
 * await user.revokeOtherSessions(); // "sign out everywhere else"
 * ```
 */
export interface SessionActions {
  /**
   * The user's sessions, most recently used first (also app data:
   * `app.load(sessionsQuery)`); `isCurrent` marks this one. Ending one
   * re-reads them; ending the current one signs out here.
   */
  listSessions(): Promise<UserSession[]>;
  /** Ends every session of the user but this one; then re-reads them. */
  revokeOtherSessions(): Promise<void>;
  /** The user's own security events of the last 90 days, newest first (also `app.load(securityActivityQuery)`). */
  listSecurityActivity(): Promise<SecurityEvent[]>;
}

/**
 * The signed-in user's sessions (`[]` when signed out), as a query of
 * `ClientApp`; ending one re-reads it.
 *
 * @example
 * ```ts
 * const sessions = await app.load(sessionsQuery);
 * ```
 */
export const sessionsQuery: ClientQuery<UserSession[]> = /* @__PURE__ */ accountQuery(
  ['sessions'],
  async (scope) => (await loadCode()).ownSessions(scope),
  [],
);

/**
 * The signed-in user's security events of the last 90 days (`[]` when
 * signed out), as a query of `ClientApp`; ending a session re-reads it.
 *
 * @example
 * ```ts
 * const events = await app.load(securityActivityQuery);
 * ```
 */
export const securityActivityQuery: ClientQuery<SecurityEvent[]> = /* @__PURE__ */ accountQuery(
  ['securityActivity'],
  async (scope) => (await loadCode()).securityActivity(scope),
  [],
);

/** The sessions slice of the signed-in user of `scope`. */
export const sessionActions = (scope: ClientScope) =>
  deferred<SessionActions>(scope, loadCode, 'listSessions revokeOtherSessions listSecurityActivity');
