/**
 * Delivery through the outbox against a real SMTP server on loopback: a
 * project's own server (`standard`) and the operator's (`smtpUrl`), an SMTP
 * server that is down then back, a service that stops before sending, a worker
 * that dies mid-send, giving up after the last attempt, and two instances
 * sharing one PostgreSQL schema.
 */
import { createServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomCrockford } from '../crypto/random.js';
import { createService } from '../service.js';
import { dbOf, openStorage } from '../storage/open-storage.js';
import { newEmail } from '../test-support/api.js';
import { postgresUp, postgresUrl } from '../test-support/postgres.js';
import { header, headerNames, type SmtpPeer, startSmtpPeer } from '../test-support/smtp-peer.js';
import { startTestService, type TestService } from '../testing/index.js';
import { claimDueMails, enqueueMail, listProjectMails } from './outbox-store.js';
import { leaseMs, maxAttempts, retryDelaysMs } from './outbox-worker.js';
import { outboxSealer } from './sealed-mail.js';

const hour = 60 * 60_000;

let peer: SmtpPeer;
let service: TestService;

beforeAll(async () => {
  peer = await startSmtpPeer({ users: { mailer: 'peer-password-1' } });
  service = await startTestService({ smtpUrl: peer.url, smtpFrom: 'Latchkey Tests <auth@tests.example>' });
});

afterAll(async () => {
  await service?.close();
  await peer?.close();
});

/** Queues a mail of the project as a route would (the transaction's commit wakes the worker). */
function queue(to: string, subject: string, projectId = service.projectId, target = service) {
  return enqueueMail(dbOf(target.storage), outboxSealer(target.secret), {
    projectId,
    kind: 'test',
    to,
    subject,
    html: `<p>Body of ${subject}</p>`,
    text: `Body of ${subject}`,
    now: target.clock.now(),
  });
}

