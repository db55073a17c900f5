/**
 * The users module of server-side audiences: read a user by id or from an
 * incoming request, list and search users page by page, create users.
 * `ServerApp` and `AdminApp` both mount it.
 */
import { KnownError } from '@latchkey/protocol';
import type { AudienceScope } from '../internal/audience.js';
import { createUserSession } from '../internal/core.js';
import { withSession } from '../internal/http/credentials.js';
import { everyItem } from '../internal/pagination.js';
import { requestTokens } from '../internal/session/request-tokens.js';
import type { Page, RequestTokenStore } from '../server-types.js';
import { createServerUser, type ServerUser } from './server-user.js';
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
   * The signed-in user of an incoming request (its `x-stack-auth` header or
   * its cookies), refreshing an expired access token with the publishable key;
   * `null` when nobody is signed in there (or what `or` asks for).
   */
  getUser(options: RequestUserOptions & { or: 'throw' }): Promise<ServerUser>;
  getUser(options: RequestUserOptions): Promise<ServerUser | null>;
  /** One page of users; pass `nextCursor` back as `cursor` for the next. */
  listUsers(options?: ListUsersOptions): Promise<Page<ServerUser>>;
  /** Every user the options select, fetching page after page as the loop goes on. */
  iterateUsers(options?: Omit<ListUsersOptions, 'cursor'>): AsyncIterable<ServerUser>;
  /** Creates a user, with a password, an imported bcrypt or argon2id hash, or neither. */
  createUser(options: CreateUserOptions): Promise<ServerUser>;
}

/** Mounts the users module on an audience. */
export function serverUsers(scope: AudienceScope): ServerUsers {
  const { send } = scope;
  const listPage = async (options: ListUsersOptions): Promise<Page<ServerUser>> => {
    const page = await listUsers(send, options);
    return { items: page.items.map((user) => createServerUser(user, send)), nextCursor: page.nextCursor };
  };
  /** One implementation of the overloads: a user id, or a request's tokens. */
  const getUser = async (target: string | RequestUserOptions): Promise<ServerUser | null> => {
    if (typeof target === 'string') {
      const user = await fetchUser(send, target);
      return user && createServerUser(user, send);
    }
    const user = await requestUser(scope, target.tokenStore);
    if (user || target.or !== 'throw') return user;
    throw new KnownError('USER_AUTHENTICATION_REQUIRED', undefined, notSignedIn);
  };
  return {
    getUser: getUser as ServerUsers['getUser'],
    listUsers: (options = {}) => listPage(options),
    iterateUsers: (options = {}) => everyItem('GET /users', (cursor) => listPage({ ...options, cursor })),
    createUser: async (options) => createServerUser(await createUser(send, options), send),
  };
}

/**
 * `GET /users/me` with the audience's credentials plus the request's tokens,
 * in a session of its own (refreshed once if its access token has expired).
 */
async function requestUser(scope: AudienceScope, tokenStore: RequestTokenStore): Promise<ServerUser | null> {
  const tokens = requestTokens(tokenStore, scope.options.projectId);
  if (!tokens.refreshToken) return null;
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
