/**
 * Housekeeping: rows that only grow are pruned on a slow timer in every
 * instance (the deletes are idempotent, so instances need no coordination).
 * - verification codes a day after they expired (until then a late click
 *   hears "expired" rather than "not found");
 * - mails sent or given up on, after 30 days (their delivery status is what
 *   administrators read; the bodies of SMTP mails and of mails given up on
 *   are gone already), and the bodies the dev mailbox keeps after 7 days
 *   (the longest a mailed link works: an invitation's);
 * - webhook messages delivered or given up on, with their bodies and
 *   attempts, after 30 days (the deliveries list an admin reads);
 * - failed-attempt counters a day after their last failure (no back-off lasts
 *   that long: `rate-limit/attempt-limits.ts`);
 * - audit events after 400 days (a year of history and a margin for the
 *   yearly review; nothing else removes them).
 */
import type { Logger } from 'pino';
import { deleteAuditEventsBefore } from './audit/audit-store.js';
import { deleteCodesExpiredBefore } from './codes/code-store.js';
import { codeLifetimeMs } from './codes/codes.js';
import type { Clock } from './common/clock.js';
import { deleteFinishedMailsBefore, dropMailBodiesBefore } from './mail/outbox-store.js';
import { deleteFailuresBefore } from './rate-limit/attempt-store.js';
import type { Db } from './storage/db.js';
import { deleteFinishedWebhookMessagesBefore } from './webhooks/webhook-message-store.js';

const day = 24 * 60 * 60_000;

/** How long expired codes, finished mails (and the bodies kept), failure counters, audit events and finished webhook messages are kept. */
export const retention = {
  expiredCodesMs: day,
  finishedMailsMs: 30 * day,
  mailBodiesMs: Math.max(...Object.values(codeLifetimeMs)),
  attemptFailuresMs: day,
  auditEventsMs: 400 * day,
  finishedWebhookMessagesMs: 30 * day,
} as const;

/** Prunes once; returns what it removed. */
export async function pruneOnce(
  db: Db,
  now: number,
): Promise<{
  codes: number;
  mails: number;
  mailBodies: number;
  failures: number;
  auditEvents: number;
  webhookMessages: number;
}> {
  const codes = await deleteCodesExpiredBefore(db, now - retention.expiredCodesMs);
  const mails = await deleteFinishedMailsBefore(db, now - retention.finishedMailsMs);
  const mailBodies = await dropMailBodiesBefore(db, now - retention.mailBodiesMs);
  const failures = await deleteFailuresBefore(db, now - retention.attemptFailuresMs);
  const auditEvents = await deleteAuditEventsBefore(db, now - retention.auditEventsMs);
  const webhookMessages = await deleteFinishedWebhookMessagesBefore(db, now - retention.finishedWebhookMessagesMs);
  return { codes, mails, mailBodies, failures, auditEvents, webhookMessages };
}

/**
 * Prunes now and then every `intervalMs` (default one hour); the timer never
 * keeps the process alive. Returns the function that stops it.
 */
export function startHousekeeping(options: {
  db: Db;
  clock: Clock;
  logger: Logger | null;
  intervalMs?: number;
}): () => void {
  const run = () => {
    pruneOnce(options.db, options.clock.now()).catch((error: Error) => {
      options.logger?.warn({ err: { name: error.name, message: error.message } }, 'housekeeping failed');
    });
  };
  const timer = setInterval(run, options.intervalMs ?? 60 * 60_000);
  timer.unref?.();
  return () => clearInterval(timer);
}
