/** Users: queries and the client and server views (wire-protocol §15.1). */
import { randomUUID } from 'node:crypto';
import type { ClientUserWire, Json, ServerUserWire } from '@latchkey/protocol';
import { type Kysely, sql } from 'kysely';
import { type Database, json, type UserRow } from '../storage/schema.js';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True when `value` has the shape of a user id (a UUID, any case); check before querying the uuid column. */
export function isUserId(value: string): boolean {
  return uuidPattern.test(value);
}

/** The user of the project, or null. `userId` must be a UUID. */
export async function findUser(db: Kysely<Database>, projectId: string, userId: string): Promise<UserRow | null> {
  const row = await db
    .selectFrom('users')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', userId)
    .executeTakeFirst();
  return row ?? null;
}

/** The user who signs in with `email` (case-insensitive), or null. */
export async function findUserByAuthEmail(
  db: Kysely<Database>,
  projectId: string,
  email: string,
): Promise<UserRow | null> {
  const row = await db
    .selectFrom('users')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('primary_email_auth_enabled', '=', true)
    .where(sql<string>`lower(primary_email)`, '=', email.toLowerCase())
    .executeTakeFirst();
  return row ?? null;
}

/** Inserts a user who signs in with e-mail and password; returns the new row. */
export async function insertPasswordUser(
  db: Kysely<Database>,
  input: { projectId: string; email: string; passwordHash: string; now: number },
): Promise<UserRow> {
  const now = new Date(input.now);
  return db
    .insertInto('users')
    .values({
      id: randomUUID(),
      project_id: input.projectId,
      display_name: null,
      primary_email: input.email,
      primary_email_verified: false,
      primary_email_auth_enabled: true,
      profile_image_url: null,
      password_hash: input.passwordHash,
      client_metadata: json({}),
      client_read_only_metadata: json({}),
      server_metadata: json({}),
      signed_up_at: now,
      last_active_at: now,
      selected_team_id: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Fields a user update may change. */
export interface UserChanges {
  display_name?: string | null;
  profile_image_url?: string | null;
  selected_team_id?: string | null;
  otp_auth_enabled?: boolean;
  passkey_auth_enabled?: boolean;
  client_metadata?: Json;
  client_read_only_metadata?: Json;
  server_metadata?: Json;
}

/** Applies `changes` and returns the updated row, or null when the user is gone. */
export async function updateUser(
  db: Kysely<Database>,
  projectId: string,
  userId: string,
  changes: UserChanges,
): Promise<UserRow | null> {
  const { client_metadata, client_read_only_metadata, server_metadata, ...plain } = changes;
  const set = {
    ...plain,
    ...(client_metadata !== undefined ? { client_metadata: json(client_metadata) } : {}),
    ...(client_read_only_metadata !== undefined ? { client_read_only_metadata: json(client_read_only_metadata) } : {}),
    ...(server_metadata !== undefined ? { server_metadata: json(server_metadata) } : {}),
  };
  if (Object.keys(set).length === 0) return findUser(db, projectId, userId);
  const row = await db
    .updateTable('users')
    .set(set)
    .where('project_id', '=', projectId)
    .where('id', '=', userId)
    .returningAll()
    .executeTakeFirst();
  return row ?? null;
}

/** Deletes the user and, by cascade, their sessions. False when there was no such user. */
export async function deleteUser(db: Kysely<Database>, projectId: string, userId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('users')
    .where('project_id', '=', projectId)
    .where('id', '=', userId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** The user as a client sees it. */
export function clientUserView(row: UserRow): ClientUserWire {
  const hasPassword = row.password_hash !== null;
  return {
    id: row.id,
    primary_email: row.primary_email,
    primary_email_verified: row.primary_email_verified,
    display_name: row.display_name,
    selected_team: null,
    selected_team_id: row.selected_team_id,
    profile_image_url: row.profile_image_url,
    signed_up_at_millis: row.signed_up_at.getTime(),
    has_password: hasPassword,
    otp_auth_enabled: row.otp_auth_enabled,
    passkey_auth_enabled: row.passkey_auth_enabled,
    client_metadata: row.client_metadata as Json,
    client_read_only_metadata: row.client_read_only_metadata as Json,
    oauth_providers: [],
    auth_with_email: row.primary_email_auth_enabled && (hasPassword || row.otp_auth_enabled),
    requires_totp_mfa: row.requires_totp_mfa,
  };
}

/** The user as server code sees it: the client view plus server-only fields. */
export function serverUserView(row: UserRow): ServerUserWire {
  return {
    ...clientUserView(row),
    selected_team: null,
    primary_email_auth_enabled: row.primary_email_auth_enabled,
    server_metadata: row.server_metadata as Json,
    last_active_at_millis: row.last_active_at.getTime(),
  };
}
