/**
 * What a mailbox proof does to an address someone else merely claims.
 *
 * A password reset and a provider sign-up with an e-mail the provider
 * verified both prove that the person reads the mailbox. (Code sign-in
 * refuses such an address instead, as the original backend does:
 * `otp/otp-routes.ts`.) When an
 * account signs in with that address without ever having proven it, whoever
 * made that account may be someone else waiting for her (pre-hijacking): he
 * signed up with her address and a password, then gave the account ways in of
 * his own. The proof must give her an account only she can enter:
 *
 * - If the address is the account's only address and the account has no
 *   provider connected, the address is all there is to it: the account is
 *   hers. The address becomes verified, the password nobody proved (removed
 *   here; a reset sets hers) and every session end, and the account's
 *   outstanding codes expire.
 * - Otherwise (another address, verified or not, or a provider: ways in she
 *   does not control), the address is detached from that account (its channel
 *   removed, with the codes mailed for it) and the caller gives her a new
 *   account with the address verified.
 *
 * A verified sign-in address is simply its account's: nothing changes.
 */
import type { AuditSource } from '../audit/audit-log.js';
import { expireOutstandingCodes } from '../codes/code-store.js';
import { type ActionContext, type ActionTx, act, actorOf, record, sessionsEnded } from '../events/recorder.js';
import { countUserAccounts } from '../oauth/oauth-account-store.js';
import { deleteUserSessions } from '../sessions/session-store.js';
import type { Db } from '../storage/db.js';
import type { UserRow } from '../storage/schema.js';
import { findUser, lockUser, updateUser } from '../users/user-store.js';
import {
  countOtherChannels,
  deleteContactChannel,
  findAuthChannel,
  markChannelVerified,
} from './contact-channel-store.js';
import { mirrorPrimaryChannel } from './contact-channels-actions.js';

/** The codes that act on an account or an address of it. */
const accountCodes = ['email_verification', 'password_reset', 'magic_link'] as const;

/** A proof of `address`, in its action. */
export interface MailboxProof {
  projectId: string;
  address: string;
  now: number;
  /** The code being used for the proof, which stays as its use leaves it. */
  codeId?: string;
}

/**
 * Settles who the proven address belongs to, inside the action `tx` that
 * acts on the proof: the user who signs in with it and is now the prover's
 * own, or null when nobody signs in with it (any more: a claim was detached,
 * `contact_channel.detached`), so the caller creates her account. An address
 * that became the account's is `contact_channel.verified`.
 *
 * @example
 * const owner = await settleProof(tx, { projectId, address, now, codeId: row.id });
 * const user = owner ?? (await addUser(tx.db, { ...withVerifiedAddress }));
 */
export async function settleProof(tx: ActionTx, proof: MailboxProof): Promise<UserRow | null> {
  const { db } = tx;
  const { projectId, address, now } = proof;
  const found = await findAuthChannel(db, projectId, address);
  if (!found) return null;
  await lockUser(db, projectId, found.user_id);
  // Read again under the lock: the channel may have changed meanwhile.
  const channel = await findAuthChannel(db, projectId, address);
  const user = channel && (await findUser(db, projectId, channel.user_id));
  if (!channel || !user) return null;
  if (channel.is_verified) return user;

  const otherWaysIn =
    (await countOtherChannels(db, projectId, user.id, channel.id)) > 0 ||
    (await countUserAccounts(db, projectId, user.id)) > 0;
  if (otherWaysIn) {
    await deleteContactChannel(db, projectId, user.id, channel.id);
    await mirrorPrimaryChannel(db, projectId, user.id);
    await expireOutstandingCodes(
      db,
      { projectId, purposes: accountCodes, userId: user.id, email: address, ...except(proof) },
      now,
    );
    await record(tx, 'contact_channel.detached', { userId: user.id, data: { channel_id: channel.id } });
    return null;
  }

  if (await markChannelVerified(db, channel)) await mirrorPrimaryChannel(db, projectId, user.id);
  sessionsEnded(tx, await deleteUserSessions(db, projectId, user.id));
  await expireOutstandingCodes(db, { projectId, purposes: accountCodes, userId: user.id, ...except(proof) }, now);
  await record(tx, 'contact_channel.verified', { userId: user.id, data: { channel_id: channel.id } });
  if (user.password_hash === null) return user;
  return (await updateUser(db, projectId, user.id, { password_hash: null })) ?? user;
}

function except(proof: MailboxProof): { exceptId?: string } {
  return proof.codeId === undefined ? {} : { exceptId: proof.codeId };
}

/**
 * `settleProof` for sign-in code that is not made of actions yet (provider
 * sign-in): an action joining the caller's transaction `db`, acting
 * as `source` says. Its events are written in that transaction and its notices
 * sent through the database when it commits; this instance's feed is not told
 * directly, as the commit is the caller's.
 *
 * @example
 * const owner = await settleProvenAddress(trx, { projectId, address: email, now, source });
 */
export function settleProvenAddress(db: Db, proof: MailboxProof & { source: AuditSource }): Promise<UserRow | null> {
  const { source, ...facts } = proof;
  return act(sourceContext(db, source), (tx) => settleProof(tx, facts));
}

function sourceContext(db: Db, source: AuditSource): ActionContext {
  const projectId = source.projectId ?? source.auth?.project.id;
  if (projectId === undefined) throw new Error('settleProvenAddress: no project to act in');
  const userId = source.userId ?? source.auth?.userId ?? null;
  return {
    db,
    clock: source.deps.clock,
    actor: source.actor ?? actorOf(source.auth, userId),
    projectId,
    userId,
    client: source.client,
    feed: null,
  };
}
