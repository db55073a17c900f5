/**
 * `CurrentUser`: the signed-in user's data plus what they can do to their own
 * account. Mutations update the app's cache so subscribers see the result.
 */
import { headers, isKnownError } from '@latchkey/protocol';
import { type ClientContext, cacheKeys } from '../internal/client-context.js';
import { mapClientUser, type UserData } from './user-mapper.js';
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

/** Loads the signed-in user, or `null`. */
export async function loadCurrentUser(context: ClientContext): Promise<CurrentUser | null> {
  const wire = await fetchCurrentUser(context.send);
  return wire ? createCurrentUser(mapClientUser(wire), context) : null;
}

export function createCurrentUser(data: UserData, context: ClientContext): CurrentUser {
  const getTokens = async (): Promise<UserTokens> => {
    const tokens = await context.session.getTokens();
    return { accessToken: tokens?.accessToken ?? null, refreshToken: tokens?.refreshToken ?? null };
  };
  return {
    ...data,
    async update(update) {
      await updateCurrentUser(context.send, update);
      await context.cache.refetch(cacheKeys.user, () => loadCurrentUser(context));
    },
    async signOut(options = {}) {
      await endSession(context);
      if (!options.noRedirect) await context.redirect(options.redirectUrl ?? context.urls.afterSignOut);
    },
    async delete() {
      await deleteCurrentUser(context.send);
      signOutLocally(context);
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
export async function endSession(context: ClientContext): Promise<void> {
  try {
    if (context.session.stored().refreshToken) await deleteCurrentSession(context.send);
  } catch (error) {
    const sessionAlreadyOver = !context.session.stored().refreshToken;
    if (!isKnownError(error, 'REFRESH_TOKEN_ERROR') && !sessionAlreadyOver) throw error;
  } finally {
    signOutLocally(context);
  }
}

function signOutLocally(context: ClientContext): void {
  context.session.clear();
  context.cache.set(cacheKeys.user, null);
}
