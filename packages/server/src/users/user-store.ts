/** Users: every query on the `users` table. */
import { randomUUID } from 'node:crypto';
import type { Json } from '@latchkey/protocol';
import { sql } from 'kysely';
import type { Db } from '../storage/db.js';
import { json, type UserRow } from '../storage/schema.js';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True when `value` has the shape of a user id (a UUID, any case); check before querying the uuid column. */
export function isUserId(value: string): boolean {
  return uuidPattern.test(value);
}

/** The user of the project, or null (also for an id that is not a UUID). */
export async function findUser(db: Db, projectId: string, userId: string): Promise<UserRow | null> {
  if (!isUserId(userId)) return null;
  const row = await db
    .selectFrom('users')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', userId.toLowerCase())
    .executeTakeFirst();
  return row ?? null;
}

/** The user who signs in with `email` (case-insensitive), or null. */
export async function findUserByAuthEmail(db: Db, projectId: string, email: string): Promise<UserRow | null> {
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
  db: Db,
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
  db: Db,
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
export async function deleteUser(db: Db, projectId: string, userId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('users')
    .where('project_id', '=', projectId)
    .where('id', '=', userId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Marks the user as active at `now` (a sign-in, a refresh). */
export async function markUserActive(db: Db, projectId: string, userId: string, now: number): Promise<void> {
  await db
    .updateTable('users')
    .set({ last_active_at: new Date(now) })
    .where('project_id', '=', projectId)
    .where('id', '=', userId)
    .execute();
}

/** Number of users of a project. */
export async function countUsers(db: Db, projectId: string): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<string | number>().as('count'))
    .where('project_id', '=', projectId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
