/**
 * `CurrentUser`: the signed-in user's data plus what they can do to their own
 * account, assembled from one slice per capability: the profile and session
 * (here), the password (`auth/password-auth.ts`), contact channels
 * (`contact-channels/contact-channel.ts`), teams (`teams/team.ts`),
 * connected accounts (`auth/oauth-auth.ts`), passkeys (`auth/passkey-auth.ts`),
 * the second factor (`auth/mfa-auth.ts`) and sessions and security activity
 * (`sessions/own-sessions.ts`). Also the account as
 * `ClientApp`'s queries (the user, `currentUserQuery`, also `'user'`, and
 * their connected accounts), the scope they load with, and `getUser`.
 * Mutations update the cache so subscribers see the result.
 */
import { headers, isKnownError, KnownError } from '@latchkey/protocol';
import { redirectToAuthPage } from '../auth/client-sign-in.js';
import { accountSecurityActions } from '../auth/deferred.js';
import type { MfaActions } from '../auth/mfa-auth.js';
import type { OAuthClient } from '../auth/oauth.js';
import { type ConnectedAccountActions, connectedAccountActions } from '../auth/oauth-auth.js';
import type { PasskeyActions } from '../auth/passkey-auth.js';
import { type PasswordActions, passwordActions } from '../auth/password-auth.js';
import {
  type ContactChannelActions,
  contactChannelActions,
  contactChannelsQuery,
} from '../contact-channels/contact-channel.js';
import { createDataStore } from '../internal/cache/data-store.js';
import type { Core } from '../internal/core.js';
import { publishableKeyCredentials, withSession } from '../internal/http/credentials.js';
import type { Session } from '../internal/session/session.js';
import { type SessionActions, sessionActions } from '../sessions/own-sessions.js';
import { type TeamActions, teamActions, teamsQuery } from '../teams/team.js';
import { accountKey, accountQuery, type ClientQuery, type ClientScope } from './account-data.js';
import type { ConnectedAccount, ConnectedAccountOptions } from './connected-accounts.js';
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
 * The profile and session slice of `CurrentUser`.
 *
 * @example
 * ```ts
 * await user.update({ displayName: 'Alice' });
 * const headers = await user.getAuthHeaders();
 * ```
 */
