/**
 * The outbox as admins see it and the test e-mail: `POST
 * /internal/send-test-email` (wire-protocol §14.7) tries an SMTP config at
 * once, bypassing the outbox, through the outbound guard, and answers what
 * went wrong as a category (never the peer's own words: the route must not
 * turn into a way to read banners of the service's network); `GET
 * /internal/emails` shows the delivery status of the project's mail.
 */
import { z } from 'zod';
import { requestContext } from '../events/recorder.js';
import { defineRoute, type Route } from '../http/route.js';
import { isAddressNotAllowed } from '../net/outbound-guard.js';
import type { OutboxRow } from '../storage/schema.js';
import { recordTestEmail } from './mail-actions.js';
import { escapeHtml } from './mailbox-page.js';
import { listProjectMails } from './outbox-store.js';
import { deliveryError, smtpTransport, testEmailTimeouts } from './transports.js';

const testEmailBody = z.object({
  recipient_email: z.email().max(320),
  email_config: z.object({
    host: z.string().min(1).max(1024),
    port: z.number().int().min(1).max(65_535),
    username: z.string().max(1024),
    password: z.string().max(4096),
    sender_email: z.email().max(320),
    sender_name: z.string().max(256),
  }),
});

const testEmailAnswer = z.union([
  z.strictObject({ success: z.literal(true) }),
  z.strictObject({ success: z.literal(false), error_message: z.string() }),
]);

const sendTestEmail = defineRoute({
  method: 'POST',
  path: '/internal/send-test-email',
  tag: 'emails',
  summary:
    'Sends a test e-mail through the given SMTP config at once (not through the outbox); a failure answers what went wrong as a category (connection refused, timed out, TLS failure, authentication failed...).',
  access: 'admin',
  body: testEmailBody,
  answer: testEmailAnswer,
  errors: [],
  handler: async (input) => {
    const { auth, body, deps } = input;
    const config = body.email_config;
    const transport = await smtpTransport(
      {
        host: config.host,
        port: config.port,
        username: config.username,
        password: config.password,
        senderName: config.sender_name,
        senderEmail: config.sender_email,
      },
      testEmailTimeouts,
      { pooled: false, outbound: deps.outbound },
    );
    const project = auth.project.displayName;
    const recordAttempt = (failure: string | null) =>
      recordTestEmail(requestContext(input), { host: config.host, port: config.port, failure });
    try {
      await transport.sendMail({
        from: { name: config.sender_name, address: config.sender_email },
        to: { name: '', address: body.recipient_email },
        subject: `Test e-mail from ${project}`,
        text: `This is a test e-mail from ${project}. Its SMTP settings work.`,
        html: `<p>This is a test e-mail from <strong>${escapeHtml(project)}</strong>. Its SMTP settings work.</p>`,
      });
      await recordAttempt(null);
      return { success: true as const };
    } catch (error) {
      const failure = testEmailFailure(error);
      deps.logger?.info(
        {
          projectId: auth.project.id,
          host: config.host,
          port: config.port,
          detail: deliveryError(error, [config.password]),
        },
        'test e-mail failed',
      );
      await recordAttempt(failure);
      return { success: false as const, error_message: failure };
    } finally {
      transport.close();
    }
  },
});

/**
 * What went wrong with a test e-mail, as a category: enough to fix the
 * settings, nothing of what the peer said (its banner or replies).
 */
function testEmailFailure(error: unknown): string {
  if (isAddressNotAllowed(error)) return 'address not allowed';
  const codes = new Set<string>();
  for (let cause = error, depth = 0; cause && depth < 4; depth++) {
    const { code, errno } = cause as { code?: unknown; errno?: unknown };
    if (typeof code === 'string') codes.add(code);
    if (typeof errno === 'string') codes.add(errno);
    // nodemailer files socket errors under its own codes; the system's stays in the message (`connect ECONNREFUSED ...`).
    for (const name of String((cause as Error).message ?? '').match(/\bE[A-Z]{4,}\b/g) ?? []) codes.add(name);
    cause = (cause as { cause?: unknown }).cause;
  }
  const has = (...names: string[]) => names.some((name) => codes.has(name));
  if (has('ECONNREFUSED')) return 'connection refused';
  if (has('ENOTFOUND', 'EAI_AGAIN', 'EDNS')) return 'host not found';
  if (has('ETIMEDOUT', 'ETIME')) return 'timed out';
  if (has('ETLS') || /\b(TLS|SSL)\b/i.test(String((error as Error)?.message))) return 'TLS failure';
  if (has('EAUTH', 'ENOAUTH')) return 'authentication failed';
  if (has('EENVELOPE')) return 'recipient or sender refused';
  if (has('EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'EPIPE', 'ECONNECTION', 'ESOCKET', 'EPROTOCOL'))
    return 'connection failed';
  return 'delivery failed';
}

const outboxEntry = z.strictObject({
  id: z.string(),
  kind: z.string(),
  recipient: z.string(),
  subject: z.string(),
  status: z.enum(['queued', 'sending', 'sent', 'failed']),
  attempts: z.number().int(),
  last_error: z.string().nullable(),
  created_at_millis: z.number(),
  sent_at_millis: z.number().nullable(),
});

function outboxEntryView(row: OutboxRow): z.input<typeof outboxEntry> {
  return {
    id: row.id,
    kind: row.kind,
    recipient: row.recipient,
    subject: row.subject,
    status: row.status,
    attempts: row.attempts,
    last_error: row.last_error,
    created_at_millis: row.created_at.getTime(),
    sent_at_millis: row.sent_at?.getTime() ?? null,
  };
}

const listEmails = defineRoute({
  method: 'GET',
  path: '/internal/emails',
  tag: 'emails',
  summary:
    "The project's newest outbox mails, newest first, without bodies: status (queued, sending, sent, failed), attempts and the last SMTP error.",
  access: 'admin',
  query: z.object({ limit: z.coerce.number().int().min(1).max(200).default(50) }),
  answer: z.strictObject({ items: z.array(outboxEntry), is_paginated: z.literal(false) }),
  errors: [],
  handler: async ({ auth, query, deps }) => ({
    items: (await listProjectMails(deps.db, auth.project.id, query.limit)).map(outboxEntryView),
    is_paginated: false as const,
  }),
});

export const mailRoutes: Route[] = [sendTestEmail, listEmails];
