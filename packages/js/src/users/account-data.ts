/**
 * The signed-in account as `ClientApp`'s data: the scope its queries load
 * with, and `accountQuery`, which makes every query of the account. They are
 * keyed under `me`, so a new or ended session forgets them all at once
 * (`reset(['me'])`); each takes in another tab's session before a read and
 * watches the session cookies while subscribed.
 */
import type { OAuthClient } from '../auth/oauth.js';
import type { SendSignIn } from '../auth/password.js';
import type { DataStore } from '../internal/cache/data-store.js';
import type { Core, Send } from '../internal/core.js';
import type { Session } from '../internal/session/session.js';
import type { Query, QueryKey } from '../query.js';
import { signedInOnly } from './users-api.js';

/**
 * The scope of `ClientApp`'s modules and queries: the core and its session,
 * the user's and the app's credentials, the cache, and what the account's
 * objects work with.
 *
 * @example
 * ```ts
 * const teams = await scope.data.load(teamsQuery);
 * ```
 */
export interface ClientScope {
  readonly core: Core<Session>;
  /** Sends with the publishable key and the session, when there is one. */
  readonly send: Send;
  /** Sends with the publishable key only (the project, the e-mail flows). */
  readonly sendAsApp: Send;
  /** Sends a sign-in with the publishable key, decoded in the session's mode. */
  readonly sendSignIn: SendSignIn;
  readonly data: DataStore<ClientScope>;
  /** Who the app is to the service's OAuth endpoints. */
  readonly oauth: OAuthClient;
  /** Re-reads the signed-in user (after a change of their own fields). */
  reloadUser(): Promise<void>;
  /** Re-reads `query` and the user, who carries some of its data (the primary e-mail, the selected team). */
  reloadWithUser(query: ClientQuery<unknown>): Promise<void>;
}

/**
 * A query `ClientApp` runs.
 *
 * @example
 * ```ts
 * const members: ClientQuery<TeamUser[]> = teamMembersQuery(team);
 * ```
 */
export type ClientQuery<T> = Query<T, ClientScope>;

/** The key of the account's data `parts` (below `me`). */
export const accountKey = (...parts: QueryKey): QueryKey => ['me', ...parts];

/**
 * A query of the signed-in account at `accountKey(...key)`. With `signedOut`,
 * it answers that without asking when nobody is signed in, and when the
 * service says nobody is.
 */
export function accountQuery<T>(
  key: QueryKey,
  load: (scope: ClientScope) => Promise<T>,
  signedOut?: T,
): ClientQuery<T> {
  return {
    key: accountKey(...key),
    load:
      signedOut === undefined
        ? load
        : async (scope) =>
            scope.core.session.stored().refreshToken ? signedInOnly(load(scope), signedOut) : signedOut,
    watch: (scope) => scope.core.session.watch(),
    sync: (scope) => void scope.core.session.stored(),
  };
}
