/**
 * The user calls of server code (spec §7, wire-protocol.md §12, §14.2):
 * `GET /users` page by page, `POST /users`, and `GET`, `PATCH`, `DELETE
 * /users/{id}`. Each is a send plus a pure decoder.
 */
import { isKnownError, type Json, type UserPageWire } from '@latchkey/protocol';
import type { Send } from '../internal/core.js';
import { optionalObject, readFields } from '../internal/decode/fields.js';
import { definedFields } from '../internal/defined-fields.js';
import type { Page } from '../server-types.js';
import { decodeServerUser, readServerUser, type ServerUserData } from './user-decoder.js';
import { type UserUpdate, userUpdateBody } from './users-api.js';

/**
 * Every field server code may set on a user: the user's own fields plus the
 * ones only the server writes.
 *
 * @example
 * ```ts
 * await user.update({ primaryEmailVerified: true, serverMetadata: { plan: 'pro' } });
 * ```
 */
export interface ServerUserUpdate extends UserUpdate {
  primaryEmail?: string | null;
  primaryEmailVerified?: boolean;
  /** Whether the primary e-mail may be used to sign in (password, magic link). */
  primaryEmailAuthEnabled?: boolean;
  /** A new password (checked against the project's rules); ends the user's sessions. */
  password?: string | null;
  /**
   * An imported hash instead of a password: bcrypt (`$2a$`, `$2b$`, `$2y$`), argon2id or argon2i PHC, scrypt or
   * PBKDF2-SHA256 PHC, `$firebase-scrypt$…` or `$better-auth-scrypt$…` (formats and cost bounds: the users guide).
   */
  passwordHash?: string;
  otpAuthEnabled?: boolean;
  passkeyAuthEnabled?: boolean;
  clientReadOnlyMetadata?: Json;
  serverMetadata?: Json;
}

/**
 * A new user's fields: any server field (all optional; a user may start with
 * no e-mail at all), with a password or an imported password hash.
 *
 * @example
 * ```ts
 * await serverApp.createUser({ primaryEmail: 'ada@example.com', passwordHash: '$2b$10$...', primaryEmailVerified: true });
 * ```
 */
export type CreateUserOptions = Omit<ServerUserUpdate, 'selectedTeamId'>;

/**
 * Which users `listUsers` returns, in which order, from where.
 *
 * @example
 * ```ts
 * const page = await serverApp.listUsers({ limit: 50, desc: true, query: 'ada' });
 * ```
 */
export interface ListUsersOptions {
  /** Users per page (the service's default is 100, at most 1000). */
  limit?: number;
  /** Where the page starts: `nextCursor` of the previous page. */
  cursor?: string;
  /** The only order there is: sign-up time (ascending unless `desc`). */
  orderBy?: 'signedUpAt';
  desc?: boolean;
  /** Free text over display name and primary e-mail; an exact match on id. */
  query?: string;
  /** Only the members of this team. */
  teamId?: string;
}

const ignoreAnswer = (): void => {};

/** `GET /users` with the options as its query. */
export function listUsers(send: Send, options: ListUsersOptions = {}): Promise<Page<ServerUserData>> {
  const query = {
    limit: options.limit?.toString(),
    cursor: options.cursor,
    order_by: options.orderBy === 'signedUpAt' ? 'signed_up_at' : undefined,
    desc: options.desc?.toString(),
    query: options.query,
    team_id: options.teamId,
  };
  return send({ method: 'GET', path: '/users', query }, decodeUserPage);
}

/** `GET /users/{id}`; `null` when the project has no such user (`USER_NOT_FOUND`). */
export async function fetchUser(send: Send, userId: string): Promise<ServerUserData | null> {
  try {
    return await send({ method: 'GET', path: userPath(userId) }, decodeServerUser);
  } catch (error) {
    if (isKnownError(error, 'USER_NOT_FOUND')) return null;
    throw error;
  }
}

/** `POST /users`. */
export function createUser(send: Send, options: CreateUserOptions): Promise<ServerUserData> {
  return send({ method: 'POST', path: '/users', body: serverUserBody(options) }, decodeServerUser);
}

/** `PATCH /users/{id}`: the user as it is afterwards. */
export function updateUser(send: Send, userId: string, update: ServerUserUpdate): Promise<ServerUserData> {
  return send({ method: 'PATCH', path: userPath(userId), body: serverUserBody(update) }, decodeServerUser);
}

/** `DELETE /users/{id}` with body `{}` (as the 2.7 SDK sends it). */
export function deleteUser(send: Send, userId: string): Promise<void> {
  return send({ method: 'DELETE', path: userPath(userId), body: {} }, ignoreAnswer);
}

/** The wire body of a create or update: the client fields' body plus the server's, `undefined` omitted. */
export function serverUserBody(update: ServerUserUpdate): Record<string, unknown> {
  return definedFields({
    ...userUpdateBody(update),
    primary_email: update.primaryEmail,
    primary_email_verified: update.primaryEmailVerified,
    primary_email_auth_enabled: update.primaryEmailAuthEnabled,
    password: update.password,
    password_hash: update.passwordHash,
    otp_auth_enabled: update.otpAuthEnabled,
    passkey_auth_enabled: update.passkeyAuthEnabled,
    client_read_only_metadata: update.clientReadOnlyMetadata,
    server_metadata: update.serverMetadata,
  });
}

/**
 * Decodes a page of `GET /users`: `items`, and `pagination.next_cursor`
 * (an answer without `pagination` is the last page, wire-protocol.md §12).
 */
export function decodeUserPage(body: unknown): Page<ServerUserData> {
  return readFields<UserPageWire, Page<ServerUserData>>(body, (page) => ({
    items: page.list('items', readServerUser),
    nextCursor: optionalObject(page, 'pagination', (p) => p.stringOrNull('next_cursor')) ?? null,
  }));
}

function userPath(userId: string): string {
  return `/users/${encodeURIComponent(userId)}`;
}
