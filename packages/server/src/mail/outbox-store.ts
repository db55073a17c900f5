/** The e-mail outbox: every query on `email_outbox`. */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Sealer } from '../crypto/encryption.js';
import { notifyMailQueued } from '../storage/change-feed.js';
import { type Db, inTransaction } from '../storage/db.js';
import type { OutboxRow } from '../storage/schema.js';
import { sealContent } from './sealed-mail.js';

/** A rendered mail to deliver. */
export interface OutgoingMail {
  projectId: string;
  /** Template type (`password_reset`, ...) or `test`. */
  kind: string;
  to: string;
  subject: string;
  /** The subject as admins list it, when `subject` holds a code (masked there); default `subject`. */
  listedSubject?: string;
  html: string;
  text: string;
  now: number;
}

/** What a mail no longer needs once delivered over SMTP or given up on: its body, sealed or (older rows) clear. */
const noBody = { html: null, text_body: null, sealed_content: null } as const;

/**
 * Queues a mail. Call it in the transaction that writes what the mail carries
 * (a code), so that both are kept or neither is. On commit every instance's
 * outbox worker hears of it (change feed) and sends it at once. The subject,
 * HTML and text are stored sealed with `sealer` (`sealed-mail.ts`).
 *
 * @example
 * await inTransaction(deps.db, async (trx) => {
 *   const code = await issueCode(trx, { projectId, purpose: 'password_reset', data, now });
 *   await enqueueMail(trx, outboxSealerOf(trx), { projectId, kind: 'password_reset', to, subject, html, text, now });
 * });
 */
