/**
 * Contact channels: every query on `contact_channels`, and only on it.
 *
 * The channels are the truth; `users.primary_email`, `primary_email_verified`
 * and `primary_email_auth_enabled` mirror the primary channel so that user
 * reads, lists and search stay one-table queries. The actions keep the mirror,
 * inside the transaction of the write they follow:
 * - after any change to a user's channels (channel routes, verification, a
 *   mailbox proof), `mirrorPrimaryChannel` (`contact-channels-actions.ts`)
 *   reads the primary channel here and writes it to the user row (user store);
 * - when a user write names the primary e-mail (`PATCH /users/:id`),
 *   `applyPrimaryEmail` here makes the primary channel match
 *   (`users/users-actions.ts`).
 */
import { randomUUID } from 'node:crypto';
import { type Insertable, sql, type UpdateObject } from 'kysely';
import { isUuid } from '../common/ids.js';
import { type Db, insertChunks } from '../storage/db.js';
import type { ContactChannelRow, Database } from '../storage/schema.js';

/** A user's channels, primary first, then oldest first. */
export async function listContactChannels(db: Db, projectId: string, userId: string): Promise<ContactChannelRow[]> {
  return db
    .selectFrom('contact_channels')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .orderBy('is_primary', 'desc')
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
}

/** The channel of the user, or null (also for an id that is not a UUID). */
export async function findContactChannel(
  db: Db,
  projectId: string,
  userId: string,
  channelId: string,
): Promise<ContactChannelRow | null> {
  if (!isUuid(channelId)) return null;
  const row = await db
    .selectFrom('contact_channels')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('id', '=', channelId.toLowerCase())
    .executeTakeFirst();
  return row ?? null;
}

/**
 * The user's primary e-mail channel, or null when they have none.
 *
 * @example
 * const primary = await findPrimaryChannel(deps.db, project.id, user.id);
 */
export async function findPrimaryChannel(db: Db, projectId: string, userId: string): Promise<ContactChannelRow | null> {
  const row = await db
    .selectFrom('contact_channels')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('type', '=', 'email')
    .where('is_primary', '=', true)
    .executeTakeFirst();
  return row ?? null;
}

/** The user's channel with this address (case-insensitive), or null. */
export async function findUserChannelByValue(
  db: Db,
  projectId: string,
  userId: string,
  value: string,
): Promise<ContactChannelRow | null> {
  const row = await db
    .selectFrom('contact_channels')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('type', '=', 'email')
    .where(sql<string>`lower(value)`, '=', value.toLowerCase())
    .executeTakeFirst();
  return row ?? null;
}

/** The channel used for sign-in with this address in the project (any user), or null. */
export async function findAuthChannel(db: Db, projectId: string, value: string): Promise<ContactChannelRow | null> {
  const row = await db
    .selectFrom('contact_channels')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('type', '=', 'email')
    .where('used_for_auth', '=', true)
    .where(sql<string>`lower(value)`, '=', value.toLowerCase())
    .executeTakeFirst();
  return row ?? null;
}

/** A channel to add. */
export interface NewContactChannel {
  projectId: string;
  userId: string;
  value: string;
  isVerified: boolean;
  isPrimary: boolean;
  usedForAuth: boolean;
  /** Sign-in asked for an unverified address: `used_for_auth` turns on when it is verified. */
  authPending?: boolean;
  now: number;
  /** The user was just created and has no channel yet: there is no primary to demote. */
  firstOfUser?: boolean;
}

/**
 * Inserts a channel; a primary one first demotes the user's current primary.
 * Fails on `authEmailIndex` (address used for sign-in by someone) or
 * `userEmailIndex` (the user has this address already). Mirror the primary
 * channel afterwards in the same transaction.
 */
