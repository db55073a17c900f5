/**
 * The fault scenario through a real route: the SMTP server is down
 * when a user asks for a password reset; the request still succeeds, the mail
 * waits in the outbox, and once the server is back it arrives exactly once
 * with a code that resets the password.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { authHeaders, call, newEmail, signUp } from '../test-support/api.js';
import { header, type SmtpPeer, startSmtpPeer } from '../test-support/smtp-peer.js';
import { startTestService, type TestService } from '../testing/index.js';
import { retryDelaysMs } from './outbox-worker.js';

let peer: SmtpPeer;
let service: TestService;

beforeAll(async () => {
  peer = await startSmtpPeer({ users: { relay: 'relay-password-1' } });
  service = await startTestService({ smtpUrl: peer.url });
});

afterAll(async () => {
  await service?.close();
  await peer?.close();
});

/** The body of a raw message with quoted-printable soft breaks and escapes undone. */
function decodedBody(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

it('queues a reset while SMTP is down and delivers it once, with a working code, when SMTP is back', async () => {
  const email = newEmail('reset');
  await signUp(service, email);
  await peer.stop();

  const sent = await call(service, 'POST', '/auth/password/send-reset-code', {
    headers: authHeaders(service),
    json: { email, callback_url: 'http://localhost:3000/handler/password-reset' },
  });
  expect(sent.status, sent.text).toBe(200);
  await service.deliverMail();
  const status = await call(service, 'GET', '/internal/emails', { headers: authHeaders(service, 'admin') });
  const entry = status.body.items.find((item: { recipient: string }) => item.recipient === email);
  expect(entry).toMatchObject({ kind: 'password_reset', status: 'queued', attempts: 1 });
  expect(entry.last_error).toMatch(/ECONNREFUSED|connect/i);

  await peer.start();
  service.clock.advance(retryDelaysMs[0]! + 1_000);
  await service.deliverMail();
  service.clock.advance(60 * 60_000 - retryDelaysMs[0]! - 60_000); // later passes send nothing again
  await service.deliverMail();
  const mails = peer.messages.filter((mail) => mail.to.includes(email));
  expect(mails).toHaveLength(1);
  expect(mails[0]!.user).toBe('relay');
  expect(header(mails[0]!.raw, 'to')).toBe(email);

  const code = /[?&]code=([0-9a-z]{45})\b/i.exec(decodedBody(mails[0]!.raw))?.[1];
  expect(code).toBeDefined();
  const reset = await call(service, 'POST', '/auth/password/reset', {
    headers: authHeaders(service),
    json: { code, password: 'a-brand-new-password-2' },
  });
  expect(reset.status, reset.text).toBe(200);
  const signIn = await call(service, 'POST', '/auth/password/sign-in', {
    headers: authHeaders(service),
    json: { email, password: 'a-brand-new-password-2' },
  });
  expect(signIn.status, signIn.text).toBe(200);
});
