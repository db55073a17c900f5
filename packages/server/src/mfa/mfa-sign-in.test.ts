/**
 * The second step of a sign-in over HTTP, on every backend, under a stopped
 * clock: each first factor (password, e-mailed code, the OAuth code exchange)
 * of a user with TOTP opens no session and answers an attempt code, which
 * with a TOTP code computed from the secret opens one; server code's sessions
 * are not asked. Then every refusal: wrong, empty, malformed and replayed
 * codes, drift, an expired, used, exhausted or foreign attempt code, the
 * per-user limit across attempt codes, and recovery codes.
 */
import { headers as h } from '@latchkey/protocol';
import { beforeEach, expect, it } from 'vitest';
import { authHeaders, call, expectKnownError, userHeaders } from '../test-support/api.js';
import { auditEvents } from '../test-support/audit.js';
import { describeEachBackend, otherProjectForSuite, testServiceForSuite } from '../test-support/backends.js';
import { codeFromMail, lastMailTo } from '../test-support/mail.js';
import {
  auditText,
  mfaSignIn,
  newSecret,
  passwordSignIn,
  sessionCount,
  totpAt,
  userWithTotp,
} from '../test-support/mfa.js';

const step = 30_000;

describeEachBackend('signing in with a second factor', ({ databaseUrl }) => {
  const service = testServiceForSuite({
    databaseUrl,
    projectConfig: {
      magic_link_enabled: true,
      // The per-client limits have tests of their own; these tests check many codes from one address.
      rate_limits: { code_checks_per_client: 10_000, mails_per_client: 10_000 },
    },
    frozenClock: true,
  });
  const other = otherProjectForSuite(service);
  // Each test in a time step of its own, a second into it.
  beforeEach(() => service.clock.set(Math.floor(service.clock.now() / step) * step + 2 * step + 1000));

  const now = () => service.clock.now();
  const me = (tokens: { access_token: string }) =>
    call(service, 'GET', '/users/me', { headers: userHeaders(service, tokens) });

  /** A password sign-in of a user with TOTP: refused with an attempt code, and no new session. */
  async function attemptOf(who: { email: string; password: string; userId: string }): Promise<string> {
    const sessions = await sessionCount(service, who.userId);
    const answer = await passwordSignIn(service, who);
    expectKnownError(answer, 'MULTI_FACTOR_AUTHENTICATION_REQUIRED', 400);
    expect(answer.body.details.attempt_code).toMatch(/^[0-9a-z]{45}$/);
    expect(await sessionCount(service, who.userId)).toBe(sessions);
    return answer.body.details.attempt_code;
  }

  it('asks a password sign-in for a TOTP code, then opens a session that works', async () => {
    const who = await userWithTotp(service);
    expect(who.user.requires_totp_mfa).toBe(true);
    const attempt = await attemptOf(who);

    const signedIn = await mfaSignIn(service, attempt, totpAt({ base64: who.secret }, now()));
    expect(signedIn.status, signedIn.text).toBe(200);
    expect(signedIn.body).toMatchObject({ user_id: who.userId, is_new_user: false });
    expect((await me(signedIn.body)).body.id).toBe(who.userId);
    expect(await sessionCount(service, who.userId)).toBe(1);
    const [event] = await auditEvents(service, { user_id: who.userId, type: 'sign_in.succeeded' });
    expect(event?.data).toEqual({ method: 'password', second_factor: 'totp' });
  });

  it('asks an e-mailed code sign-in too, and keeps the code used', async () => {
    const who = await userWithTotp(service);
    // Codes sign in only by a verified address.
    await call(service, 'PATCH', `/users/${who.userId}`, {
      headers: authHeaders(service, 'server'),
      json: { primary_email_verified: true },
    });
    const sent = await call(service, 'POST', '/auth/otp/send-sign-in-code', {
      headers: authHeaders(service),
      json: { email: who.email, callback_url: 'http://localhost:3000/handler/magic-link-callback' },
    });
    expect(sent.status, sent.text).toBe(200);
    const code = codeFromMail(await lastMailTo(service, who.email));
    const answer = await call(service, 'POST', '/auth/otp/sign-in', { headers: authHeaders(service), json: { code } });
    expectKnownError(answer, 'MULTI_FACTOR_AUTHENTICATION_REQUIRED', 400);
    expect(await sessionCount(service, who.userId)).toBe(0);
    // The first factor's own effects committed: its code is used.
    const again = await call(service, 'POST', '/auth/otp/sign-in', { headers: authHeaders(service), json: { code } });
    expectKnownError(again, 'VERIFICATION_CODE_ALREADY_USED', 409);

    const signedIn = await mfaSignIn(service, answer.body.details.attempt_code, totpAt({ base64: who.secret }, now()));
    expect(signedIn.status, signedIn.text).toBe(200);
    expect((await me(signedIn.body)).body.id).toBe(who.userId);
    const [event] = await auditEvents(service, { user_id: who.userId, type: 'sign_in.succeeded' });
    expect(event?.data).toEqual({ method: 'otp', second_factor: 'totp' });
  });

  it('does not ask server code opening a session for the user', async () => {
    const who = await userWithTotp(service);
    const opened = await call(service, 'POST', '/auth/sessions', {
      headers: authHeaders(service, 'server'),
      json: { user_id: who.userId },
    });
    expect(opened.status, opened.text).toBe(200);
    expect((await me(opened.body)).body.id).toBe(who.userId);
  });

  it('accepts a code one step old or ahead, not two', async () => {
    const who = await userWithTotp(service);
    const secret = { base64: who.secret };
    expectKnownError(
      await mfaSignIn(service, await attemptOf(who), totpAt(secret, now() - 2 * step)),
      'INVALID_TOTP_CODE',
      400,
    );
    expectKnownError(
      await mfaSignIn(service, await attemptOf(who), totpAt(secret, now() + 2 * step)),
      'INVALID_TOTP_CODE',
      400,
    );
    expect((await mfaSignIn(service, await attemptOf(who), totpAt(secret, now() - step))).status).toBe(200);
    expect((await mfaSignIn(service, await attemptOf(who), totpAt(secret, now() + step))).status).toBe(200);
  });

  it('refuses a wrong, an empty and a malformed code, and opens no session', async () => {
    const who = await userWithTotp(service);
    const attempt = await attemptOf(who);
    const right = totpAt({ base64: who.secret }, now());
    const wrong = right === '000000' ? '111111' : '000000';
    for (const totp of [wrong, '', '12345', '1234567', 'abcdef']) {
      expectKnownError(await mfaSignIn(service, attempt, totp), 'INVALID_TOTP_CODE', 400);
    }
    expect(await sessionCount(service, who.userId)).toBe(0);
    const failures = await auditEvents(service, { user_id: who.userId, type: 'mfa.failed' });
    expect(failures).toHaveLength(5);
    expect(failures[0]?.data).toEqual({ factor: 'totp', during: 'sign_in' });
  });

  it('refuses a code already accepted for the user in its time step', async () => {
    const who = await userWithTotp(service);
    const code = totpAt({ base64: who.secret }, now());
    expect((await mfaSignIn(service, await attemptOf(who), code)).status).toBe(200);
    expectKnownError(await mfaSignIn(service, await attemptOf(who), code), 'INVALID_TOTP_CODE', 400);
    // The step before, still within the drift, is older than the one used: refused too.
    const before = totpAt({ base64: who.secret }, now() - step);
    expectKnownError(await mfaSignIn(service, await attemptOf(who), before), 'INVALID_TOTP_CODE', 400);
    service.clock.advance(step);
    expect((await mfaSignIn(service, await attemptOf(who), totpAt({ base64: who.secret }, now()))).status).toBe(200);
  });

  it('refuses an attempt code that expired, was used, or is of another project', async () => {
    const who = await userWithTotp(service);
    const secret = { base64: who.secret };
    const used = await attemptOf(who);
    expect((await mfaSignIn(service, used, totpAt(secret, now()))).status).toBe(200);
    service.clock.advance(step);
    expectKnownError(await mfaSignIn(service, used, totpAt(secret, now())), 'VERIFICATION_CODE_ALREADY_USED', 409);

    const late = await attemptOf(who);
    service.clock.advance(5 * 60_000 + 1);
    expectKnownError(await mfaSignIn(service, late, totpAt(secret, now())), 'VERIFICATION_CODE_EXPIRED', 400);

    const elsewhere = await attemptOf(who);
    const otherHeaders = {
      ...authHeaders(service),
      [h.projectId]: other.projectId,
      [h.publishableClientKey]: other.keys.publishableClientKey,
    };
    const foreign = await mfaSignIn(service, elsewhere, totpAt(secret, now()), otherHeaders);
    expectKnownError(foreign, 'VERIFICATION_CODE_NOT_FOUND', 404);
    expectKnownError(
      await mfaSignIn(service, 'x'.repeat(45), totpAt(secret, now())),
      'VERIFICATION_CODE_NOT_FOUND',
      404,
    );
    expectKnownError(
      await mfaSignIn(service, 'i'.repeat(45), totpAt(secret, now())),
      'VERIFICATION_CODE_NOT_FOUND',
      404,
    );
    expectKnownError(await mfaSignIn(service, 'i'.repeat(44), totpAt(secret, now())), 'SCHEMA_ERROR', 400);
    // Only the first attempt code's session was opened.
    expect(await sessionCount(service, who.userId)).toBe(1);
  });

  it('kills an attempt code at its fifth wrong code, and holds the user back across attempt codes', async () => {
    const who = await userWithTotp(service);
    const secret = { base64: who.secret };
    const attempt = await attemptOf(who);
    const wrong = totpAt(secret, now()) === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) expectKnownError(await mfaSignIn(service, attempt, wrong), 'INVALID_TOTP_CODE', 400);
    const sixth = await mfaSignIn(service, attempt, totpAt(secret, now()));
    expectKnownError(sixth, 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED', 400);

    // Five failures are the account's free ones: the next check, with a new attempt code, waits a second.
    const next = await attemptOf(who);
    const held = await mfaSignIn(service, next, totpAt(secret, now()));
    expect(held.headers.get(h.actualStatus)).toBe('429');
    expect(Number(held.headers.get('retry-after'))).toBeGreaterThan(0);
    service.clock.advance(1000);
    expect((await mfaSignIn(service, next, totpAt(secret, now()))).status).toBe(200);
  });

  it('takes a recovery code once, in place of a TOTP code', async () => {
    const who = await userWithTotp(service);
    const headers = userHeaders(
      service,
      (await mfaSignIn(service, await attemptOf(who), totpAt({ base64: who.secret }, now()))).body,
    );
    service.clock.advance(step);
    const regenerated = await call(service, 'POST', '/users/me/mfa/recovery-codes', {
      headers,
      json: { totp: totpAt({ base64: who.secret }, now()) },
    });
    expect(regenerated.status, regenerated.text).toBe(200);
    const [code] = regenerated.body.recovery_codes as string[];

    const signedIn = await mfaSignIn(service, await attemptOf(who), { recovery_code: code!.toUpperCase() });
    expect(signedIn.status, signedIn.text).toBe(200);
    expect((await me(signedIn.body)).body.id).toBe(who.userId);
    const [used] = await auditEvents(service, { user_id: who.userId, type: 'mfa.recovery_code_used' });
    expect(used?.data).toEqual({ remaining: 9 });

    expectKnownError(
      await mfaSignIn(service, await attemptOf(who), { recovery_code: code! }),
      'INVALID_TOTP_CODE',
      400,
    );
    expectKnownError(
      await mfaSignIn(service, await attemptOf(who), { recovery_code: 'not-a-code' }),
      'INVALID_TOTP_CODE',
      400,
    );
  });

  it('keeps secrets and codes out of answers and the audit log', async () => {
    const secret = newSecret();
    const who = await userWithTotp(service, secret);
    const attempt = await attemptOf(who);
    const code = totpAt({ base64: secret }, now());
    const signedIn = await mfaSignIn(service, attempt, code);
    const user = await call(service, 'GET', `/users/${who.userId}`, { headers: authHeaders(service, 'server') });
    const answers = JSON.stringify([who.user, signedIn.body, user.body, (await me(signedIn.body)).body]);
    const audit = await auditText(service);
    for (const text of [answers, audit]) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(Buffer.from(secret, 'base64').toString('hex'));
    }
    expect(audit).not.toContain(attempt);
    expect(audit).not.toContain(`"${code}"`);
    expect(user.body.requires_totp_mfa).toBe(true);
  });
});
