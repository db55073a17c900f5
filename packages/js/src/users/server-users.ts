/**
 * The users module of server-side audiences: read a user by id or from an
 * incoming request, authenticate a request locally (JWKS, no call per
 * request), list and search users page by page, create users; and the
 * users as queries (a page, a user, a user's addresses, permissions and
 * connected accounts). `ServerApp` and `AdminApp` both mount it.
 */
import { KnownError } from '@latchkey/protocol';
import { listContactChannels } from '../contact-channels/contact-channels-api.js';
import { createServerContactChannel, type ServerContactChannel } from '../contact-channels/server-contact-channel.js';
import type { AudienceScope, ServerScope } from '../internal/audience.js';
import { createUserSession, type Send } from '../internal/core.js';
import { noCredentials, withSession } from '../internal/http/credentials.js';
import { everyItem } from '../internal/pagination.js';
import { createAccessTokenVerifier } from '../internal/session/access-token-verifier.js';
import { requestTokens } from '../internal/session/request-tokens.js';
import { systemClock } from '../internal/timers.js';
import type { Query } from '../query.js';
import type { Page, RequestTokenStore } from '../server-types.js';
import type { UserSession } from '../sessions/sessions-api.js';
import { type TeamRef, teamIdOf } from '../teams/team-permissions.js';
import { listTeamPermissions, type TeamPermission } from '../teams/teams-api.js';
import type { ConnectedAccount } from './connected-accounts.js';
import { createServerUser, type ServerTeam, type ServerUser, userSessions, userTeams } from './server-user.js';
import { type CreateUserOptions, createUser, fetchUser, type ListUsersOptions, listUsers } from './server-users-api.js';
import { decodeServerUser } from './user-decoder.js';
import { fetchCurrentUser } from './users-api.js';

/**
 * Whose user `getUser` reads: the user of an incoming request (or of tokens
 * you hold), and what to do when nobody is signed in there.
 *
 * @example
 * ```ts
 * const user = await serverApp.getUser({ tokenStore: request, or: 'throw' });
 * ```
 */
export interface RequestUserOptions {
  tokenStore: RequestTokenStore;
  /** `'return-null'` (default) when the request has no signed-in user, or `'throw'` `USER_AUTHENTICATION_REQUIRED`. */
  or?: 'return-null' | 'throw';
}

/**
 * Who signed the request in, as its access token says, verified locally.
 *
 * @example
 * ```ts
 * const auth: RequestAuthentication | null = await serverApp.authenticateRequest(request);
 * ```
 */
export interface RequestAuthentication {
  userId: string;
  /** When the access token expires; `null` for a token without expiry. */
  expiresAt: Date | null;
}

/**
 * What server code does with users: read, list, search and create them.
 *
 * @example
 * ```ts
 * const user = await serverApp.getUser({ tokenStore: request }); // the visitor, or null
 * for await (const each of serverApp.iterateUsers({ query: 'example.com' })) console.log(each.primaryEmail);
 * ```
 */
export interface ServerUsers {
  /** The user with this id; `null` when the project has none. */
  getUser(userId: string): Promise<ServerUser | null>;
  /**
   * The signed-in user of an incoming request (its `x-stack-auth` header, its
   * cookies, or a bearer access token), refreshing an expired access token
   * with the publishable key; `null` when nobody is signed in there (or what
   * `or` asks for).
   */
  getUser(options: RequestUserOptions & { or: 'throw' }): Promise<ServerUser>;
  getUser(options: RequestUserOptions): Promise<ServerUser | null>;
  /**
   * The user id of a request's access token, verified locally against the
   * project's public keys (fetched once, cached 300 s): no call to the service
   * per request. `null` when the request has no access token, or one that is
   * forged, expired (30 s of tolerance) or another project's; the browser
   * then refreshes it, or `getUser({ tokenStore })` does. A session revoked
   * since the token was issued still authenticates until the token expires
   * (10 minutes at most).
   */
  authenticateRequest(tokenStore: RequestTokenStore): Promise<RequestAuthentication | null>;
  /** One page of users; pass `nextCursor` back as `cursor` for the next. */
  listUsers(options?: ListUsersOptions): Promise<Page<ServerUser>>;
  /** Every user the options select, fetching page after page as the loop goes on. */
  iterateUsers(options?: Omit<ListUsersOptions, 'cursor'>): AsyncIterable<ServerUser>;
  /** Creates a user, with a password, an imported bcrypt or argon2id hash, or neither. */
  createUser(options: CreateUserOptions): Promise<ServerUser>;
}

