/**
 * Reading the mails a test service queued. Mails sit in the outbox the moment
 * the request that queued them returns (same transaction), so tests read them
 * without waiting for delivery; their sealed bodies are opened with the
 * service's secret.
 */

import { sql } from 'kysely';
import { openContent, outboxSealer } from '../mail/sealed-mail.js';
import { dbOf } from '../storage/open-storage.js';
import type { TestService } from '../testing/index.js';

/** A queued or delivered mail as a test reads it. */
export interface TestMail {
  kind: string;
  to: string;
  subject: string;
  html: string;
  text: string;
  status: string;
}

/** Every mail queued to `to` (case-insensitive), oldest first. */
export async function mailsTo(service: TestService, to: string): Promise<TestMail[]> {
  const rows = await dbOf(service.storage)
    .selectFrom('email_outbox')
    .selectAll()
    .where(sql<string>`lower(recipient)`, '=', to.toLowerCase())
    .orderBy('created_at', 'asc')
    .orderBy('id', 'asc')
    .execute();
  const sealer = outboxSealer(service.secret);
  return rows.map((row) => {
    const content = openContent(sealer, row);
    return {
      kind: row.kind,
      to: row.recipient,
      subject: content?.subject ?? row.subject,
      html: content?.html ?? '',
      text: content?.text ?? '',
      status: row.status,
    };
  });
}

/** The newest mail to `to`; fails the test when there is none. */
export async function lastMailTo(service: TestService, to: string): Promise<TestMail> {
  const mails = await mailsTo(service, to);
  const mail = mails.at(-1);
  if (!mail) throw new Error(`no mail to ${to}`);
  return mail;
}

/** The `code` query parameter of the first link in the mail's text (wire-protocol §12: `<callback>?code=<code>`). */
export function codeFromMail(mail: TestMail): string {
  const match = /[?&]code=([0-9a-z]{45})\b/i.exec(mail.text);
  if (!match) throw new Error(`no code link in mail "${mail.subject}"`);
  return match[1]!;
}