export async function insertContactChannel(db: Db, channel: NewContactChannel): Promise<ContactChannelRow> {
  if (channel.isPrimary && !channel.firstOfUser) await demotePrimary(db, channel.projectId, channel.userId);
  return db
    .insertInto('contact_channels')
    .values({
      id: randomUUID(),
      project_id: channel.projectId,
      user_id: channel.userId,
      type: 'email',
      value: channel.value,
      is_verified: channel.isVerified,
      is_primary: channel.isPrimary,
      used_for_auth: channel.usedForAuth,
      auth_pending: channel.authPending ?? false,
      created_at: new Date(channel.now),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Fields of a channel that may change. */
export interface ContactChannelChanges {
  value?: string;
  is_verified?: boolean;
  is_primary?: boolean;
  used_for_auth?: boolean;
  auth_pending?: boolean;
}

/**
 * Applies `changes`; a channel made primary first demotes the current one.
 * Null when there is no such channel. Mirror the primary channel afterwards.
 * A channel verified with sign-in pending becomes a sign-in channel (and may
 * fail on `authEmailIndex` when someone else signs in with the address by
 * then); naming `used_for_auth` settles the pending wish either way.
 */
export async function updateContactChannel(
  db: Db,
  projectId: string,
  userId: string,
  channelId: string,
  changes: ContactChannelChanges,
): Promise<ContactChannelRow | null> {
  if (!isUuid(channelId)) return null;
  if (changes.is_primary === true) await demotePrimary(db, projectId, userId, channelId);
  if (Object.keys(changes).length === 0) return findContactChannel(db, projectId, userId, channelId);
  const set: UpdateObject<Database, 'contact_channels'> = { ...changes };
  if (changes.used_for_auth !== undefined) set.auth_pending = changes.auth_pending ?? false;
  else if (changes.is_verified === true && changes.auth_pending === undefined) {
    set.used_for_auth = sql<boolean>`used_for_auth or auth_pending`;
    set.auth_pending = false;
  }
  const row = await db
    .updateTable('contact_channels')
    .set(set)
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('id', '=', channelId.toLowerCase())
    .returningAll()
    .executeTakeFirst();
  return row ?? null;
}

/** Deletes a channel; false when there was none. Mirror the primary channel afterwards. */
export async function deleteContactChannel(
  db: Db,
  projectId: string,
  userId: string,
  channelId: string,
): Promise<boolean> {
  if (!isUuid(channelId)) return false;
  const result = await db
    .deleteFrom('contact_channels')
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('id', '=', channelId.toLowerCase())
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

async function demotePrimary(db: Db, projectId: string, userId: string, except?: string): Promise<void> {
  await db
    .updateTable('contact_channels')
    .set({ is_primary: false })
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('is_primary', '=', true)
    .$if(except !== undefined, (query) => query.where('id', '!=', except!))
    .execute();
}

/**
 * Marks a channel verified; false when it already was (nothing written). The
 * owner proved they read its mailbox. Mirror the primary channel afterwards.
 */
export async function markChannelVerified(db: Db, channel: ContactChannelRow): Promise<boolean> {
  if (channel.is_verified) return false;
  await updateContactChannel(db, channel.project_id, channel.user_id, channel.id, { is_verified: true });
  return true;
}

/** The primary e-mail as a user write states it (the `users.primary_email*` fields after the write). */
export interface PrimaryEmailState {
  email: string | null;
  verified: boolean;
  usedForAuth: boolean;
}

/**
 * Makes the user's primary channel match `state`: removes it for a null
 * e-mail, changes it, or adds it (taking over the user's existing channel with
 * that address, if any, and keeping the old primary as a secondary). Same failures as `insertContactChannel`.
 */
export async function applyPrimaryEmail(
  db: Db,
  projectId: string,
  userId: string,
  state: PrimaryEmailState,
  now: number,
): Promise<void> {
  const channels = await listContactChannels(db, projectId, userId);
  const primary = channels.find((channel) => channel.is_primary);
  if (state.email === null) {
    if (primary) await deleteContactChannel(db, projectId, userId, primary.id);
    return;
  }
  const lower = state.email.toLowerCase();
  const target =
    primary && primary.value.toLowerCase() === lower
      ? primary
      : channels.find((channel) => channel.value.toLowerCase() === lower);
  const changes = { value: state.email, is_verified: state.verified, used_for_auth: state.usedForAuth };
  if (target) {
    // The user's other channel with that address becomes primary; the old primary stays as a secondary one.
    await updateContactChannel(db, projectId, userId, target.id, { ...changes, is_primary: true });
  } else if (primary) {
    await updateContactChannel(db, projectId, userId, primary.id, changes);
  } else {
    await insertContactChannel(db, {
      projectId,
      userId,
      value: state.email,
      isVerified: state.verified,
      isPrimary: true,
      usedForAuth: state.usedForAuth,
      now,
    });
  }
}

/** How many channels the user has besides `exceptId` (any address, verified or not, for sign-in or not). */
export async function countOtherChannels(db: Db, projectId: string, userId: string, exceptId: string): Promise<number> {
  const row = await db
    .selectFrom('contact_channels')
    .select((eb) => eb.fn.countAll<string | number>().as('count'))
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('id', '!=', exceptId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Imported users' channels, many a statement (`import/`); the primary ones are mirrored in their user rows. */
export async function insertChannelRows(
  db: Db,
  rows: readonly Insertable<Database['contact_channels']>[],
): Promise<void> {
  for (const chunk of insertChunks(rows)) await db.insertInto('contact_channels').values(chunk).execute();
}

/** Of the lower-cased addresses, those someone of the project signs in with. */
export async function findTakenAuthAddresses(
  db: Db,
  projectId: string,
  lowered: readonly string[],
): Promise<Set<string>> {
  if (lowered.length === 0) return new Set();
  const rows = await db
    .selectFrom('contact_channels')
    .select(sql<string>`lower(value)`.as('address'))
    .where('project_id', '=', projectId)
    .where('type', '=', 'email')
    .where('used_for_auth', '=', true)
    .where(sql<string>`lower(value)`, 'in', lowered)
    .execute();
  return new Set(rows.map((row) => row.address));
}

/** The channels of the users, oldest first (the export). */
export function listChannelsOfUsers(
  db: Db,
  projectId: string,
  userIds: readonly string[],
): Promise<ContactChannelRow[]> {
  if (userIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('contact_channels')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('user_id', 'in', userIds)
    .orderBy('created_at')
    .execute();
}
