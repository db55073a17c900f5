/**
 * The dev mailbox: the list page, one message's page and the JSON list show
 * what was queued; HTML from a mail never runs script in the page; and none of
 * it exists outside dev mode.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbOf } from '../storage/open-storage.js';
import { newEmail } from '../test-support/api.js';
import { startSmtpPeer } from '../test-support/smtp-peer.js';
import { startTestService, type TestService } from '../testing/index.js';
import { enqueueMail } from './outbox-store.js';
import { outboxSealer } from './sealed-mail.js';

let service: TestService;

beforeAll(async () => {
  service = await startTestService();
});

afterAll(async () => {
  await service?.close();
});

const hostile = '<img src=x onerror=alert(1)>';

function queue(to: string, subject: string, html = `<p>Hello from ${subject}</p>`, now = service.clock.now()) {
  return enqueueMail(dbOf(service.storage), outboxSealer(service.secret), {
    projectId: service.projectId,
    kind: 'email_verification',
    to,
    subject,
    html,
    text: `Open https://app.example/verify?code=abc to verify (${subject})`,
    now,
  });
}

async function messages(query = '') {
  const response = await fetch(`${service.mailboxUrl}/api/messages${query}`);
  expect(response.status).toBe(200);
  return (await response.json()) as { items: Record<string, unknown>[] };
}

describe('the JSON list', () => {
  it('lists mails to an address, newest first, case-insensitively, with their bodies', async () => {
    const to = newEmail('Mixed.Case');
    const older = await queue(to, 'Older', undefined, service.clock.now() - 5_000);
    const newer = await queue(to, 'Newer');
    await queue(newEmail('someone-else'), 'Not for them');
    await service.deliverMail();
    const { items } = await messages(`?to=${encodeURIComponent(to.toUpperCase())}`);
    expect(items.map((item) => item.id)).toEqual([newer.id, older.id]);
    expect(items[0]).toEqual({
      id: newer.id,
      to,
      subject: 'Newer',
      kind: 'email_verification',
      status: 'sent',
      html: '<p>Hello from Newer</p>',
      text: 'Open https://app.example/verify?code=abc to verify (Newer)',
      created_at_millis: newer.created_at.getTime(),
    });
  });

  it('lists every mail without `to`', async () => {
    const mail = await queue(newEmail(), 'Anyone');
    const { items } = await messages();
    expect(items.map((item) => item.id)).toContain(mail.id);
    expect((await messages('?to=nobody%40nowhere.example')).items).toEqual([]);
  });
});

describe('the pages', () => {
  it('list the mails and open one with its HTML in a sandboxed frame and its text with links', async () => {
    const to = newEmail('page');
    const mail = await queue(to, 'Verify your e-mail');
    const list = await fetch(`${service.mailboxUrl}`);
    expect(list.status).toBe(200);
    expect(list.headers.get('content-security-policy')).toContain("default-src 'none'");
    const listHtml = await list.text();
    expect(listHtml).toContain(to);
    expect(listHtml).toContain(`href="/mailbox/${mail.id}"`);

    const page = await fetch(`${service.url}/mailbox/${mail.id}`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toMatch(/<iframe [^>]*sandbox="allow-popups allow-popups-to-escape-sandbox"/);
    expect(html).not.toMatch(/sandbox="[^"]*allow-scripts/);
    expect(html).toContain(
      'srcdoc="&lt;base target=&quot;_blank&quot;&gt;&lt;p&gt;Hello from Verify your e-mail&lt;/p&gt;"',
    );
    expect(html).toContain('<a href="https://app.example/verify?code=abc" target="_blank"');
  });

  it('show hostile subjects, addresses and text as text, and keep hostile HTML inside the sandbox', async () => {
    const mail = await queue(`"${hostile}"@example.com`, `Hi ${hostile}`, `<script>alert(1)</script>${hostile}`);
    for (const path of ['/mailbox', `/mailbox/${mail.id}`]) {
      const html = await (await fetch(`${service.url}${path}`)).text();
      expect(html, path).not.toContain('<img');
      expect(html, path).not.toContain('<script');
      expect(html, path).toContain('&lt;img src=x onerror=alert(1)&gt;');
    }
  });

  it('answer 404 for an unknown or malformed id', async () => {
    expect((await fetch(`${service.url}/mailbox/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    expect((await fetch(`${service.url}/mailbox/not-an-id`)).status).toBe(404);
  });
});

describe('outside dev mode', () => {
  it('does not exist', async () => {
    const peer = await startSmtpPeer();
    const production = await startTestService({ smtpUrl: peer.url });
    try {
      expect(production.mailboxUrl).toBeNull();
      for (const path of ['/mailbox', '/mailbox/api/messages', '/mailbox/00000000-0000-4000-8000-000000000000']) {
        expect((await fetch(`${production.url}${path}`)).status, path).toBe(404);
      }
    } finally {
      await production.close();
      await peer.close();
    }
  });
});
