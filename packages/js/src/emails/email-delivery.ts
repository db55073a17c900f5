/**
 * E-mail delivery for administrators: a test mail through an SMTP
 * configuration before saving it (wire-protocol.md §14.7), and the delivery
 * status of the project's recent mails (queued, sent, failed with the SMTP
 * error; `GET /internal/emails`). `AdminApp` mounts it.
 */
import type { SendTestEmailResponseWire, SentEmailWire } from '@latchkey/protocol';
import type { AdminScope, AudienceScope } from '../internal/audience.js';
import type { Send } from '../internal/core.js';
import { readFields } from '../internal/decode/fields.js';
import type { Query } from '../query.js';

/**
 * A test mail: who gets it, and the SMTP server to send it through.
 *
 * @example
 * ```ts
 * const options: SendTestEmailOptions = {
 *   recipientEmail: 'me@example.com',
 *   emailConfig: { host: 'smtp.example.com', port: 587, username: 'mailer', password, senderEmail: 'auth@example.com', senderName: 'Shop' },
 * };
 * ```
 */
export interface SendTestEmailOptions {
  recipientEmail: string;
  emailConfig: {
    host: string;
    port: number;
    username: string;
    password: string;
    senderEmail: string;
    senderName: string;
  };
}

/**
 * What a test mail did: sent, or the SMTP server's error.
 *
 * @example
 * ```ts
 * const result: SendTestEmailResult = await adminApp.sendTestEmail(options);
 * if (!result.success) showError(result.errorMessage);
 * ```
 */
export type SendTestEmailResult = { success: true } | { success: false; errorMessage: string };

/**
 * Where a mail is: waiting (or waiting to retry), being sent, sent, or given up on.
 *
 * @example
 * ```ts
 * const done: SentEmailStatus[] = ['sent', 'failed'];
 * ```
 */
export type SentEmailStatus = SentEmailWire['status'];

/**
 * One mail of the project's outbox and how its delivery went.
 *
 * @example
 * ```ts
 * const failed = (await adminApp.listSentEmails()).filter((mail: SentEmail) => mail.status === 'failed');
 * ```
 */
export interface SentEmail {
  id: string;
  /** The template type or purpose the mail was sent for. */
  kind: string;
  recipient: string;
  subject: string;
  /** `queued` (waiting, or retrying after a failure), `sending`, `sent`, or `failed` (given up). */
  status: SentEmailStatus;
  /** Delivery attempts so far. */
  attempts: number;
  /** The SMTP error of the last failed attempt; `null` when none failed. */
  lastError: string | null;
  createdAt: Date;
  /** When it was delivered; `null` while it is not. */
  sentAt: Date | null;
}

/**
 * What an administrator does with e-mail delivery.
 *
 * @example
 * ```ts
 * const result = await adminApp.sendTestEmail(options);
 * const recent = await adminApp.listSentEmails({ limit: 20 });
 * ```
 */
export interface EmailDelivery {
  /** Sends a test mail through `emailConfig`; an SMTP failure is a result, not a thrown error. */
  sendTestEmail(options: SendTestEmailOptions): Promise<SendTestEmailResult>;
  /** The project's most recent mails (newest first, `limit` default 50, at most 200), without their bodies. */
  listSentEmails(options?: { limit?: number }): Promise<SentEmail[]>;
}

/** `POST /internal/send-test-email`. */
function sendTestEmail(send: Send, options: SendTestEmailOptions): Promise<SendTestEmailResult> {
  const { emailConfig: config } = options;
  const body = {
    recipient_email: options.recipientEmail,
    email_config: {
      host: config.host,
      port: config.port,
      username: config.username,
      password: config.password,
      sender_email: config.senderEmail,
      sender_name: config.senderName,
    },
  };
  return send({ method: 'POST', path: '/internal/send-test-email', body }, decodeTestEmailResult);
}

/** `GET /internal/emails`. */
function listSentEmails(send: Send, options: { limit?: number } = {}): Promise<SentEmail[]> {
  const query = { limit: options.limit?.toString() };
  return send({ method: 'GET', path: '/internal/emails', query }, decodeSentEmails);
}

/** Decodes the answer of a test mail: `error_message` is required when `success` is false. */
export function decodeTestEmailResult(body: unknown): SendTestEmailResult {
  return readFields<SendTestEmailResponseWire, SendTestEmailResult>(body, (answer) => {
    if (answer.boolean('success')) return { success: true };
    // Optional on the wire, required when the mail failed (the 2.7 SDK requires it too).
    const errorMessage = answer.value<string | undefined>('error_message', (v) => typeof v === 'string', 'a string');
    return { success: false, errorMessage: errorMessage ?? '' };
  });
}

/** Decodes the list of `GET /internal/emails`. */
export function decodeSentEmails(body: unknown): SentEmail[] {
  return readFields<{ items: SentEmailWire[] }, SentEmail[]>(body, (list) =>
    list.list('items', (mail) => {
      const sentAt = mail.value<number | null>('sent_at_millis', isMillisOrNull, 'a number or null');
      return {
        id: mail.string('id'),
        kind: mail.string('kind'),
        recipient: mail.string('recipient'),
        subject: mail.string('subject'),
        status: mail.value('status', isStatus, 'a delivery status'),
        attempts: mail.number('attempts'),
        lastError: mail.stringOrNull('last_error'),
        createdAt: new Date(mail.number('created_at_millis')),
        sentAt: sentAt === null ? null : new Date(sentAt),
      };
    }),
  );
}

/**
 * The project's most recent mails (newest first, `limit` default 50), as a
 * query of `AdminApp`; every write of the app re-reads it while subscribed.
 *
 * @example
 * ```ts
 * const recent = await adminApp.load(sentEmailsQuery({ limit: 20 }));
 * ```
 */
export function sentEmailsQuery(options: { limit?: number } = {}): Query<SentEmail[], AdminScope> {
  return { key: ['sentEmails', options.limit ?? null], load: ({ send }) => listSentEmails(send, options) };
}

/** Mounts the e-mail delivery module on an audience with admin access. */
export function emailDelivery(scope: AudienceScope): EmailDelivery {
  const { send } = scope;
  return {
    sendTestEmail: (options) => sendTestEmail(send, options),
    listSentEmails: (options) => listSentEmails(send, options),
  };
}

const statuses: readonly unknown[] = ['queued', 'sending', 'sent', 'failed'] satisfies SentEmailStatus[];

function isStatus(value: unknown): boolean {
  return statuses.includes(value);
}

function isMillisOrNull(value: unknown): boolean {
  return value === null || Number.isFinite(value);
}
