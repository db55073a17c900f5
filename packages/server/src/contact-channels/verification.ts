/**
 * E-mail verification codes (wire-protocol §12, §14.6). A code is issued for
 * one channel and names it with the address it was mailed to: it verifies
 * that channel only while the channel still holds that address, so a code
 * mailed before the user changed the address cannot verify the new one.
 */

import { KnownError } from '@latchkey/protocol';
import { z } from 'zod';
import { mailCode } from '../codes/code-mail.js';
import type { ProjectRecord } from '../projects/projects.js';
import type { Db } from '../storage/db.js';
import type { ContactChannelRow, VerificationCodeRow } from '../storage/schema.js';
import { findContactChannel } from './contact-channel-store.js';

/** What to mail: the channel to verify, whose user it greets, and the page the link opens. */
export interface VerificationMail {
  project: ProjectRecord;
  channel: ContactChannelRow;
  userDisplayName: string | null;
  /** A trusted callback URL (the caller checks it); the link is `<callback_url>?code=<code>`. */
  callbackUrl: string;
  now: number;
}

/**
 * Issues an `email_verification` code for the channel and queues the mail
 * carrying its link. Call it in the transaction that makes the channel (or
 * with the database for an existing one): the code and its mail commit together.
 *
 * @example
 * await inTransaction(deps.db, (trx) =>
 *   queueVerificationMail(trx, { project, channel, userDisplayName: null, callbackUrl, now }),
 * );
 */
export async function queueVerificationMail(db: Db, mail: VerificationMail): Promise<void> {
  await mailCode(db, {
    project: mail.project,
    type: 'email_verification',
    to: mail.channel.value,
    data: { user_id: mail.channel.user_id, channel_id: mail.channel.id, email: mail.channel.value },
    callbackUrl: mail.callbackUrl,
    now: mail.now,
    variables: (link) => ({ userDisplayName: mail.userDisplayName, emailVerificationLink: link }),
  });
}

const verificationData = z.object({ user_id: z.string(), channel_id: z.string(), email: z.string() });

/**
 * The channel a checked verification code verifies; VERIFICATION_CODE_NOT_FOUND
 * when it is gone or no longer holds the address the code was mailed to.
 *
 * @example
 * const channel = await verificationSubject(deps.db, project.id, row);
 */
export async function verificationSubject(
  db: Db,
  projectId: string,
  row: VerificationCodeRow,
): Promise<ContactChannelRow> {
  const data = verificationData.safeParse(row.data);
  if (!data.success) throw new KnownError('VERIFICATION_CODE_NOT_FOUND');
  const channel = await findContactChannel(db, projectId, data.data.user_id, data.data.channel_id);
  if (!channel || channel.value.toLowerCase() !== data.data.email.toLowerCase()) {
    throw new KnownError('VERIFICATION_CODE_NOT_FOUND');
  }
  return channel;
}