export interface ProfileActions {
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

/**
 * The signed-in user: their data and one slice of actions per capability.
 *
 * @example
 * ```ts
 * const user = await app.getUser({ or: 'redirect' });
 * await user.update({ displayName: 'Alice', clientMetadata: { theme: 'dark' } });
 * await user.signOut();
 * ```
 */
export interface CurrentUser
  extends UserData,
    ProfileActions,
    PasswordActions,
    ContactChannelActions,
    TeamActions,
    ConnectedAccountActions,
    PasskeyActions,
    MfaActions,
    SessionActions {}

/**
 * The signed-in user (`null` when signed out), as a query of `ClientApp`
 * (also `app.load('user')`, `app.getUser()`).
 *
 * @example
 * ```ts
 * const user = await app.load(currentUserQuery);
 * ```
 */
export const currentUserQuery: ClientQuery<CurrentUser | null> = accountQuery(['user'], async (scope) => {
  const loaded = await fetchCurrentUser(scope.send, decodeClientUser);
  return loaded && createCurrentUser(loaded, scope);
});

/**
 * The signed-in user's account at `providerId` (`null` when none is
 * connected with `scopes`, or nobody is signed in), as a query of
 * `ClientApp`; disconnecting re-reads it.
 *
 * @example
 * ```ts
 * const github = await app.load(connectedAccountQuery('github', { scopes: ['repo'] }));
 * ```
 */
export function connectedAccountQuery(
  providerId: string,
  options: ConnectedAccountOptions = {},
): ClientQuery<ConnectedAccount | null> {
  const scopes = options.scopes ?? [];
  return accountQuery(['connectedAccounts', providerId, ...scopes], async (scope) => {
    const user = await scope.data.load(currentUserQuery);
    return user ? user.getConnectedAccount(providerId, { scopes }) : null;
  });
}

/**
 * Every connected account of the signed-in user (`[]` signed out), as a query of `ClientApp`.
 *
 * @example
 * ```ts
 * const accounts = await app.load(connectedAccountsQuery);
 * ```
 */
export const connectedAccountsQuery: ClientQuery<ConnectedAccount[]> = /* @__PURE__ */ accountQuery(
  ['connectedAccounts'],
  async (scope) => (await (await scope.data.load(currentUserQuery))?.listConnectedAccounts()) ?? [],
);

/**
 * The scope of `ClientApp`'s modules and queries over `core`: `send` with the
 * user's credentials, `sendAsApp` with the publishable key only. A session
 * that ends elsewhere (another tab, a refused refresh) sets the user to
 * `null` and the channels and teams to `[]` at once; a new session forgets
 * the old account and loads the new one.
 */
export function createClientScope(core: Core<Session>, oauth: OAuthClient): ClientScope {
  const appKey = publishableKeyCredentials(oauth.publishableClientKey);
  const sendAsApp = core.sender(appKey);
  const send = core.sender(withSession(appKey, core.session));
  const data = createDataStore(core.cache, () => scope);
  const reloadUser = async () => void (await data.reload(currentUserQuery));
  const scope: ClientScope = {
    core,
    send,
    sendAsApp,
    // The session knows its mode; a sign-in answer is decoded in it.
    sendSignIn: (request, decode) => sendAsApp(request, (body) => decode(body, core.session.serviceCookie)),
    data,
    oauth,
    reloadUser,
    reloadWithUser: async (query) => void (await Promise.all([data.reload(query), reloadUser()])),
  };
  core.session.onChange((refreshToken) => {
    if (refreshToken) data.reset(accountKey());
    else setSignedOut(scope);
  });
  return scope;
}

/** Stores the user a server saw (`ClientAppOptions.initialUser`) as the `'user'` data, so nothing loads it first. */
export function primeCurrentUser(scope: ClientScope, user: UserData | null): void {
  scope.data.set(currentUserQuery, user && createCurrentUser(user, scope));
}

/** The signed-in user of `scope` with `user`'s data: the data, then each capability's slice. */
function createCurrentUser(user: UserData, scope: ClientScope): CurrentUser {
  return {
    ...user,
    ...profileActions(scope),
    ...passwordActions(scope),
    ...contactChannelActions(user, scope),
    ...teamActions(scope),
    ...connectedAccountActions(user, scope),
    ...accountSecurityActions(scope),
    ...sessionActions(scope),
  };
}

/** The profile and session slice of the signed-in user of `scope`. */
function profileActions(scope: ClientScope): ProfileActions {
  const getTokens = async (): Promise<UserTokens> => {
    const tokens = await scope.core.session.getTokens();
    return { accessToken: tokens?.accessToken ?? null, refreshToken: tokens?.refreshToken ?? null };
  };
  return {
    async update(update) {
      await updateCurrentUser(scope.send, update);
      await scope.reloadUser();
    },
    async signOut(options = {}) {
      await endSession(scope);
      if (!options.noRedirect) await scope.core.redirect(options.redirectUrl ?? scope.core.urls.afterSignOut);
    },
    async delete() {
      await deleteCurrentUser(scope.send);
      signOutLocally(scope);
    },
    getTokens,
    async getAuthHeaders() {
      return { [headers.authJson]: JSON.stringify(await getTokens()) };
    },
  };
}

/**
 * What `getUser` does when nobody is signed in.
 *
 * @example
 * ```ts
 * const user = await app.getUser({ or: 'redirect' satisfies GetUserOr });
 * ```
 */
export type GetUserOr = 'return-null' | 'redirect' | 'throw';

/**
 * `ClientApp`'s way to the signed-in user.
 *
 * @example
 * ```ts
 * const user = await app.getUser({ or: 'throw' });
 * ```
 */
export interface CurrentUserAccess {
  /**
   * The signed-in user, or what `or` asks for when nobody is: `null`
   * (default), a redirect to sign-in, or a thrown `USER_AUTHENTICATION_REQUIRED`.
   */
  getUser(options: { or: 'redirect' | 'throw' }): Promise<CurrentUser>;
  getUser(options?: { or?: GetUserOr }): Promise<CurrentUser | null>;
}

/** The current-user module of `ClientApp`. */
export function currentUserAccess(scope: ClientScope): CurrentUserAccess {
  return {
    getUser: (async (options: { or?: GetUserOr } = {}) => {
      const user = await scope.data.load(currentUserQuery);
      if (user || !options.or || options.or === 'return-null') return user;
      if (options.or === 'throw') throw new KnownError('USER_AUTHENTICATION_REQUIRED', undefined, notSignedIn);
      await redirectToAuthPage(scope.core, scope.core.urls.signIn);
      throw new KnownError('USER_AUTHENTICATION_REQUIRED', undefined, 'Nobody is signed in; went to the sign-in page.');
    }) as CurrentUserAccess['getUser'],
  };
}

/** Spec §8's wording (also `clientMessages.notSignedIn`); the SDK raises it, so it carries it. */
const notSignedIn = "User is not signed in but getUser was called with { or: 'throw' }";

/**
 * Revokes the session on the service, then clears it locally whatever the
 * answer. A refresh token the service no longer knows is no failure (spec §4).
 */
async function endSession(scope: ClientScope): Promise<void> {
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

function signOutLocally(scope: ClientScope): void {
  scope.core.session.clear();
  setSignedOut(scope);
}

/** What a signed-out account is known to have; the rest of the account's data is forgotten. */
function setSignedOut({ data }: ClientScope): void {
  data.set(currentUserQuery, null);
  data.set(contactChannelsQuery, []);
  data.set(teamsQuery, []);
  data.reset(accountKey('team'));
  data.reset(accountKey('connectedAccounts'));
  data.reset(accountKey('passkeys'));
  data.reset(accountKey('sessions'));
  data.reset(accountKey('securityActivity'));
}
