/**
 * The real thing for component tests: a `ClientApp` on a fresh Latchkey
 * service run in-process (`startTestService`, its `fetch` handed to the SDK,
 * no socket), with navigation recorded instead of performed. Test files that
 * use it run under `// @vitest-environment node` and import
 * `./dom-in-node.js` first.
 */
import { ClientApp } from '@latchkey/js';
import { startTestService, type TestService } from '@latchkey/server/testing';

export interface RealApp {
  app: ClientApp;
  service: TestService;
  /** Every URL the SDK navigated to, in order. */
  navigations: string[];
}

/** Starts a service (in-memory PGlite, or a fresh schema of `DATABASE_URL`). Close it with `service.close()`. */
export async function startRealService(): Promise<TestService> {
  return startTestService();
}

/** A new `ClientApp` (memory token store) on `service`. */
export function realApp(service: TestService): RealApp {
  const navigations: string[] = [];
  const app = new ClientApp({
    projectId: service.projectId,
    publishableClientKey: service.keys.publishableClientKey,
    baseUrl: service.url,
    tokenStore: 'memory',
    fetch: service.fetch,
    navigate: (url) => navigations.push(url),
  });
  return { app, service, navigations };
}

let count = 0;
/** An e-mail address no other test uses. */
export function uniqueEmail(name = 'user'): string {
  count += 1;
  return `${name}-${Date.now().toString(36)}-${count}@example.com`;
}

/** A mail as the dev mailbox's JSON lists it. */
export interface MailboxMessage {
  to: string;
  subject: string;
  kind: string;
  text: string;
  html: string;
}

/** The mails to `to` in the service's dev mailbox, newest first. */
export async function mailsTo(service: TestService, to: string): Promise<MailboxMessage[]> {
  const response = await service.fetch(`${service.mailboxUrl}/api/messages?to=${encodeURIComponent(to)}`);
  return ((await response.json()) as { items: MailboxMessage[] }).items;
}

/** The newest mail to `to` in the service's dev mailbox; fails when there is none. */
export async function lastMailTo(service: TestService, to: string): Promise<MailboxMessage> {
  const mail = (await mailsTo(service, to))[0];
  if (!mail) throw new Error(`no mail to ${to}`);
  return mail;
}

/** The `code` of the first link in a mail (`<page>?code=<45 characters>`). */
export function linkCodeOf(mail: MailboxMessage): string {
  const match = /[?&]code=([0-9a-z]{45})\b/i.exec(mail.text);
  if (!match) throw new Error(`no code link in mail "${mail.subject}"`);
  return match[1]!;
}
