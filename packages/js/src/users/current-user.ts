/**
 * `CurrentUser`: the signed-in user's data plus what they can do to their own
 * account, and the account as app data: the user (`'user'` in the cache) and
 * their e-mail addresses (`'contactChannels'`) and teams (`'teams'`). Mutations update the cache so
 * subscribers see the result.
 */
import { headers, isKnownError, KnownError } from '@latchkey/protocol';
import type { StartOAuthFlow } from '../auth/oauth.js';
import { type ChannelScope, type ContactChannel, createContactChannel } from '../contact-channels/contact-channel.js';
import {
  createContactChannel as addContactChannel,
  type ContactChannelCreate,
  listContactChannels,
  sendPrimaryVerificationCode,
} from '../contact-channels/contact-channels-api.js';
import type { DataQuery } from '../internal/cache/data-store.js';
import { callbackUrl } from '../internal/callback-url.js';
import type { Core, Send } from '../internal/core.js';
import { currentLocation, trustedRedirectPath } from '../internal/redirect.js';
import type { Session } from '../internal/session/session.js';
import { createTeamObject, type Team, type TeamScope } from '../teams/team.js';
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
  listTeams,
  removeTeamMember,
  type TeamMemberProfile,
  updateTeamProfile,
} from '../teams/teams-api.js';
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
 * The signed-in account as app data, by cache key: the user and their e-mail
 * addresses (`[]` when signed out).
 *
 * @example
 * ```ts
 * const { user, contactChannels } = accountQueries(core, send);
 * ```
 */
export interface AccountQueries {
  user: DataQuery<CurrentUser | null>;
  contactChannels: DataQuery<ContactChannel[]>;
  teams: DataQuery<Team[]>;
}

/** What a user object works with: the core and its session, the user's credentials, its cache entries. */
interface UserScope {
  core: Core<Session>;
  send: Send;
  queries: AccountQueries;
  channels: ChannelScope;
  teams: TeamScope;
  startOAuthFlow: StartOAuthFlow;
}

/**
 * The account as app data, loaded with `send` (the user's credentials).
 * While subscribed, the user watches other tabs; before each read it takes in
 * their changes. A session that ends elsewhere (another tab, a refused
 * refresh) sets the user to `null` and the channels to `[]` at once; a new
 * session forgets the old account and loads the new one.
 */
export function accountQueries(core: Core<Session>, send: Send, startOAuthFlow: StartOAuthFlow): AccountQueries {
  const { session, data } = core;
  const user: DataQuery<CurrentUser | null> = {
    key: 'user',
    load: async () => {
      const loaded = await fetchCurrentUser(send, decodeClientUser);
      return loaded && createCurrentUser(loaded, scope);
    },
    watch: () => session.watch(),
    sync: () => void session.stored(),
  };
  const contactChannels: DataQuery<ContactChannel[]> = {
    key: 'contactChannels',
    load: async () => {
      if (!session.stored().refreshToken) return [];
      const channels = await signedInOnly(listContactChannels(send, 'me'), []);
      return channels.map((channel) => createContactChannel(channel, scope.channels));
    },
    watch: () => session.watch(),
    sync: () => void session.stored(),
  };
  const teams: DataQuery<Team[]> = {
    key: 'teams',
    load: async () => {
      if (!session.stored().refreshToken) return [];
      const list = await signedInOnly(listTeams(send, 'me', readClientTeam), []);
      return list.map((team) => createTeamObject(team, scope.teams));
    },
    watch: () => session.watch(),
    sync: () => void session.stored(),
  };
  const queries = { user, contactChannels, teams };
  const scope: UserScope = {
    core,
    send,
    queries,
    startOAuthFlow,
    channels: {
      send,
      verificationUrl: (call, given) => callbackUrl(call, core.urls.emailVerification, given),
      afterChange: async () => void (await Promise.all([data.reload(contactChannels), data.reload(user)])),
    },
    teams: {
      send,
      invitationUrl: (call, given) => callbackUrl(call, core.urls.teamInvitation, given),
      afterChange: async () => void (await Promise.all([data.reload(teams), data.reload(user)])),
    },
  };
  session.onChange((refreshToken) => {
    if (refreshToken) {
      data.reset(user);
      data.reset(contactChannels);
      data.reset(teams);
    } else setSignedOut(scope);
  });
  return queries;
}

/** What `loading` resolves to, or `fallback` when the service says nobody is signed in. */
async function signedInOnly<T>(loading: Promise<T>, fallback: T): Promise<T> {
  try {
    return await loading;
  } catch (error) {
    if (isKnownError(error, 'CANNOT_GET_OWN_USER_WITHOUT_USER')) return fallback;
    throw error;
  }
}

function createCurrentUser(user: UserData, scope: UserScope): CurrentUser {
  const { core, send, queries } = scope;
  const query = queries.user;
  const connectedAccounts = connectedAccountQueries(send, 'me', user.oauthProviders, async () => {
    await core.data.reload(query);
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
    async updatePassword(options) {
      await updatePassword(send, options.oldPassword, options.newPassword);
    },
    async setPassword(options) {
      await setPassword(send, options.password);
      await core.data.reload(query);
    },
    async sendVerificationEmail(options = {}) {
      const call = 'CurrentUser.sendVerificationEmail';
      const url = scope.channels.verificationUrl(call, options.callbackUrl);
      if (!user.primaryEmail) throw new TypeError(`${call}: the user has no primary e-mail to verify.`);
      await sendPrimaryVerificationCode(send, user.primaryEmail, url);
    },
    listContactChannels: () => core.data.load(queries.contactChannels),
    async createContactChannel(options) {
      const created = await addContactChannel(send, 'me', { ...options, isVerified: undefined });
      await scope.channels.afterChange();
      return createContactChannel(created, scope.channels);
    },
    ...teamPermissionQueries(send, 'me'),
    listTeams: () => core.data.load(queries.teams),
    getTeam: async (teamId) => (await core.data.load(queries.teams)).find((team) => team.id === teamId) ?? null,
    async createTeam(options) {
      const created = await createTeam(send, { ...options, creatorUserId: 'me' }, readClientTeam);
      await scope.teams.afterChange();
      return createTeamObject(created, scope.teams);
    },
    async leaveTeam(team) {
      await removeTeamMember(send, teamIdOf(team), 'me');
      await scope.teams.afterChange();
    },
    async setSelectedTeam(team) {
      await updateCurrentUser(send, { selectedTeamId: team === null ? null : teamIdOf(team) });
      await core.data.reload(query);
    },
    async getTeamProfile(team) {
      const teamId = teamIdOf(team);
      const profile = await fetchTeamProfile(send, teamId, 'me');
      return {
        ...profile.teamProfile,
        update: (changes) => updateTeamProfile(send, teamId, profile.userId, changes),
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
function linkAccount(scope: UserScope): CurrentUser['linkConnectedAccount'] {
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

function signOutLocally(scope: UserScope): void {
  scope.core.session.clear();
  setSignedOut(scope);
}

function setSignedOut({ core, queries }: UserScope): void {
  core.data.set(queries.user, null);
  core.data.set(queries.contactChannels, []);
  core.data.set(queries.teams, []);
}
