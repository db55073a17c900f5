/**
 * Users: every query on the `users` table, and only on it (reads may join
 * what a user row shows). The rules that span tables — a user's primary
 * contact channel, their personal team, their connected accounts' summary —
 * are the actions' (`users-actions.ts`, `contact-channels-actions.ts`,
 * `oauth/`), which call this store and the others in one transaction.
 */
import { randomUUID } from 'node:crypto';
import type { Json } from '@latchkey/protocol';
import { type Insertable, sql } from 'kysely';
import { isUuid } from '../common/ids.js';
import type { ProjectConfig } from '../projects/project-config.js';
import { type Db, idsByExternalId, insertChunks, inTransaction, takenIds } from '../storage/db.js';
import { type Database, json, type TeamRow, type UserRow, withMetadataColumns } from '../storage/schema.js';

/** The user of the project, or null (also for an id that is not a UUID). */
export async function findUser(db: Db, projectId: string, userId: string): Promise<UserRow | null> {
  if (!isUuid(userId)) return null;
  const row = await db
    .selectFrom('users')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', userId.toLowerCase())
    .executeTakeFirst();
  return row ?? null;
}

/** The user who signs in with `email` (any of their sign-in channels, case-insensitive), or null. */
export async function findUserByAuthEmail(db: Db, projectId: string, email: string): Promise<UserRow | null> {
  const row = await db
    .selectFrom('users')
    .selectAll('users')
    .innerJoin('contact_channels as channel', (join) =>
      join.onRef('channel.project_id', '=', 'users.project_id').onRef('channel.user_id', '=', 'users.id'),
    )
    .where('channel.project_id', '=', projectId)
    .where('channel.type', '=', 'email')
    .where('channel.used_for_auth', '=', true)
    .where(sql<string>`lower(channel.value)`, '=', email.toLowerCase())
    .executeTakeFirst();
  return row ?? null;
}

/** A new user's fields; the rest start empty (no name, no image, null metadata, not verified). */
export interface NewUser {
  projectId: string;
  now: number;
  primaryEmail?: string | null;
  primaryEmailVerified?: boolean;
  primaryEmailAuthEnabled?: boolean;
  passwordHash?: string | null;
  displayName?: string | null;
  profileImageUrl?: string | null;
  clientMetadata?: Json;
  clientReadOnlyMetadata?: Json;
  serverMetadata?: Json;
  otpAuthEnabled?: boolean;
  passkeyAuthEnabled?: boolean;
  /** The project's config as the caller has it (a request's); absent, `addUser` reads it. */
  projectConfig?: ProjectConfig;
}

