/**
 * `POST /internal/send-test-email` against a real SMTP peer and a closed port,
 * and `GET /internal/emails`, the delivery status admins see.
 */
import { createServer, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbOf } from '../storage/open-storage.js';
import { authHeaders, call, expectKnownError, newEmail } from '../test-support/api.js';
import { header, type SmtpPeer, startSmtpPeer } from '../test-support/smtp-peer.js';
import { startTestService, type TestService } from '../testing/index.js';
import { enqueueMail } from './outbox-store.js';
import { outboxSealer } from './sealed-mail.js';

let peer: SmtpPeer;
let service: TestService;

beforeAll(async () => {
  peer = await startSmtpPeer({ users: { tester: 'test-password-1' } });
  service = await startTestService();
});

afterAll(async () => {
  await service?.close();
  await peer?.close();
});

function config(overrides: Record<string, unknown> = {}) {
  return {
    host: '127.0.0.1',
    port: peer.port,
    username: 'tester',
    password: 'test-password-1',
    sender_email: 'admin@acme.example',
    sender_name: 'Acme Admin',
    ...overrides,
  };
}

function sendTestEmail(json: unknown, accessType: 'client' | 'server' | 'admin' = 'admin') {
  return call(service, 'POST', '/internal/send-test-email', { headers: authHeaders(service, accessType), json });
}

describe('POST /internal/send-test-email', () => {
  it('sends through the given server at once and answers success', async () => {
    const to = newEmail('test-mail');
    const answer = await sendTestEmail({ recipient_email: to, email_config: config() });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({ success: true });
    const mail = peer.messages.find((message) => message.to.includes(to));
    expect(mail?.user).toBe('tester');
    expect(header(mail!.raw, 'from')).toBe('Acme Admin <admin@acme.example>');
    expect(header(mail!.raw, 'subject')).toBe('Test e-mail from Test project');
  });

  it('answers "authentication failed" when the server refuses the login, without its words or the password', async () => {
    const answer = await sendTestEmail({
      recipient_email: newEmail(),
      email_config: config({ password: 'wrong-password-9' }),
    });
    expect(answer.status).toBe(200);
    expect(answer.body.success).toBe(false);
    expect(answer.body.error_message).toBe('authentication failed');
  });

  it('answers a closed port with "connection refused" within seconds', async () => {
    const closed = await startSmtpPeer();
    const port = closed.port;
    await closed.close();
    const started = performance.now();
    const answer = await sendTestEmail({ recipient_email: newEmail(), email_config: config({ port }) });
    expect(answer.body).toEqual({ success: false, error_message: 'connection refused' });
    expect(performance.now() - started).toBeLessThan(10_000);
  });

  it('answers a server that accepts but never speaks with "timed out" within seconds', async () => {
    const sockets = new Set<Socket>();
    const silent = createServer((socket) => sockets.add(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    try {
      const { port } = silent.address() as { port: number };
      const started = performance.now();
      const answer = await sendTestEmail({ recipient_email: newEmail(), email_config: config({ port }) });
      const elapsed = performance.now() - started;
      expect(answer.body).toEqual({ success: false, error_message: 'timed out' });
      expect(elapsed).toBeGreaterThan(4_000);
      expect(elapsed).toBeLessThan(9_000);
    } finally {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => silent.close(resolve));
    }
  });

  it('refuses junk bodies with SCHEMA_ERROR', async () => {
    for (const json of [
      {},
      { recipient_email: 'not an address', email_config: config() },
      { recipient_email: newEmail() },
      { recipient_email: newEmail(), email_config: config({ port: 0 }) },
      { recipient_email: newEmail(), email_config: config({ port: '25' }) },
      { recipient_email: newEmail(), email_config: config({ host: '' }) },
      { recipient_email: newEmail(), email_config: config({ sender_email: 'nobody' }) },
    ]) {
      expectKnownError(await sendTestEmail(json), 'SCHEMA_ERROR', 400);
    }
  });

  it('is for admins only', async () => {
    for (const accessType of ['client', 'server'] as const) {
      const answer = await sendTestEmail({ recipient_email: newEmail(), email_config: config() }, accessType);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('x-stack-actual-status')).toMatch(/^40[13]$/);
    }
  });
});

describe('GET /internal/emails', () => {
  it("lists the project's mails newest first with their status, without bodies", async () => {
    const db = dbOf(service.storage);
    const first = newEmail('status');
    const second = newEmail('status');
    const now = service.clock.now();
    const mail = { projectId: service.projectId, kind: 'test', html: '<p>secret code</p>', text: 'secret code' };
    const sealer = outboxSealer(service.secret);
    await enqueueMail(db, sealer, { ...mail, to: first, subject: 'First', now: now - 1000 });
    await enqueueMail(db, sealer, { ...mail, to: second, subject: 'Second', now });
    await service.deliverMail();
    const answer = await call(service, 'GET', '/internal/emails?limit=2', { headers: authHeaders(service, 'admin') });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.is_paginated).toBe(false);
    expect(answer.body.items.map((item: { recipient: string }) => item.recipient)).toEqual([second, first]);
    expect(answer.body.items[0]).toEqual({
      id: expect.any(String),
      kind: 'test',
      recipient: second,
      subject: 'Second',
      status: 'sent',
      attempts: 1,
      last_error: null,
      created_at_millis: now,
      sent_at_millis: expect.any(Number),
    });
    expect(answer.text).not.toContain('secret code');
  });

  it('refuses a bad limit and non-admins', async () => {
    for (const limit of ['0', '201', 'ten']) {
      const answer = await call(service, 'GET', `/internal/emails?limit=${limit}`, {
        headers: authHeaders(service, 'admin'),
      });
      expectKnownError(answer, 'SCHEMA_ERROR', 400);
    }
    for (const accessType of ['client', 'server'] as const) {
      const answer = await call(service, 'GET', '/internal/emails', { headers: authHeaders(service, accessType) });
      expect(answer.headers.get('x-stack-actual-status')).toMatch(/^40[13]$/);
      expect(answer.body.items).toBeUndefined();
    }
  });
});
