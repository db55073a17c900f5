/**
 * `CurrentUser`: the signed-in user's data plus what they can do to their own
 * account, and the current user as app data (`'user'` in the cache).
 * Mutations update the cache so subscribers see the result.
 */
import { headers, isKnownError } from '@latchkey/protocol';
import type { DataQuery } from '../internal/cache/data-store.js';
import type { Core, Send } from '../internal/core.js';
import type { Session } from '../internal/session/session.js';
import { decodeClientUser, type UserData } from './user-decoder.js';
import {
  deleteCurrentSession,
  deleteCurrentUser,
  fetchCurrentUser,
  type UserUpdate,
  updateCurrentUser,
} from './users-api.js';

/**
 * Where to go after signing out; `noRedirect` stays on the page.
 *
 * @example
 * ```ts
 * await user.signOut({ redirectUrl: '/goodbye' });
 * ```
 */
export interface SignOutOptions {
  redirectUrl?: string;
  noRedirect?: boolean;
}

/**
 * The session's tokens as the user's code may forward them; `null` when signed out.
 *
 * @example
 * ```ts
 * const { accessToken } = await user.getTokens();
 * ```
 */
export interface UserTokens {
  accessToken: string | null;
  refreshToken: string | null;
}

/**
 * The signed-in user.
 *
 * @example
 * ```ts
 * const user = await app.getUser({ or: 'redirect' });
 * await user.update({ displayName: 'Alice', clientMetadata: { theme: 'dark' } });
 * await user.signOut();
 * ```
 */
export interface CurrentUser extends UserData {
  /** Changes the user's own fields, then re-reads the user. */
  update(update: UserUpdate): Promise<void>;
  /** Ends the session on the service and locally, then goes to the after-sign-out page. */
  signOut(options?: SignOutOptions): Promise<void>;
  /** Deletes the account (the project must allow it), then signs out locally. */
  delete(): Promise<void>;
  /** Current tokens, refreshed when close to expiry. */
  getTokens(): Promise<UserTokens>;
  /** `{ 'x-stack-auth': '{"accessToken":...,"refreshToken":...}' }` for calls to your own server. */
  getAuthHeaders(): Promise<Record<string, string>>;
}

/** What a user object works with: the core and its session, the user's credentials, its cache entry. */
interface UserScope {
  core: Core<Session>;
  send: Send;
  query: DataQuery<CurrentUser | null>;
}

/**
 * The current user as app data, loaded with `send` (the user's credentials).
 * While subscribed it watches other tabs; before each read it takes in their
 * changes. A session that ends elsewhere (another tab, a refused refresh)
 * sets it to `null` at once; a new session forgets the old user and loads the new one.
 */
export function currentUserQuery(core: Core<Session>, send: Send): DataQuery<CurrentUser | null> {
  const { session, data } = core;
  const query: DataQuery<CurrentUser | null> = {
    key: 'user',
    load: async () => {
      const user = await fetchCurrentUser(send, decodeClientUser);
      return user && createCurrentUser(user, scope);
    },
    watch: () => session.watch(),
    sync: () => void session.stored(),
  };
  const scope: UserScope = { core, send, query };
  session.onChange((refreshToken) => (refreshToken ? data.reset(query) : data.set(query, null)));
  return query;
}

function createCurrentUser(user: UserData, scope: UserScope): CurrentUser {
  const { core, send, query } = scope;
  const getTokens = async (): Promise<UserTokens> => {
    const tokens = await core.session.getTokens();
    return { accessToken: tokens?.accessToken ?? null, refreshToken: tokens?.refreshToken ?? null };
  };
  return {
    ...user,
    async update(update) {
      await updateCurrentUser(send, update);
      await core.data.reload(query);
    },
    async signOut(options = {}) {
      await endSession(scope);
      if (!options.noRedirect) await core.redirect(options.redirectUrl ?? core.urls.afterSignOut);
    },
    async delete() {
      await deleteCurrentUser(send);
      signOutLocally(scope);
    },
    getTokens,
    async getAuthHeaders() {
      return { [headers.authJson]: JSON.stringify(await getTokens()) };
    },
  };
}

/**
 * Revokes the session on the service, then clears it locally whatever the
 * answer. A refresh token the service no longer knows is no failure (spec §4).
 */
async function endSession(scope: UserScope): Promise<void> {
  const { session } = scope.core;
  try {
    if (session.stored().refreshToken) await deleteCurrentSession(scope.send);
  } catch (error) {
    const sessionAlreadyOver = !session.stored().refreshToken;
    if (!isKnownError(error, 'REFRESH_TOKEN_ERROR') && !sessionAlreadyOver) throw error;
  } finally {
    signOutLocally(scope);
  }
}

function signOutLocally({ core, query }: UserScope): void {
  core.session.clear();
  core.data.set(query, null);
}
