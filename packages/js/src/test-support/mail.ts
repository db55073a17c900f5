/**
 * The mails a test service sent, read from its dev mailbox
 * (`GET /mailbox/api/messages?to=`, in-process) as a person reads their inbox.
 * Mails are there when the request that queued them returns.
 */
import type { TestService } from './service.js';

/** A message of the dev mailbox. */
export interface MailboxMessage {
  id: string;
  to: string;
  subject: string;
  kind: string;
  status: string;
  html: string;
  text: string;
}

/** Every mail to `to`, newest first. */
export async function mailsTo(service: TestService, to: string): Promise<MailboxMessage[]> {
  const response = await service.fetch(`/mailbox/api/messages?to=${encodeURIComponent(to)}`);
  if (!response.ok) throw new Error(`the dev mailbox answered ${response.status}`);
  const { items } = (await response.json()) as { items: MailboxMessage[] };
  return items;
}

/** The newest mail to `to`; fails the test when there is none. */
export async function lastMailTo(service: TestService, to: string): Promise<MailboxMessage> {
  const [mail] = await mailsTo(service, to);
  if (!mail) throw new Error(`no mail to ${to}`);
  return mail;
}

/** The link in a mail's text that carries a code (wire-protocol §12: `<callback>?code=<code>`). */
export function linkFromMail(mail: MailboxMessage): URL {
  const match = /https?:\/\/\S+[?&]code=[0-9a-z]{45}\b\S*/i.exec(mail.text);
  if (!match) throw new Error(`no code link in mail "${mail.subject}"`);
  return new URL(match[0]);
}

/** The `code` of the mail's link. */
export function codeFromMail(mail: MailboxMessage): string {
  return linkFromMail(mail).searchParams.get('code') ?? '';
}