/** Mounts the users module on an audience. */
export function serverUsers(scope: AudienceScope): ServerUsers {
  const { send, core } = scope;
  const clock = scope.options.clock ?? systemClock;
  const verify = createAccessTokenVerifier(core.projectId, core.sender(noCredentials), clock);
  const authenticateRequest = async (tokenStore: RequestTokenStore): Promise<RequestAuthentication | null> => {
    const { accessToken } = requestTokens(tokenStore, core.projectId);
    const verified = accessToken ? await verify(accessToken) : null;
    if (!verified) return null;
    return { userId: verified.userId, expiresAt: verified.expiresAt === null ? null : new Date(verified.expiresAt) };
  };
  const listPage = (options: ListUsersOptions) => usersPage(send, options);
  /** One implementation of the overloads: a user id, or a request's tokens. */
  const getUser = async (target: string | RequestUserOptions): Promise<ServerUser | null> => {
    if (typeof target === 'string') return userById(send, target);
    const user = await requestUser(scope, target.tokenStore, authenticateRequest);
    if (user || target.or !== 'throw') return user;
    throw new KnownError('USER_AUTHENTICATION_REQUIRED', undefined, notSignedIn);
  };
  return {
    getUser: getUser as ServerUsers['getUser'],
    authenticateRequest,
    listUsers: (options = {}) => listPage(options),
    iterateUsers: (options = {}) => everyItem('GET /users', (cursor) => listPage({ ...options, cursor })),
    createUser: async (options) => createServerUser(await createUser(send, options), send),
  };
}

async function usersPage(send: Send, options: ListUsersOptions): Promise<Page<ServerUser>> {
  const page = await listUsers(send, options);
  return { items: page.items.map((user) => createServerUser(user, send)), nextCursor: page.nextCursor };
}

async function userById(send: Send, userId: string): Promise<ServerUser | null> {
  const user = await fetchUser(send, userId);
  return user && createServerUser(user, send);
}

/**
 * One page of the project's users (search with `query`, page on with
 * `cursor`), as a query of `ServerApp` and `AdminApp`. Every write to users
 * marks every page out of date.
 *
 * @example
 * ```ts
 * const page = await serverApp.load(serverUsersQuery({ query: 'example.com', limit: 20 }));
 * const next = page.nextCursor && (await serverApp.load(serverUsersQuery({ query: 'example.com', limit: 20, cursor: page.nextCursor })));
 * ```
 */
export function serverUsersQuery(options: ListUsersOptions = {}): Query<Page<ServerUser>, ServerScope> {
  const { query, cursor, limit, orderBy, desc, teamId } = options;
  const key = ['users', query ?? null, cursor ?? null, limit ?? null, orderBy ?? null, desc ?? null, teamId ?? null];
  return { key, load: (scope) => usersPage(scope.send, options) };
}

/**
 * The user with this id (`null` when the project has none), as a query of `ServerApp` and `AdminApp`.
 *
 * @example
 * ```ts
 * const user = await serverApp.load(serverUserQuery(userId));
 * ```
 */
export function serverUserQuery(userId: string): Query<ServerUser | null, ServerScope> {
  return { key: ['user', userId], load: (scope) => userById(scope.send, userId) };
}

/**
 * A user's e-mail addresses, as a query of `ServerApp` and `AdminApp`.
 *
 * @example
 * ```ts
 * const channels = await serverApp.load(userContactChannelsQuery(userId));
 * ```
 */
