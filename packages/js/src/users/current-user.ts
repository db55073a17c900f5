/**
 * `CurrentUser`: the signed-in user's data plus what they can do to their own
 * account, and the account as `ClientApp`'s queries: the user
 * (`currentUserQuery`, also `'user'`) and their connected accounts; the
 * scope every account query loads with. Mutations update the cache so
 * subscribers see the result.
 */
import { headers, isKnownError, KnownError } from '@latchkey/protocol';
import type { StartOAuthFlow } from '../auth/oauth.js';
import {
  type ContactChannel,
  contactChannelsQuery,
  createContactChannel,
} from '../contact-channels/contact-channel.js';
import {
  createContactChannel as addContactChannel,
  type ContactChannelCreate,
  sendPrimaryVerificationCode,
} from '../contact-channels/contact-channels-api.js';
import { createDataStore } from '../internal/cache/data-store.js';
import { callbackUrl } from '../internal/callback-url.js';
import type { Core, Send } from '../internal/core.js';
import { currentLocation, trustedRedirectPath } from '../internal/redirect.js';
import type { Session } from '../internal/session/session.js';
import { createTeamObject, type Team, teamKey, teamsQuery } from '../teams/team.js';
import { readClientTeam } from '../teams/team-decoder.js';
import {
  type TeamPermissionQueries,
  type TeamRef,
  teamIdOf,
  teamPermissionQueries,
} from '../teams/team-permissions.js';
import {
  createTeam,
  fetchTeamProfile,
  removeTeamMember,
  type TeamMemberProfile,
  updateTeamProfile,
} from '../teams/teams-api.js';
import { accountKey, accountQuery, type ClientQuery, type ClientScope } from './account-data.js';
import {
  type ConnectedAccount,
  type ConnectedAccountOptions,
  type ConnectedAccountQueries,
  connectedAccountQueries,
} from './connected-accounts.js';
import { decodeClientUser, type UserData } from './user-decoder.js';
import {
  deleteCurrentSession,
  deleteCurrentUser,
  fetchCurrentUser,
  setPassword,
  type UserUpdate,
  updateCurrentUser,
  updatePassword,
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
/**
 * The signed-in user's profile in one team, which they may change.
 *
 * @example
 * ```ts
 * const profile = await user.getTeamProfile(team);
 * await profile.update({ displayName: 'Ada (Acme)' });
 * ```
 */
export interface EditableTeamMemberProfile extends TeamMemberProfile {
  update(profile: Partial<TeamMemberProfile>): Promise<void>;
}

/**
 * Options of `CurrentUser.getConnectedAccount`: the scopes the account must
 * grant, and what to do when it is not connected (with them): answer `null`
 * (default) or start connecting it (`'redirect'`).
 *
 * @example
 * ```ts
 * const github = await user.getConnectedAccount('github', { scopes: ['repo'], or: 'redirect' } satisfies GetConnectedAccountOptions);
 * ```
 */
export interface GetConnectedAccountOptions extends ConnectedAccountOptions {
  or?: 'return-null' | 'redirect';
}

/**
 * Options of `CurrentUser.linkConnectedAccount`: extra provider scopes, and
 * the page to come back to (default: this page).
 *
 * @example
 * ```ts
 * await user.linkConnectedAccount('github', { scopes: ['repo'], returnTo: '/settings' } satisfies LinkConnectedAccountOptions);
 * ```
 */
export interface LinkConnectedAccountOptions {
  scopes?: string[];
  returnTo?: string;
}

export interface CurrentUser extends UserData, TeamPermissionQueries, ConnectedAccountQueries {
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
  /**
   * Changes the password; a wrong `oldPassword` is thrown as
   * `PASSWORD_CONFIRMATION_MISMATCH`. The user's other sessions end; this one stays.
   */
  updatePassword(options: { oldPassword: string; newPassword: string }): Promise<void>;
  /** Gives a password to a user who has none (`hasPassword` false), then re-reads the user. */
  setPassword(options: { password: string }): Promise<void>;
  /**
   * Mails a verification link to the primary e-mail. `callbackUrl` (your
   * e-mail verification page) defaults to `<origin><handler>/email-verification`
   * in browsers. An address already verified is no failure.
   */
  sendVerificationEmail(options?: { callbackUrl?: string }): Promise<void>;
  /** The user's e-mail addresses (also app data: `app.load('contactChannels')`). */
  listContactChannels(): Promise<ContactChannel[]>;
  /** Adds an e-mail address (unverified); then re-reads the user's channels and the user. */
  createContactChannel(options: Omit<ContactChannelCreate, 'isVerified'>): Promise<ContactChannel>;
  /** The user's teams (also app data: `app.load('teams')`). */
  listTeams(): Promise<Team[]>;
  /** One of the user's teams, or `null`. */
  getTeam(teamId: string): Promise<Team | null>;
  /** Creates a team the user is the first member of (the project must allow it); then re-reads the teams. */
  createTeam(options: { displayName: string; profileImageUrl?: string | null }): Promise<Team>;
  /** Leaves a team; then re-reads the teams and the user (whose selected team it may have been). */
  leaveTeam(team: TeamRef): Promise<void>;
  /** Makes `team` the selected team (`null`: none), which follows the user to every device. */
  setSelectedTeam(team: TeamRef | null): Promise<void>;
  /** The user's own profile in a team. */
  getTeamProfile(team: TeamRef): Promise<EditableTeamMemberProfile>;
  /**
   * The user's account at `providerId`, or `null` when none is connected
   * (with `scopes`); with `or: 'redirect'` a missing one is connected instead
   * (browser only: goes to the provider, and the promise rejects with
   * `OAUTH_CONNECTION_NOT_CONNECTED_TO_USER` once the page is going).
   */
  getConnectedAccount(
    providerId: string,
    options: ConnectedAccountOptions & { or: 'redirect' },
  ): Promise<ConnectedAccount>;
  getConnectedAccount(providerId: string, options?: GetConnectedAccountOptions): Promise<ConnectedAccount | null>;
  /**
   * Connects an account at `providerId` to the user (browser only): goes to
   * the provider and back through the `oauth-callback` page, which ends on
   * `returnTo` (default: this page). `scopes` asks the provider for more.
   */
  linkConnectedAccount(providerId: string, options?: LinkConnectedAccountOptions): Promise<void>;
  /** Disconnects the provider, then re-reads the user; refused (`SCHEMA_ERROR`) when it is the last way to sign in. */
  unlinkConnectedAccount(providerId: string): Promise<void>;
}

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
 * The scope of `ClientApp`'s queries over `core`'s cache: `send` with the
 * user's credentials, `sendAsApp` with the publishable key only. A session
 * that ends elsewhere (another tab, a refused refresh) sets the user to
 * `null` and the channels and teams to `[]` at once; a new session forgets
 * the old account and loads the new one.
 */
export function createClientScope(
  core: Core<Session>,
  send: Send,
  sendAsApp: Send,
  startOAuthFlow: StartOAuthFlow,
): ClientScope {
  const data = createDataStore(core.cache, () => scope);
  const reloadWith = (query: ClientQuery<unknown>) => async () =>
    void (await Promise.all([data.reload(query), data.reload(currentUserQuery)]));
  const scope: ClientScope = {
    core,
    send,
    sendAsApp,
    data,
    startOAuthFlow,
    channels: {
      send,
      verificationUrl: (call, given) => callbackUrl(call, core.urls.emailVerification, given),
      afterChange: reloadWith(contactChannelsQuery),
    },
    teams: {
      send,
      invitationUrl: (call, given) => callbackUrl(call, core.urls.teamInvitation, given),
      afterChange: reloadWith(teamsQuery),
      invalidate: data.invalidate,
    },
  };
  core.session.onChange((refreshToken) => {
    if (refreshToken) data.reset(accountKey());
    else setSignedOut(scope);
  });
  return scope;
}

function createCurrentUser(user: UserData, scope: ClientScope): CurrentUser {
  const { core, send, data } = scope;
  const query = currentUserQuery;
  const connectedAccounts = connectedAccountQueries(send, 'me', user.oauthProviders, async () => {
    await data.reload(query);
    await data.invalidate(accountKey('connectedAccounts')); // they read the user just reloaded
  });
  const linkConnectedAccount = linkAccount(scope);
  const getTokens = async (): Promise<UserTokens> => {
    const tokens = await core.session.getTokens();
    return { accessToken: tokens?.accessToken ?? null, refreshToken: tokens?.refreshToken ?? null };
  };
  return {
    ...user,
    async update(update) {
      await updateCurrentUser(send, update);
      await data.reload(query);
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
    async updatePassword(options) {
      await updatePassword(send, options.oldPassword, options.newPassword);
    },
    async setPassword(options) {
      await setPassword(send, options.password);
      await data.reload(query);
    },
    async sendVerificationEmail(options = {}) {
      const call = 'CurrentUser.sendVerificationEmail';
      const url = scope.channels.verificationUrl(call, options.callbackUrl);
      if (!user.primaryEmail) throw new TypeError(`${call}: the user has no primary e-mail to verify.`);
      await sendPrimaryVerificationCode(send, user.primaryEmail, url);
    },
    listContactChannels: () => data.load(contactChannelsQuery),
    async createContactChannel(options) {
      const created = await addContactChannel(send, 'me', { ...options, isVerified: undefined });
      await scope.channels.afterChange();
      return createContactChannel(created, scope.channels);
    },
    ...teamPermissionQueries(send, 'me'),
    listTeams: () => data.load(teamsQuery),
    getTeam: async (teamId) => (await data.load(teamsQuery)).find((team) => team.id === teamId) ?? null,
    async createTeam(options) {
      const created = await createTeam(send, { ...options, creatorUserId: 'me' }, readClientTeam);
      await scope.teams.afterChange();
      return createTeamObject(created, scope.teams);
    },
    async leaveTeam(team) {
      const teamId = teamIdOf(team);
      await removeTeamMember(send, teamId, 'me');
      await Promise.all([scope.teams.afterChange(), data.invalidate(teamKey(teamId))]);
    },
    async setSelectedTeam(team) {
      await updateCurrentUser(send, { selectedTeamId: team === null ? null : teamIdOf(team) });
      await data.reload(query);
    },
    async getTeamProfile(team) {
      const teamId = teamIdOf(team);
      const profile = await fetchTeamProfile(send, teamId, 'me');
      return {
        ...profile.teamProfile,
        async update(changes) {
          await updateTeamProfile(send, teamId, profile.userId, changes);
          await data.invalidate(teamKey(teamId, 'members'));
        },
      };
    },
    ...connectedAccounts,
    getConnectedAccount: (async (providerId: string, options: GetConnectedAccountOptions = {}) => {
      const account = await connectedAccounts.getConnectedAccount(providerId, options);
      if (account || options.or !== 'redirect') return account;
      await linkConnectedAccount(providerId, { scopes: options.scopes });
      throw new KnownError('OAUTH_CONNECTION_NOT_CONNECTED_TO_USER', undefined, notConnected(providerId));
    }) as CurrentUser['getConnectedAccount'],
    linkConnectedAccount,
  };
}

const notConnected = (providerId: string) =>
  `The user has no connected ${providerId} account (with those scopes); went to connect it.`;

/** `linkConnectedAccount` of the user of `scope`: a `link` flow with the session's access token. */
function linkAccount(scope: ClientScope): CurrentUser['linkConnectedAccount'] {
  return async (providerId, options = {}) => {
    const call = 'CurrentUser.linkConnectedAccount';
    const token = (await scope.core.session.getTokens())?.accessToken;
    if (!token) throw new KnownError('USER_AUTHENTICATION_REQUIRED', undefined, `${call}: nobody is signed in.`);
    const location = currentLocation();
    const returnTo = options.returnTo ?? location?.href;
    // Checked here, so a foreign `returnTo` is refused before the user leaves (REDIRECT_URL_NOT_WHITELISTED).
    const afterCallbackRedirectUrl =
      returnTo && location ? new URL(trustedRedirectPath(returnTo, location.origin), location.origin).href : undefined;
    const flow = { providerId, type: 'link' as const, token, afterCallbackRedirectUrl, providerScopes: options.scopes };
    await scope.startOAuthFlow(flow, call);
  };
}

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
}
