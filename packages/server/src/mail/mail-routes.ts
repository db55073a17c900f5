/**
 * The outbox as admins see it and the test e-mail (issue 8): `POST
 * /internal/send-test-email` (wire-protocol §14.7) tries an SMTP config at
 * once, bypassing the outbox, and answers the server's message on failure;
 * `GET /internal/emails` shows the delivery status of the project's mail.
 */
import { z } from 'zod';
import { defineRoute, type Route } from '../http/route.js';
import type { OutboxRow } from '../storage/schema.js';
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
    'Sends a test e-mail through the given SMTP config at once (not through the outbox); a failure answers the server’s message.',
  access: 'admin',
  body: testEmailBody,
  answer: testEmailAnswer,
  errors: [],
  handler: async ({ auth, body }) => {
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
      { pooled: false },
    );
    const project = auth.project.displayName;
    try {
      await transport.sendMail({
        from: { name: config.sender_name, address: config.sender_email },
        to: { name: '', address: body.recipient_email },
        subject: `Test e-mail from ${project}`,
        text: `This is a test e-mail from ${project}. Its SMTP settings work.`,
        html: `<p>This is a test e-mail from <strong>${escapeHtml(project)}</strong>. Its SMTP settings work.</p>`,
      });
      return { success: true as const };
    } catch (error) {
      return { success: false as const, error_message: deliveryError(error, [config.password]) };
    } finally {
      transport.close();
    }
  },
});

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
