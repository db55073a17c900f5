/**
 * What changes contact channels, for the routes: add, change and remove a
 * user's channel, mail a verification code, and verify a channel with one.
 * Each is an action (`events/recorder.ts`) that runs under a lock on the
 * user's row and ends with `mirrorPrimaryChannel`, so the user's
 * `primary_email*` fields always show the primary channel; its writes and its
 * event commit together. The lock makes changes to one user's channels run
 * one after another: two concurrent "make this primary" would otherwise each
 * demote the primary they saw and both promote theirs, and the one-primary
 * index would refuse the second with an error.
 */
import { KnownError } from '@latchkey/protocol';
import { useCode } from '../codes/codes.js';
import { type ActionContext, act, record } from '../events/recorder.js';
import { StatusRefusal } from '../http/responses.js';
import type { Db } from '../storage/db.js';
import type { VerificationCodeRow } from '../storage/schema.js';
import { authEmailIndex, type ContactChannelRow, isUniqueViolation, userEmailIndex } from '../storage/schema.js';
import { lockUser, mirrorPrimaryEmail } from '../users/user-store.js';
import {
  type ContactChannelChanges,
  deleteContactChannel,
  findAuthChannel,
  findPrimaryChannel,
  findUserChannelByValue,
  insertContactChannel,
  markChannelVerified,
  updateContactChannel,
} from './contact-channel-store.js';
import { shownUsedForAuth } from './contact-channel-views.js';
import { queueVerificationMail, type VerificationMail, verificationSubject } from './verification.js';

/** A channel the user does not have (or no longer has): a plain status error, as the original backend. */
export const channelNotFound = (status: 400 | 404 = 400) => new StatusRefusal(status, 'Contact channel not found');
const usedBySomeoneElse = () =>
  new KnownError('CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE', { type: 'email' });
const alreadyHas = () => new KnownError('USER_EMAIL_ALREADY_EXISTS');
/** Adding an address the user has on a channel already: a plain 400, as the original backend. */
const channelExists = () => new StatusRefusal(400, 'Contact channel already exists');

/** The errors of a write that may collide with another channel. */
export const collisionErrors = [
  'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE',
  'USER_EMAIL_ALREADY_EXISTS',
] as const;

/**
 * Refuses an address the user has on another channel, or (for a sign-in
 * channel) one another user signs in with. The unique indexes decide races;
 * the actions map their violations to the same errors.
 */
export async function checkAddressFree(
  db: Db,
  projectId: string,
  userId: string,
  value: string,
  usedForAuth: boolean,
  channelId: string | null,
): Promise<void> {
  const own = await findUserChannelByValue(db, projectId, userId, value);
  if (own && own.id !== channelId) throw channelId === null ? channelExists() : alreadyHas();
  if (!usedForAuth) return;
  const auth = await findAuthChannel(db, projectId, value);
  if (auth && auth.user_id !== userId) throw usedBySomeoneElse();
}

/**
 * Copies the user's primary channel (or its absence) into the user row's
 * `primary_email*` fields: a step of every action that changes a user's
 * channels, last, in its transaction.
 */
export async function mirrorPrimaryChannel(db: Db, projectId: string, userId: string): Promise<void> {
  await mirrorPrimaryEmail(db, projectId, userId, await findPrimaryChannel(db, projectId, userId));
}

function collision(error: unknown): never {
  if (isUniqueViolation(error, authEmailIndex)) throw usedBySomeoneElse();
  if (isUniqueViolation(error, userEmailIndex)) throw alreadyHas();
  throw error;
}

/** `collision` for a new channel: the user's own address twice is the plain 400 of `checkAddressFree`. */
function addCollision(error: unknown): never {
  if (isUniqueViolation(error, userEmailIndex)) throw channelExists();
  return collision(error);
}

/** A channel to add to a user, as stored. */
export interface NewChannel {
  value: string;
  isVerified: boolean;
  isPrimary: boolean;
  usedForAuth: boolean;
  /** Sign-in asked for an unverified address: it becomes a sign-in address once verified. */
  authPending: boolean;
}

