/**
 * Reading the dev mailbox of `latchkey dev` the way a test needs it: its JSON
 * list (`GET <mailboxUrl>/api/messages?to=`, newest first), waiting for a mail
 * of a kind to arrive, and the link or code a mail carries.
 */
import { expect } from 'vitest';
import type { DevInfo } from './stack.js';

/** A mail as the mailbox lists it. */
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

/** Every mail to `to`, newest first. */
export async function mailsTo(dev: DevInfo, to: string): Promise<MailboxMessage[]> {
  const response = await fetch(`${dev.mailboxUrl}/api/messages?to=${encodeURIComponent(to)}`);
  if (!response.ok) throw new Error(`the mailbox answered ${response.status}`);
  return ((await response.json()) as { items: MailboxMessage[] }).items;
}

/** Waits for the `count`-th mail to `to` whose kind matches `kind`, and returns the newest such. */
export async function waitForMail(dev: DevInfo, to: string, kind: RegExp, count = 1): Promise<MailboxMessage> {
  let found: MailboxMessage[] = [];
  await expect
    .poll(
      async () => {
        found = (await mailsTo(dev, to)).filter((mail) => kind.test(mail.kind));
        return found.length;
      },
      { timeout: 30_000 },
    )
    .toBeGreaterThanOrEqual(count);
  return found[0]!;
}

/** The first link of a mail that carries a code (`<page>?code=<45 characters>`). */
export function linkOf(mail: MailboxMessage): string {
  const match = /https?:\/\/\S+?[?&]code=[0-9a-z]{45}/i.exec(mail.text);
  if (!match) throw new Error(`no code link in mail "${mail.subject}"`);
  return match[0];
}