async function row(id: string, projectId = service.projectId, target = service) {
  const rows = await listProjectMails(dbOf(target.storage), projectId, 200);
  const found = rows.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no outbox row ${id}`);
  return found;
}

function received(subject: string) {
  return peer.messages.filter((mail) => header(mail.raw, 'subject') === subject);
}

describe('delivery', () => {
  it('sends shared mail through the operator server, signed in, and drops the body once sent', async () => {
    const to = newEmail('shared');
    const queued = await queue(to, 'Shared delivery');
    await service.deliverMail();
    const [mail] = received('Shared delivery');
    expect(mail).toBeDefined();
    expect(mail!.to).toEqual([to]);
    expect(mail!.user).toBe('mailer');
    expect(header(mail!.raw, 'from')).toBe('Latchkey Tests <auth@tests.example>');
    expect(header(mail!.raw, 'to')).toBe(to);
    expect(mail!.raw).toContain('Body of Shared delivery');
    const after = await row(queued.id);
    expect(after).toMatchObject({
      status: 'sent',
      transport: 'smtp',
      attempts: 1,
      html: null,
      text_body: null,
      sealed_content: null,
    });
    expect(after.sent_at).toBeInstanceOf(Date);
  });

  it("sends a standard project's mail through its own server with its sender and sealed password", async () => {
    const own = await startSmtpPeer({ users: { 'own-user': 'own-password-1' } });
    try {
      const other = await service.createOtherProject({
        email_config: {
          type: 'standard',
          host: '127.0.0.1',
          port: own.port,
          username: 'own-user',
          password: 'own-password-1',
          sender_name: 'Acme Support',
          sender_email: 'support@acme.example',
        },
      });
      const to = newEmail('standard');
      await queue(to, 'Standard delivery', other.projectId);
      await service.deliverMail();
      const [mail] = await own.waitForMessages(1);
      expect(mail!.user).toBe('own-user');
      expect(mail!.from).toBe('support@acme.example');
      expect(mail!.to).toEqual([to]);
      expect(header(mail!.raw, 'from')).toBe('Acme Support <support@acme.example>');
      expect(header(mail!.raw, 'subject')).toBe('Standard delivery');
      expect(received('Standard delivery')).toHaveLength(0);
    } finally {
      await own.close();
    }
  });

  it('sends a queued mail promptly without being asked (the commit wakes the worker)', async () => {
    const before = peer.messages.length;
    await queue(newEmail('prompt'), 'Prompt delivery');
    await peer.waitForMessages(before + 1, 5_000);
    expect(received('Prompt delivery')).toHaveLength(1);
  });

  it('cannot be made to add headers through the subject, sender name or recipient name', async () => {
    const own = await startSmtpPeer();
    try {
      const other = await service.createOtherProject({
        email_config: {
          type: 'standard',
          host: '127.0.0.1',
          port: own.port,
          username: '',
          password: '',
          sender_name: 'Acme\r\nBcc: thief@evil.example',
          sender_email: 'support@acme.example',
        },
      });
      const to = newEmail('inject');
      await queue(to, 'Hello\r\nBcc: thief@evil.example\r\nX-Injected: yes', other.projectId);
      await service.deliverMail();
      const [mail] = await own.waitForMessages(1);
      expect(mail!.to).toEqual([to]);
      const names = headerNames(mail!.raw);
      expect(names).not.toContain('bcc');
      expect(names).not.toContain('x-injected');
      expect(names.filter((name) => name === 'subject')).toHaveLength(1);
      expect(names.filter((name) => name === 'from')).toHaveLength(1);
    } finally {
      await own.close();
    }
  });
});

describe('recipients', () => {
  it('never turns a stored recipient into several, and fails it for good instead', async () => {
    const before = peer.messages.length;
    const hostile = [
      'victim@example.com, thief@evil.example',
      'victim@example.com\r\nBcc: thief@evil.example',
      'Victim <thief@evil.example>',
      'group: thief@evil.example;',
    ];
    const queued = [];
    for (const to of hostile) queued.push(await queue(to, 'Hostile recipient'));
    await service.deliverMail();
    expect(received('Hostile recipient')).toHaveLength(0);
    expect(peer.messages.slice(before).flatMap((mail) => mail.to)).not.toContain('thief@evil.example');
    for (const mail of queued) {
      expect(await row(mail.id)).toMatchObject({
        status: 'failed',
        attempts: 1,
        last_error: 'the recipient is not one plain e-mail address',
      });
    }
  });
});

describe('faults', () => {
  it('keeps a mail while the SMTP server is down and delivers it once when it is back', async () => {
    await peer.stop();
    const to = newEmail('down');
    const queued = await queue(to, 'While down');
    await service.deliverMail();
    const failed = await row(queued.id);
    expect(failed).toMatchObject({ status: 'queued', attempts: 1 });
    expect(failed.last_error).toMatch(/ECONNREFUSED|connect/i);
    expect(failed.last_error).not.toContain('peer-password-1');
    expect(failed.sealed_content).not.toBeNull();
    expect(failed.next_attempt_at.getTime()).toBeGreaterThanOrEqual(service.clock.now() + retryDelaysMs[0]! - 5_000);

    await peer.start();
    await service.deliverMail(); // not due yet: the back-off holds it
    expect(received('While down')).toHaveLength(0);
    service.clock.advance(retryDelaysMs[0]! + 1_000);
    await service.deliverMail();
    expect(received('While down')).toHaveLength(1);
    expect(await row(queued.id)).toMatchObject({ status: 'sent', attempts: 2, last_error: null });
    service.clock.advance(hour);
    await service.deliverMail();
    expect(received('While down')).toHaveLength(1);
  });

  it('gives up after the last attempt and keeps the SMTP error', async () => {
    const other = await service.createOtherProject({
      email_config: {
        type: 'standard',
        host: '127.0.0.1',
        port: await closedPort(),
        username: 'nobody',
        password: 'never-in-errors',
        sender_name: 'Nobody',
        sender_email: 'nobody@acme.example',
      },
    });
    const queued = await queue(newEmail('doomed'), 'Never delivered', other.projectId);
    for (let attempt = 1; attempt <= maxAttempts; attempt += 1) {
      await service.deliverMail();
      expect((await row(queued.id, other.projectId)).attempts).toBe(attempt);
      service.clock.advance(hour);
    }
    const failed = await row(queued.id, other.projectId);
    expect(failed.status).toBe('failed');
    expect(failed.last_error).toMatch(/ECONNREFUSED|connect/i);
    expect(failed.last_error).not.toContain('never-in-errors');
    await service.deliverMail();
    expect((await row(queued.id, other.projectId)).attempts).toBe(maxAttempts);
  });

  it('spreads the attempts over about an hour', () => {
    expect(maxAttempts).toBe(6);
    const total = retryDelaysMs.reduce((sum, delay) => sum + delay, 0);
    expect(total).toBeGreaterThan(45 * 60_000);
    expect(total).toBeLessThan(75 * 60_000);
  });

  it('fails shared mail with a clear error when no SMTP server is configured outside dev mode', async () => {
    const storage = service.storage;
    const bare = createService({ storage, secret: randomCrockford(48), clock: service.clock, logger: false });
    await service.service.close(); // only the bare service's worker runs now
    try {
      const queued = await queue(newEmail('nowhere'), 'Nowhere to go');
      await bare.deliverMail();
      const after = await row(queued.id);
      expect(after).toMatchObject({ status: 'queued', attempts: 1 });
      expect(after.last_error).toMatch(/no SMTP server configured/);
    } finally {
      await bare.close();
    }
  });

  it('sends after a restart a mail queued while no worker ran (a service killed before sending)', async () => {
    // The test service's worker is closed (previous test): this mail is written and nothing sends it.
    const queued = await queue(newEmail('restart'), 'After restart');
    expect((await row(queued.id)).status).toBe('queued');
    const restarted = createService({
      storage: service.storage,
      secret: service.secret,
      clock: service.clock,
      logger: false,
      smtpUrl: peer.url,
    });
    try {
      await restarted.deliverMail();
      expect(received('After restart')).toHaveLength(1);
      expect((await row(queued.id)).status).toBe('sent');
    } finally {
      await restarted.close();
    }
  });

  it('sends a mail whose worker died mid-send once its lease runs out', async () => {
    const queued = await queue(newEmail('lease'), 'After a crash');
    // A worker claims it and dies before sending.
    const now = service.clock.now();
    const claimed = await claimDueMails(dbOf(service.storage), {
      now,
      leaseUntil: now + leaseMs,
      limit: 100,
      maxAttempts,
    });
    expect(claimed.map((mail) => mail.id)).toContain(queued.id);
    const restarted = createService({
      storage: service.storage,
      secret: service.secret,
      clock: service.clock,
      logger: false,
      smtpUrl: peer.url,
    });
    try {
      await restarted.deliverMail();
      expect(received('After a crash')).toHaveLength(0);
      expect((await row(queued.id)).status).toBe('sending');
      service.clock.advance(leaseMs + 1_000);
      await restarted.deliverMail();
      expect(received('After a crash')).toHaveLength(1);
      expect(await row(queued.id)).toMatchObject({ status: 'sent', attempts: 2 });
    } finally {
      await restarted.close();
    }
  });
});

describe.skipIf(!postgresUp)('two instances on one PostgreSQL schema', () => {
  it('deliver each of many mails exactly once', async () => {
    const first = await startTestService({ databaseUrl: postgresUrl, smtpUrl: peer.url });
    const storage = await openStorage({ databaseUrl: postgresUrl, schema: first.storage.schema });
    const second = createService({
      storage,
      secret: first.secret,
      clock: first.clock,
      logger: false,
      smtpUrl: peer.url,
    });
    try {
      const subjects = Array.from({ length: 40 }, (_, index) => `Shared work ${index}`);
      const before = peer.messages.length;
      await Promise.all(subjects.map((subject) => queue(newEmail('pair'), subject, first.projectId, first)));
      await Promise.all([first.deliverMail(), second.deliverMail(), first.deliverMail(), second.deliverMail()]);
      await peer.waitForMessages(before + subjects.length);
      for (const subject of subjects) expect(received(subject), subject).toHaveLength(1);
      const rows = await listProjectMails(dbOf(first.storage), first.projectId, 200);
      expect(rows.filter((mail) => mail.status === 'sent')).toHaveLength(subjects.length);
      expect(new Set(rows.map((mail) => mail.attempts))).toEqual(new Set([1]));
    } finally {
      await second.close();
      await storage.close();
      await first.close();
    }
  });
});

/** A loopback port nothing listens on (taken, then released). */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