/** Inserts a user's row; returns it. Their primary channel and personal team are `addUser`'s (`users-actions.ts`). */
export function insertUserRow(db: Db, user: NewUser): Promise<UserRow> {
  const now = new Date(user.now);
  return db
    .insertInto('users')
    .values({
      id: randomUUID(),
      project_id: user.projectId,
      display_name: user.displayName ?? null,
      primary_email: user.primaryEmail ?? null,
      primary_email_verified: user.primaryEmailVerified ?? false,
      primary_email_auth_enabled: user.primaryEmailAuthEnabled ?? false,
      profile_image_url: user.profileImageUrl ?? null,
      password_hash: user.passwordHash ?? null,
      client_metadata: json(user.clientMetadata ?? null),
      client_read_only_metadata: json(user.clientReadOnlyMetadata ?? null),
      server_metadata: json(user.serverMetadata ?? null),
      signed_up_at: now,
      last_active_at: now,
      selected_team_id: null,
      otp_auth_enabled: user.otpAuthEnabled ?? false,
      passkey_auth_enabled: user.passkeyAuthEnabled ?? false,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The user's row, locked until the transaction ends (changes that read then decide), or null. */
export async function lockUser(db: Db, projectId: string, userId: string): Promise<UserRow | null> {
  const row = await db
    .selectFrom('users')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
  return row ?? null;
}

/** Fields a user update may change. */
export interface UserChanges {
  display_name?: string | null;
  primary_email?: string | null;
  primary_email_verified?: boolean;
  primary_email_auth_enabled?: boolean;
  password_hash?: string | null;
  profile_image_url?: string | null;
  selected_team_id?: string | null;
  otp_auth_enabled?: boolean;
  passkey_auth_enabled?: boolean;
  client_metadata?: Json;
  client_read_only_metadata?: Json;
  server_metadata?: Json;
  /** Written with the user's TOTP secret (`mfa/mfa-store.ts`), never alone. */
  requires_totp_mfa?: boolean;
}

/**
 * Applies `changes` and returns the updated row, or null when the user is
 * gone. The `primary_email*` fields mirror the primary contact channel: a
 * caller that changes them makes the channel match in the same transaction
 * (`users-actions.ts`).
 */
export async function updateUser(
  db: Db,
  projectId: string,
  userId: string,
  changes: UserChanges,
): Promise<UserRow | null> {
  const set = withMetadataColumns(changes);
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

/** The primary e-mail channel as the user row mirrors it; null: the user has none. */
export interface MirroredChannel {
  value: string;
  is_verified: boolean;
  used_for_auth: boolean;
}

/**
 * Copies the user's primary channel (or its absence) into `primary_email*`,
 * after any change to their channels (`contact-channels-actions.ts`), so that
 * user reads, lists and search stay one-table queries.
 */
export async function mirrorPrimaryEmail(
  db: Db,
  projectId: string,
  userId: string,
  primary: MirroredChannel | null,
): Promise<void> {
  await db
    .updateTable('users')
    .set({
      primary_email: primary?.value ?? null,
      primary_email_verified: primary?.is_verified ?? false,
      primary_email_auth_enabled: primary?.used_for_auth ?? false,
    })
    .where('project_id', '=', projectId)
    .where('id', '=', userId)
    .execute();
}

/** One connected account as the user view lists it (`oauth_providers`). */
export interface ProviderLink {
  id: string;
  account_id: string;
  email: string | null;
}

/** Writes the user's summary of their connected accounts (`oauth/`: after every change to them). */
export async function writeProviderLinks(
  db: Db,
  projectId: string,
  userId: string,
  links: readonly ProviderLink[],
): Promise<void> {
  await db
    .updateTable('users')
    .set({ oauth_providers: JSON.stringify(links) })
    .where('project_id', '=', projectId)
    .where('id', '=', userId)
    .execute();
}

/**
 * Deletes the user's row (their channels, memberships and the rest go by
 * cascade). False when there was no such user. Their sessions are the
 * caller's to end first (`users-actions.ts`), so that every instance hears of them.
 */
export async function deleteUserRow(db: Db, projectId: string, userId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('users')
    .where('project_id', '=', projectId)
    .where('id', '=', userId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/**
 * Marks the user as active at `now` (a sign-in, a refresh); false when the
 * user is gone. In a transaction it also holds the user's row until the end,
 * which is the first lock every change to a user and its sessions takes.
 */
export async function markUserActive(db: Db, projectId: string, userId: string, now: number): Promise<boolean> {
  const result = await userSeenUpdate(db, projectId, userId, { at: now, country: null })!.executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * The write that marks the user as active `at` (when given) and notes the
 * `country` they came from (when known); null when there is nothing to write.
 * A country alone is written only when it changed.
 */
export function userSeenUpdate(
  db: Db,
  projectId: string,
  userId: string,
  seen: { at: number | null; country: string | null },
) {
  if (seen.at === null && seen.country === null) return null;
  return db
    .updateTable('users')
    .set({
      ...(seen.at !== null ? { last_active_at: new Date(seen.at) } : {}),
      ...(seen.country !== null ? { country_code: seen.country } : {}),
    })
    .where('project_id', '=', projectId)
    .where('id', '=', userId)
    .$if(seen.at === null, (query) => query.where(sql<boolean>`country_code is distinct from ${seen.country}`));
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

/** Where a page of users starts: the first user's sign-up time and id (keyset pagination). */
export interface UserPosition {
  signedUpAt: Date;
  id: string;
}

/** What `listUserPage` filters and how it orders. */
export interface UserPageQuery {
  limit: number;
  desc: boolean;
  /** Lower-cased text matched inside e-mails and display names, or an exact id. */
  search: { contains: string; id: string | null } | null;
  from: UserPosition | null;
  /** Only members of this team. */
  teamId: string | null;
}

/** `%`, `_` and `\` stand for themselves in a LIKE pattern built from `text`. */
function likeContaining(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** One page of the project's users in sign-up order (ties by id), from `from` on, at most `limit`. */
export async function listUserPage(db: Db, projectId: string, page: UserPageQuery): Promise<UserRow[]> {
  const direction = page.desc ? 'desc' : 'asc';
  const { search, from, teamId } = page;
  return db
    .selectFrom('users')
    .selectAll()
    .where('project_id', '=', projectId)
    .$if(teamId !== null, (query) =>
      query.where(({ exists, selectFrom }) =>
        exists(
          selectFrom('team_members as member')
            .select('member.user_id')
            .whereRef('member.project_id', '=', 'users.project_id')
            .whereRef('member.user_id', '=', 'users.id')
            .where('member.team_id', '=', teamId!),
        ),
      ),
    )
    .$if(search !== null, (query) =>
      query.where((eb) => {
        const pattern = likeContaining(search!.contains);
        const matches = [
          eb(sql<string>`lower(primary_email)`, 'like', pattern),
          eb(sql<string>`lower(display_name)`, 'like', pattern),
        ];
        if (search!.id) matches.push(eb('id', '=', search!.id));
        return eb.or(matches);
      }),
    )
    .$if(from !== null, (query) =>
      query.where((eb) =>
        eb(eb.refTuple('signed_up_at', 'id'), page.desc ? '<=' : '>=', eb.tuple(from!.signedUpAt, from!.id)),
      ),
    )
    .orderBy('signed_up_at', direction)
    .orderBy('id', direction)
    .limit(page.limit)
    .execute();
}

/**
 * The rows with their selected teams (one query for all of them, none when
 * no row has a team selected): what the user views render.
 */
export async function attachSelectedTeams(
  db: Db,
  rows: readonly UserRow[],
): Promise<(UserRow & { selected_team: TeamRow | null })[]> {
  const ids = [...new Set(rows.flatMap((row) => (row.selected_team_id ? [row.selected_team_id] : [])))];
  const teams = ids.length === 0 ? [] : await db.selectFrom('teams').selectAll().where('id', 'in', ids).execute();
  const byId = new Map(teams.map((team) => [team.id, team]));
  return rows.map((row) => ({
    ...row,
    selected_team: row.selected_team_id ? (byId.get(row.selected_team_id) ?? null) : null,
  }));
}

/** One row with its selected team; null stays null. */
export async function attachSelectedTeam(
  db: Db,
  row: UserRow | null,
): Promise<(UserRow & { selected_team: TeamRow | null }) | null> {
  return row && (await attachSelectedTeams(db, [row]))[0]!;
}

/** Imported users' rows, many a statement (`import/`): their channels and the rest are the other stores'. */
export async function insertUserRows(db: Db, rows: readonly Insertable<Database['users']>[]): Promise<void> {
  for (const chunk of insertChunks(rows)) await db.insertInto('users').values(chunk).execute();
}

/** The trigram indexes of user search (migration `0002-users-at-scale`), which take new rows one at a time. */
const searchIndexes = ['users_email_search_idx', 'users_display_name_search_idx'] as const;

/**
 * Sets how the user-search indexes take new rows: one at a time (`false`,
 * the usual: a search never scans a backlog), or into a pending list folded
 * in later (`true`, for a bulk write such as an import: each row costs the
 * two trigram indexes some 50 page updates one at a time, several times its
 * other work). Switching back folds the list in. A search finds pending rows
 * too, so an interrupted import leaves correct indexes, only slower to search
 * until the next import's end or vacuum folds the list in. The switch waits
 * at most a few seconds for the indexes' lock and is skipped, as an
 * optimisation it is, when it cannot have it.
 */
export async function setBulkUserWrites(db: Db, bulk: boolean): Promise<boolean> {
  try {
    await inTransaction(db, async (trx) => {
      await sql`set local lock_timeout = '5s'`.execute(trx);
      for (const index of searchIndexes) {
        await sql`alter index ${sql.id(index)} set (fastupdate = ${sql.raw(bulk ? 'on' : 'off')})`.execute(trx);
      }
    });
  } catch {
    return false;
  }
  if (!bulk) {
    for (const index of searchIndexes) await sql`select gin_clean_pending_list(${index}::regclass)`.execute(db);
  }
  return true;
}

/** Of `externalIds`, those of users of the project, with the user's id. */
export function findUsersByExternalId(
  db: Db,
  projectId: string,
  externalIds: readonly string[],
): Promise<Map<string, string>> {
  return idsByExternalId(db, 'users', projectId, externalIds);
}

/** Of the (lower-case) UUIDs, those a user of any project has already. */
export function findTakenUserIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
  return takenIds(db, 'users', ids);
}

/** A page of the project's users in id order, after `afterId` (the export). */
export function listUsersById(db: Db, projectId: string, afterId: string | null, limit: number): Promise<UserRow[]> {
  let query = db.selectFrom('users').selectAll().where('project_id', '=', projectId);
  if (afterId !== null) query = query.where('id', '>', afterId);
  return query.orderBy('id').limit(limit).execute();
}
