/**
 * Outbox bodies sealed at rest. A queued mail carries a working code (a reset
 * link, a sign-in code, an invitation), so its subject, HTML and text are
 * stored sealed (AES-256-GCM under a key of its own derived from the master
 * secret, `crypto/encryption.ts`), bound to their row: one SELECT of
 * `email_outbox` opens no account. The worker opens them to send; the dev
 * mailbox opens them to show. `rotateSecret` re-seals what waits.
 *
 * The flows queue mail with nothing but their transaction, so the sealer
 * travels on the service's database handle (`withOutboxSealer`), and every
 * transaction opened on it finds it (`outboxSealerOf`).
 */
import { createSealer, type Sealer } from '../crypto/encryption.js';
import { carried, carrying, type Db } from '../storage/db.js';
import type { OutboxRow } from '../storage/schema.js';

/** Purpose of the outbox sealer's derived key (unrelated to the config and signing-key sealers'). */
const outboxSealerPurpose = 'email outbox';

/** What a mail says: the subject it is sent with, its HTML and its plain text. */
export interface MailContent {
  subject: string;
  html: string;
  text: string;
}

const sealerKey = Symbol('outbox sealer');

/**
 * The outbox sealer of the master secrets (the first seals, each opens).
 *
 * @example
 * const sealer = outboxSealer([options.secret, ...(options.acceptedSecrets ?? [])]);
 */
export function outboxSealer(secrets: string | readonly string[]): Sealer {
  return createSealer(secrets, outboxSealerPurpose);
}

/** `db`, carrying the outbox sealer to every store call and transaction made with it. */
export function withOutboxSealer(db: Db, sealer: Sealer): Db {
  return carrying(db, sealerKey, sealer);
}

/** The outbox sealer `db` carries; throws when it carries none (mail queued outside a service). */
export function outboxSealerOf(db: Db): Sealer {
  const sealer = carried<Sealer>(db, sealerKey);
  if (!sealer) throw new Error('mail can only be queued through a service’s database handle (no outbox sealer)');
  return sealer;
}

/** The associated data binding a sealed body to its row. */
const rowData = (id: string) => `email_outbox ${id}`;

/** Seals a mail's content for the outbox row `id`. */
export function sealContent(sealer: Sealer, id: string, content: MailContent): string {
  return sealer.seal(JSON.stringify(content), rowData(id));
}

/**
 * What a row's mail says: its sealed content opened, a clear body queued
 * before bodies were sealed, or null when the body is gone. Throws when the
 * sealer's secrets do not open it.
 */
export function openContent(sealer: Sealer, row: OutboxRow): MailContent | null {
  if (row.sealed_content !== null) {
    const opened = JSON.parse(sealer.open(row.sealed_content, rowData(row.id))) as MailContent;
    return { subject: opened.subject, html: opened.html, text: opened.text };
  }
  if (row.html === null && row.text_body === null) return null;
  return { subject: row.subject, html: row.html ?? '', text: row.text_body ?? '' };
}

/** A sealed body opened with `from` and sealed again with `to` (`rotateSecret`). */
export function resealContent(from: Sealer, to: Sealer, id: string, sealed: string): string {
  return to.seal(from.open(sealed, rowData(id)), rowData(id));
}
