/**
 * The mails a compat suite's service sent, read from its dev mailbox
 * (`GET /mailbox/api/messages?to=`) in-process, so the reads stay out of the
 * SDK's request trail. Mails are there when the request that queued them returns.
 */
import type { TestService } from '@latchkey/server/testing';

/** A message of the dev mailbox. */
export interface MailboxMessage {
  to: string;
  subject: string;
  kind: string;
  text: string;
  html: string;
}

/** Every mail to `to`, newest first. */
export async function mailsTo(svc: TestService, to: string): Promise<MailboxMessage[]> {
  const response = await svc.fetch(`/mailbox/api/messages?to=${encodeURIComponent(to)}`);
  if (!response.ok) throw new Error(`the dev mailbox answered ${response.status}`);
  return ((await response.json()) as { items: MailboxMessage[] }).items;
}

/**
 * The code of the newest mail to `to`: the `code` of its link
 * (`<callback>?code=<45 characters>`, wire-protocol §12); fails when there is none.
 */
export async function lastCodeTo(svc: TestService, to: string): Promise<string> {
  const [mail] = await mailsTo(svc, to);
  const code = mail && /[?&]code=([0-9a-z]{45})\b/i.exec(mail.text)?.[1];
  if (!code) throw new Error(`no mail with a code to ${to}`);
  return code;
}