export function userContactChannelsQuery(userId: string): Query<ServerContactChannel[], ServerScope> {
  return {
    key: ['user', userId, 'contactChannels'],
    load: async ({ send }) =>
      (await listContactChannels(send, userId)).map((channel) => createServerContactChannel(channel, send)),
  };
}

/**
 * A user's active sessions, most recently used first, each able to end
 * itself, as a query of `ServerApp` and `AdminApp`. Creating or ending a
 * session re-reads it.
 *
 * @example
 * ```ts
 * const sessions = await adminApp.load(userSessionsQuery(userId));
 * await sessions.find((session) => session.isImpersonation)?.revoke();
 * ```
 */
export function userSessionsQuery(userId: string): Query<UserSession[], ServerScope> {
  return { key: ['user', userId, 'sessions'], load: ({ send }) => userSessions(send, userId) };
}

/**
 * The teams a user is a member of, as a query of `ServerApp` and `AdminApp`.
 *
 * @example
 * ```ts
 * const teams = await adminApp.load(userTeamsQuery(userId));
 * ```
 */
export function userTeamsQuery(userId: string): Query<ServerTeam[], ServerScope> {
  return { key: ['user', userId, 'teams'], load: ({ send }) => userTeams(send, userId) };
}

/**
 * The permissions a user holds in a team (`recursive`, default true,
 * includes contained ones), as a query of `ServerApp` and `AdminApp`.
 *
 * @example
 * ```ts
 * const held = await serverApp.load(userTeamPermissionsQuery(userId, teamId));
 * ```
 */
export function userTeamPermissionsQuery(
  userId: string,
  team: TeamRef,
  options: { recursive?: boolean } = {},
): Query<TeamPermission[], ServerScope> {
  const teamId = teamIdOf(team);
  const recursive = options.recursive ?? true;
  return {
    key: ['user', userId, 'permissions', teamId, recursive],
    load: ({ send }) => listTeamPermissions(send, teamId, userId, recursive),
  };
}

/**
 * The connected OAuth accounts of a user, as a query of `ServerApp` and `AdminApp`.
 *
 * @example
 * ```ts
 * const accounts = await serverApp.load(userConnectedAccountsQuery(userId));
 * ```
 */
export function userConnectedAccountsQuery(userId: string): Query<ConnectedAccount[], ServerScope> {
  return {
    key: ['user', userId, 'connectedAccounts'],
    load: async ({ send }) => (await userById(send, userId))?.listConnectedAccounts() ?? [],
  };
}

/**
 * `GET /users/me` with the audience's credentials plus the request's tokens,
 * in a session of its own (refreshed once if its access token has expired).
 * A request with an access token only (`Authorization: Bearer`) cannot be
 * refreshed: its token is verified locally, then its user read by id.
 */
async function requestUser(
  scope: AudienceScope,
  tokenStore: RequestTokenStore,
  authenticate: (tokenStore: RequestTokenStore) => Promise<RequestAuthentication | null>,
): Promise<ServerUser | null> {
  const tokens = requestTokens(tokenStore, scope.core.projectId);
  if (!tokens.refreshToken) {
    const auth = tokens.accessToken ? await authenticate(tokens) : null;
    const user = auth && (await fetchUser(scope.send, auth.userId));
    return user && createServerUser(user, scope.send);
  }
  const { publishableClientKey } = scope;
  if (!publishableClientKey) {
    throw new TypeError(
      `${scope.audience}: getUser({ tokenStore }) needs the publishableClientKey option, to refresh the request's session.`,
    );
  }
  const session = createUserSession(scope.options, { tokenStore: tokens, publishableClientKey });
  const send = scope.core.sender(withSession(scope.credentials, session));
  const user = await fetchCurrentUser(send, decodeServerUser);
  return user && createServerUser(user, scope.send);
}

const notSignedIn = "The request has no signed-in user, but getUser was called with { or: 'throw' }";
