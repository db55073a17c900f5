/**
 * Codes are not kept in clear in the outbox, on PGlite and PostgreSQL: a mail
 * waiting for its SMTP server holds its body sealed (one SELECT of
 * `email_outbox` resets no password), the body is gone once the mail is
 * delivered or given up on, delivery still brings a working code, and a
 * master-secret rotation re-seals what waits.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { rotateSecret } from '../operations.js';
import { createService } from '../service.js';
import { dbOf } from '../storage/open-storage.js';
import { authHeaders, call, newEmail, signUp } from '../test-support/api.js';
import { describeEachBackend } from '../test-support/backends.js';
import { header, type SmtpPeer, startSmtpPeer } from '../test-support/smtp-peer.js';
import { startTestService, type TestService } from '../testing/index.js';
import { maxAttempts, retryDelaysMs } from './outbox-worker.js';

const hour = 60 * 60_000;
const resetPage = 'http://localhost:3000/handler/password-reset';

/** The body of a raw message with quoted-printable soft breaks and escapes undone. */
function decodedBody(raw: string): string {
  return raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

describeEachBackend('the outbox', ({ databaseUrl }) => {
  let peer: SmtpPeer;
  let service: TestService;

  beforeAll(async () => {
    peer = await startSmtpPeer();
    service = await startTestService({ databaseUrl, smtpUrl: peer.url });
  });
  afterAll(async () => {
    await service?.close();
    await peer?.close();
  });

  /** Every column of the outbox rows to `to`, as one SELECT reads them. */
  const rawRows = (target: TestService, to: string) =>
    dbOf(target.storage).selectFrom('email_outbox').selectAll().where('recipient', '=', to).execute();

  const askReset = async (email: string) => {
    const sent = await call(service, 'POST', '/auth/password/send-reset-code', {
      headers: authHeaders(service),
      json: { email, callback_url: resetPage },
    });
    expect(sent.status, sent.text).toBe(200);
  };

  const codeDelivered = (email: string) => {
    const mails = peer.messages.filter((mail) => mail.to.includes(email));
    expect(mails).toHaveLength(1);
    const code = /[?&]code=([0-9a-z]{45})\b/i.exec(decodedBody(mails[0]!.raw))?.[1];
    expect(code).toBeDefined();
    return code!;
  };

  it('live codes in clear in the outbox: a queued reset holds no code or link in clear, and no body once delivered', async () => {
    const email = newEmail('sealed');
    const user = await signUp(service, email);
    await peer.stop();
    await askReset(email);
    await service.deliverMail();
    const [queued] = await rawRows(service, email);
    expect(queued).toMatchObject({ status: 'queued', attempts: 1, html: null, text_body: null });
    const queuedText = JSON.stringify(queued);
    expect(queuedText).not.toContain('code=');
    expect(queuedText).not.toContain(resetPage);
    expect(queued!.subject).toBe('Reset your Test project password');

    await peer.start();
    service.clock.advance(retryDelaysMs[0]! + 1_000);
    await service.deliverMail();
    const code = codeDelivered(email);
    expect(header(peer.messages.at(-1)!.raw, 'subject')).toBe('Reset your Test project password');
    expect(queuedText).not.toContain(code);
    const [sent] = await rawRows(service, email);
    expect(sent).toMatchObject({ status: 'sent', html: null, text_body: null, sealed_content: null });

    const reset = await call(service, 'POST', '/auth/password/reset', {
      headers: authHeaders(service),
      json: { code, password: 'a-brand-new-password-3' },
    });
    expect(reset.status, reset.text).toBe(200);
    const signIn = await call(service, 'POST', '/auth/password/sign-in', {
      headers: authHeaders(service),
      json: { email: user.email, password: 'a-brand-new-password-3' },
    });
    expect(signIn.status, signIn.text).toBe(200);
  });

  it('a mail given up on keeps its delivery status and loses its body', async () => {
    const email = newEmail('given-up');
    await signUp(service, email);
    await peer.stop();
    try {
      await askReset(email);
      for (let attempt = 0; attempt < maxAttempts; attempt++) {
        await service.deliverMail();
        service.clock.advance(hour);
      }
      const [failed] = await rawRows(service, email);
      expect(failed).toMatchObject({ status: 'failed', attempts: maxAttempts, sealed_content: null, html: null });
      const listed = await call(service, 'GET', '/internal/emails', { headers: authHeaders(service, 'admin') });
      expect(listed.body.items.find((item: { recipient: string }) => item.recipient === email)).toMatchObject({
        kind: 'password_reset',
        status: 'failed',
        subject: 'Reset your Test project password',
      });
    } finally {
      await peer.start();
    }
  });

  it('a rotation of the master secret re-seals waiting mail, which the new secret delivers', async () => {
    const email = newEmail('rotated');
    await signUp(service, email);
    await peer.stop();
    await askReset(email);
    await service.deliverMail();
    // The instance with the old secret stops; the database moves; one with only the new secret sends.
    await service.service.close();
    const newSecret = randomBytes(32).toString('base64url');
    await rotateSecret(service.storage, service.secret, newSecret);
    const next = createService({
      storage: service.storage,
      secret: newSecret,
      smtpUrl: peer.url,
      clock: service.clock,
      logger: false,
    });
    try {
      await peer.start();
      service.clock.advance(hour);
      await next.deliverMail();
      codeDelivered(email);
      expect((await rawRows(service, email))[0]).toMatchObject({ status: 'sent', sealed_content: null });
    } finally {
      await next.close();
    }
  });
});
