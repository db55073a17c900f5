/**
 * The dev mailbox, served only when the service runs in dev mode
 * (`ServiceOptions.devMailbox`): `GET /mailbox` (list page), `GET /mailbox/<id>`
 * (one message) and `GET /mailbox/api/messages?to=<address>` (JSON, newest
 * first, read by end-to-end tests to pick up codes). Not API routes: they sit
 * outside `/api/v1`, need no keys, and exist nowhere but on a developer's machine.
 *
 * The mailbox is the inbox of dev mode: a mail "delivered" to it keeps its
 * body, sealed like every outbox body (`sealed-mail.ts`) and opened here to be
 * shown, until housekeeping drops it a week on (every link in it is dead by
 * then). Mails delivered over SMTP show their status only.
 */
import type { Hono } from 'hono';
import type { Sealer } from '../crypto/encryption.js';
import type { AppEnv } from '../http/env.js';
import type { Db } from '../storage/db.js';
import type { OutboxRow } from '../storage/schema.js';
import { mailboxListPage, mailboxMessagePage, mailboxPageHeaders } from './mailbox-page.js';
import { findMail, listMailboxMails } from './outbox-store.js';
import { openContent } from './sealed-mail.js';

/** Messages a mailbox answer holds at most. */
const mailboxLimit = 200;

/** A message as `GET /mailbox/api/messages` answers it. */
export interface MailboxMessage {
  id: string;
  to: string;
  subject: string;
  kind: string;
  status: string;
  html: string;
  text: string;
  created_at_millis: number;
}

/** The row with its sealed content opened in place (no body when it is gone or does not open). */
function opened(sealer: Sealer, row: OutboxRow): OutboxRow {
  let content: ReturnType<typeof openContent> = null;
  try {
    content = openContent(sealer, row);
  } catch {
    // Sealed under a secret this instance does not hold: shown without a body.
  }
  return {
    ...row,
    subject: content?.subject ?? row.subject,
    html: content?.html ?? null,
    text_body: content?.text ?? null,
    sealed_content: null,
  };
}

function messageOf(row: OutboxRow): MailboxMessage {
  return {
    id: row.id,
    to: row.recipient,
    subject: row.subject,
    kind: row.kind,
    status: row.status,
    html: row.html ?? '',
    text: row.text_body ?? '',
    created_at_millis: row.created_at.getTime(),
  };
}

const notFound = () =>
  new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });

/**
 * Adds the dev mailbox's paths to the service's app.
 *
 * @example
 * if (options.devMailbox) mountMailbox(app, deps);
 */
export function mountMailbox(app: Hono<AppEnv>, deps: { db: Db; mailSealer: Sealer }): void {
  app.get('/mailbox/api/messages', async (c) => {
    const to = c.req.query('to')?.trim();
    const rows = await listMailboxMails(deps.db, { ...(to ? { to } : {}), limit: mailboxLimit });
    return Response.json(
      { items: rows.map((row) => messageOf(opened(deps.mailSealer, row))) },
      { headers: { 'cache-control': 'no-store', 'x-content-type-options': 'nosniff' } },
    );
  });
  app.get('/mailbox', async () => {
    const rows = await listMailboxMails(deps.db, { limit: mailboxLimit });
    return new Response(mailboxListPage(rows.map((row) => opened(deps.mailSealer, row))), {
      headers: mailboxPageHeaders,
    });
  });
  app.get('/mailbox/:id', async (c) => {
    const row = await findMail(deps.db, c.req.param('id'));
    return row
      ? new Response(mailboxMessagePage(opened(deps.mailSealer, row)), { headers: mailboxPageHeaders })
      : notFound();
  });
}