export async function enqueueMail(db: Db, sealer: Sealer, mail: OutgoingMail): Promise<OutboxRow> {
  const id = randomUUID();
  const row = await db
    .insertInto('email_outbox')
    .values({
      id,
      project_id: mail.projectId,
      kind: mail.kind,
      recipient: mail.to,
      subject: mail.listedSubject ?? mail.subject,
      html: null,
      text_body: null,
      sealed_content: sealContent(sealer, id, { subject: mail.subject, html: mail.html, text: mail.text }),
      transport: null,
      next_attempt_at: new Date(mail.now),
      last_error: null,
      created_at: new Date(mail.now),
      sent_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  await notifyMailQueued(db);
  return row;
}

/**
 * Claims up to `limit` due mails for one worker: rows queued and due, or left
 * `sending` by a worker whose lease ran out (it crashed mid-send). Rows another
 * worker holds locked are skipped (`FOR UPDATE SKIP LOCKED`), so instances
 * share the work. Each claimed row becomes `sending` until `leaseUntil` and
 * counts an attempt. Rows whose lease ran out after their last attempt fail
 * (and lose their body).
 */
export async function claimDueMails(
  db: Db,
  options: { now: number; leaseUntil: number; limit: number; maxAttempts: number },
): Promise<OutboxRow[]> {
  const now = new Date(options.now);
  return inTransaction(db, async (trx) => {
    await trx
      .updateTable('email_outbox')
      .set({ status: 'failed', last_error: sql`coalesce(last_error, 'delivery was interrupted')`, ...noBody })
      .where('status', '=', 'sending')
      .where('next_attempt_at', '<=', now)
      .where('attempts', '>=', options.maxAttempts)
      .execute();
    const due = await trx
      .selectFrom('email_outbox')
      .select('id')
      .where('status', 'in', ['queued', 'sending'])
      .where('next_attempt_at', '<=', now)
      .orderBy('next_attempt_at')
      .limit(options.limit)
      .forUpdate()
      .skipLocked()
      .execute();
    if (due.length === 0) return [];
    return trx
      .updateTable('email_outbox')
      .set({ status: 'sending', next_attempt_at: new Date(options.leaseUntil), attempts: sql`attempts + 1` })
      .where(
        'id',
        'in',
        due.map((row) => row.id),
      )
      .returningAll()
      .execute();
  });
}

/**
 * Records a delivery. `keepBody` false (SMTP) drops the body: a delivered
 * code is not kept. The dev mailbox keeps it (sealed): it is the inbox.
 */
export async function markMailSent(
  db: Db,
  id: string,
  options: { now: number; transport: string; keepBody: boolean },
): Promise<void> {
  await db
    .updateTable('email_outbox')
    .set({
      status: 'sent',
      transport: options.transport,
      sent_at: new Date(options.now),
      last_error: null,
      ...(options.keepBody ? {} : noBody),
    })
    .where('id', '=', id)
    .where('status', '=', 'sending')
    .execute();
}

/** Records a failed attempt: tried again at `retryAt`, or `failed` for good (its body dropped) when `retryAt` is null. */
export async function markMailFailed(db: Db, id: string, options: { error: string; retryAt: number | null }) {
  await db
    .updateTable('email_outbox')
    .set(
      options.retryAt === null
        ? { status: 'failed', last_error: options.error, ...noBody }
        : { status: 'queued', last_error: options.error, next_attempt_at: new Date(options.retryAt) },
    )
    .where('id', '=', id)
    .where('status', '=', 'sending')
    .execute();
}

/** A project's newest outbox rows (admin delivery status). */
export async function listProjectMails(db: Db, projectId: string, limit: number): Promise<OutboxRow[]> {
  return db
    .selectFrom('email_outbox')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** The newest outbox rows of every project, optionally to one address (case-insensitive): the dev mailbox. */
export async function listMailboxMails(db: Db, options: { to?: string; limit: number }): Promise<OutboxRow[]> {
  let query = db.selectFrom('email_outbox').selectAll();
  if (options.to !== undefined) query = query.where(sql<string>`lower(recipient)`, '=', options.to.toLowerCase());
  return query.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(options.limit).execute();
}

/** One outbox row, or null (also for an id that is not a UUID). */
export async function findMail(db: Db, id: string): Promise<OutboxRow | null> {
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) return null;
  return (await db.selectFrom('email_outbox').selectAll().where('id', '=', id).executeTakeFirst()) ?? null;
}

/** Hands claimed mails back unsent (the worker is stopping): due now, the claim's attempt not counted. */
export async function releaseMails(db: Db, ids: readonly string[], now: number): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('email_outbox')
    .set({ status: 'queued', next_attempt_at: new Date(now), attempts: sql`greatest(attempts - 1, 0)` })
    .where('id', 'in', [...ids])
    .where('status', '=', 'sending')
    .execute();
}

/** Deletes mails sent or given up on before `before`; returns how many. */
export async function deleteFinishedMailsBefore(db: Db, before: number): Promise<number> {
  const result = await db
    .deleteFrom('email_outbox')
    .where('status', 'in', ['sent', 'failed'])
    .where('created_at', '<', new Date(before))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/**
 * Drops the bodies of mails queued before `before` that still have one (the
 * dev mailbox's, whose links are dead by then); returns how many.
 */
export async function dropMailBodiesBefore(db: Db, before: number): Promise<number> {
  const result = await db
    .updateTable('email_outbox')
    .set(noBody)
    .where('created_at', '<', new Date(before))
    .where('status', 'in', ['sent', 'failed'])
    .where((eb) =>
      eb.or([eb('sealed_content', 'is not', null), eb('html', 'is not', null), eb('text_body', 'is not', null)]),
    )
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Every sealed outbox body with its row id (`rotateSecret`). */
export async function listSealedMails(db: Db): Promise<{ id: string; sealed_content: string }[]> {
  const rows = await db
    .selectFrom('email_outbox')
    .select(['id', 'sealed_content'])
    .where('sealed_content', 'is not', null)
    .execute();
  return rows.map((row) => ({ id: row.id, sealed_content: row.sealed_content! }));
}

/** Replaces a row's sealed body (`rotateSecret`). */
export async function updateSealedMail(db: Db, id: string, sealed: string): Promise<void> {
  await db.updateTable('email_outbox').set({ sealed_content: sealed }).where('id', '=', id).execute();
}