/** Adds a channel to the user (a primary one demotes the old primary). */
export function addChannel(ctx: ActionContext, userId: string, channel: NewChannel): Promise<ContactChannelRow> {
  const { projectId } = ctx;
  return act(ctx, async (tx) => {
    await lockUser(tx.db, projectId, userId);
    const row = await insertContactChannel(tx.db, { projectId, userId, ...channel, now: ctx.clock.now() });
    await mirrorPrimaryChannel(tx.db, projectId, userId);
    await record(tx, 'contact_channel.added', {
      userId,
      data: { channel_id: row.id, used_for_auth: shownUsedForAuth(row), verified: row.is_verified },
    });
    return row;
  }).catch(addCollision);
}

/** Changes the user's channel `before` (as read before the change); a plain 400 `Contact channel not found` when it is gone. */
export function updateChannel(
  ctx: ActionContext,
  before: ContactChannelRow,
  changes: ContactChannelChanges,
): Promise<ContactChannelRow> {
  const { projectId } = ctx;
  const userId = before.user_id;
  return act(ctx, async (tx) => {
    await lockUser(tx.db, projectId, userId);
    const after = await updateContactChannel(tx.db, projectId, userId, before.id, changes);
    if (!after) throw channelNotFound();
    await mirrorPrimaryChannel(tx.db, projectId, userId);
    const fields = changedFields(before, after);
    if (fields.length > 0) {
      await record(tx, 'contact_channel.updated', { userId, data: { channel_id: before.id, fields } });
    }
    return after;
  }).catch(collision);
}

/** The names of the wire fields that differ between two versions of a channel (never the address itself). */
function changedFields(before: ContactChannelRow, after: ContactChannelRow): string[] {
  const shown = (row: ContactChannelRow) => ({
    value: row.value,
    used_for_auth: shownUsedForAuth(row),
    is_primary: row.is_primary,
    is_verified: row.is_verified,
  });
  const [was, now] = [shown(before), shown(after)];
  return (['value', 'used_for_auth', 'is_primary', 'is_verified'] as const).filter(
    (field) => was[field] !== now[field],
  );
}

/** Removes the user's channel; a plain 400 `Contact channel not found` when it is gone. */
export function removeChannel(ctx: ActionContext, userId: string, channelId: string): Promise<void> {
  const { projectId } = ctx;
  return act(ctx, async (tx) => {
    await lockUser(tx.db, projectId, userId);
    if (!(await deleteContactChannel(tx.db, projectId, userId, channelId))) throw channelNotFound();
    await mirrorPrimaryChannel(tx.db, projectId, userId);
    await record(tx, 'contact_channel.removed', { userId, data: { channel_id: channelId } });
  });
}

/**
 * Issues a verification code for the channel and queues its mail, together.
 * Nothing of the account changes, so there is no event to record.
 */
export function sendVerificationCode(ctx: ActionContext, mail: VerificationMail): Promise<void> {
  return act(ctx, (tx) => queueVerificationMail(tx.db, mail));
}

/**
 * Uses the checked verification code and marks its channel verified, while
 * the channel still holds the address it was mailed to
 * (VERIFICATION_CODE_NOT_FOUND otherwise); with sign-in pending the address
 * takes its sign-in slot now (CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE,
 * the code left unused, when someone else signs in with it by then).
 */
export function verifyChannel(ctx: ActionContext, code: VerificationCodeRow): Promise<void> {
  const { projectId } = ctx;
  return act(ctx, async (tx) => {
    await useCode(tx.db, code, ctx.clock.now());
    // Read again in the transaction, under the user's lock: the address may have changed since the check.
    await lockUser(tx.db, projectId, (await verificationSubject(tx.db, projectId, code)).user_id);
    const channel = await verificationSubject(tx.db, projectId, code);
    if (await markChannelVerified(tx.db, channel)) await mirrorPrimaryChannel(tx.db, projectId, channel.user_id);
    await record(tx, 'contact_channel.verified', { userId: channel.user_id, data: { channel_id: channel.id } });
  }).catch(collision);
}
