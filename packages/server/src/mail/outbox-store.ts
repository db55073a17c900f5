/** The e-mail outbox: every query on `email_outbox`. */
import { randomUUID } from 'node:crypto';
import type { Db } from '../storage/db.js';
import type { OutboxRow } from '../storage/schema.js';

/** A rendered mail to deliver. */
export interface OutgoingMail {
  projectId: string;
  /** Template type (`password_reset`, ...) or `test`. */
  kind: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  now: number;
}

/**
 * Queues a mail. Call it in the transaction that writes what the mail carries
 * (a code), so that both are kept or neither is.
 */
export async function enqueueMail(db: Db, mail: OutgoingMail): Promise<OutboxRow> {
  return db
    .insertInto('email_outbox')
    .values({
      id: randomUUID(),
      project_id: mail.projectId,
      kind: mail.kind,
      recipient: mail.to,
      subject: mail.subject,
      html: mail.html,
      text_body: mail.text,
      transport: null,
      next_attempt_at: new Date(mail.now),
      last_error: null,
      created_at: new Date(mail.now),
      sent_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}
