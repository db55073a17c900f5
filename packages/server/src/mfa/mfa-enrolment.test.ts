/**
 * Turning TOTP on and off over HTTP, on every backend: `totp_secret_base64`
 * of the user routes (validation, `requires_totp_mfa`, null deletes the
 * recovery codes), enrolment with confirm-before-enable, turning it off with a
 * proof, replacing the recovery codes, and the project policy `mfa_required`,
 * whose setup flow ends in a session.
 */
import { headers as h } from '@latchkey/protocol';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dbOf } from '../storage/open-storage.js';
import {
  authHeaders,
  call,
  expectKnownError,
  newEmail,
  refreshGrant,
  signUp,
  userHeaders,
} from '../test-support/api.js';
import { auditEvents } from '../test-support/audit.js';
import { describeEachBackend, testServiceForSuite } from '../test-support/backends.js';
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
const recoveryCodePattern = /^[0-9a-hjkmnp-tv-z]{4}(-[0-9a-hjkmnp-tv-z]{4}){3}$/;

describeEachBackend('turning TOTP on and off', ({ databaseUrl }) => {
  const service = testServiceForSuite({
    databaseUrl,
    projectConfig: { rate_limits: { code_checks_per_client: 10_000 } },
    frozenClock: true,
  });
  beforeEach(() => service.clock.set(Math.floor(service.clock.now() / step) * step + 2 * step + 1000));

  const now = () => service.clock.now();
  const recoveryCodeRows = async (userId: string) =>
    (
      await dbOf(service.storage)
        .selectFrom('mfa_recovery_codes')
        .select('code_hash')
        .where('user_id', '=', userId)
        .execute()
    ).length;

  /** A signed-in user who enrolled through the routes: their headers, secret (base32) and recovery codes. */
  async function enrolled() {
    const user = await signUp(service);
    const headers = userHeaders(service, user);
    const started = await call(service, 'POST', '/users/me/mfa/totp', { headers });
    expect(started.status, started.text).toBe(200);
    const secret = { base32: started.body.secret_base32 as string };
    const confirmed = await call(service, 'POST', '/users/me/mfa/totp/confirm', {
      headers,
      json: { totp: totpAt(secret, now()) },
    });
    expect(confirmed.status, confirmed.text).toBe(200);
    service.clock.advance(step);
    return { ...user, headers, secret, started: started.body, codes: confirmed.body.recovery_codes as string[] };
  }

  it('takes totp_secret_base64 of 10 to 64 standard-base64 bytes, and null turns TOTP off', async () => {
    const user = await signUp(service);
    const patch = (value: unknown) =>
      call(service, 'PATCH', '/users/me', { headers: userHeaders(service, user), json: { totp_secret_base64: value } });
    for (const bad of [
      'not base64!',
      Buffer.alloc(9).toString('base64'),
      Buffer.alloc(65).toString('base64'),
      'AAAA-_==',
      12,
    ]) {
      const refused = await patch(bad);
      expectKnownError(refused, 'SCHEMA_ERROR', 400);
      expect(refused.body.details.message).toContain('totp_secret_base64');
    }
    const secret = Buffer.alloc(10, 7).toString('base64');
    const on = await patch(secret);
    expect(on.status, on.text).toBe(200);
    expect(on.body.requires_totp_mfa).toBe(true);
    expect(JSON.stringify(on.body)).not.toContain(secret);
    expectKnownError(await passwordSignIn(service, user), 'MULTI_FACTOR_AUTHENTICATION_REQUIRED', 400);

    const off = await patch(null);
    expect(off.body.requires_totp_mfa).toBe(false);
    expect((await passwordSignIn(service, user)).body.user_id).toBe(user.user_id);
    expect((await auditEvents(service, { user_id: user.user_id, type: 'mfa.disabled' }))[0]?.data).toEqual({
      by: 'user',
    });
  });

  it('lets a client set or clear totp_secret_base64 only within 10 minutes of signing in', async () => {
    const who = await userWithTotp(service);
    const signedIn = async () => {
      const attempt = (await passwordSignIn(service, who)).body.details.attempt_code as string;
      const answer = await mfaSignIn(service, attempt, totpAt({ base64: who.secret }, now()));
      expect(answer.status, answer.text).toBe(200);
      return answer.body as { access_token: string; refresh_token: string };
    };
    const patch = (
      tokens: { access_token: string },
      value: string | null,
      accessType: 'client' | 'server' = 'client',
    ) =>
      call(service, 'PATCH', '/users/me', {
        headers: userHeaders(service, tokens, accessType),
        json: { totp_secret_base64: value },
      });
    const requiresTotp = async () =>
      (await call(service, 'GET', `/users/${who.userId}`, { headers: authHeaders(service, 'server') })).body
        .requires_totp_mfa;

    const old = await signedIn();
    service.clock.advance(10 * 60_000 + step);
    // A fresh access token of the same session does not make its sign-in recent.
    const refreshed = (await refreshGrant(service, old.refresh_token)).body as { access_token: string };
    for (const value of [null, newSecret()]) {
      const refused = await patch(refreshed, value);
      expectKnownError(refused, 'USER_AUTHENTICATION_REQUIRED', 401);
      expect(refused.body.error).toContain('Sign in again');
    }
    expect(await requiresTotp()).toBe(true);
    expect(await auditEvents(service, { user_id: who.userId, type: 'mfa.disabled' })).toHaveLength(0);
    // Fields other than the secret are still the client's to change.
    const named = await call(service, 'PATCH', '/users/me', {
      headers: userHeaders(service, refreshed),
      json: { display_name: 'Still me' },
    });
    expect(named.body.display_name).toBe('Still me');

    // Server access with the same old session is not limited.
    expect((await patch(refreshed, null, 'server')).body.requires_totp_mfa).toBe(false);
    expect((await patch(refreshed, who.secret, 'server')).body.requires_totp_mfa).toBe(true);

    // Signing in again opens the window.
    service.clock.advance(step);
    const fresh = await signedIn();
    service.clock.advance(9 * 60_000);
    const replaced = await patch(fresh, newSecret());
    expect(replaced.status, replaced.text).toBe(200);
    expect((await patch(fresh, null)).body.requires_totp_mfa).toBe(false);
    expect(await requiresTotp()).toBe(false);
  });

  it('enrols only once a code of the new secret is proven, and shows ten recovery codes', async () => {
    const user = await signUp(service);
    const headers = userHeaders(service, user);
    const started = await call(service, 'POST', '/users/me/mfa/totp', { headers });
    const uri = new URL(started.body.otpauth_uri);
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.searchParams.get('issuer')).toBe('Test project');
    expect(decodeURIComponent(uri.pathname)).toContain(user.email);
    expect(uri.searchParams.get('secret')).toBe(started.body.secret_base32);
    // Pending: the user is not asked for it yet.
    expect((await call(service, 'GET', '/users/me', { headers })).body.requires_totp_mfa).toBe(false);
    const secret = { base32: started.body.secret_base32 as string };
    const wrong = totpAt(secret, now() - 3 * step);
    expectKnownError(
      await call(service, 'POST', '/users/me/mfa/totp/confirm', { headers, json: { totp: wrong } }),
      'INVALID_TOTP_CODE',
      400,
    );
    const confirmed = await call(service, 'POST', '/users/me/mfa/totp/confirm', {
      headers,
      json: { totp: totpAt(secret, now()) },
    });
    expect(confirmed.body.recovery_codes).toHaveLength(10);
    for (const code of confirmed.body.recovery_codes) expect(code).toMatch(recoveryCodePattern);
    expect((await call(service, 'GET', '/users/me', { headers })).body.requires_totp_mfa).toBe(true);
    expect(await recoveryCodeRows(user.user_id)).toBe(10);
    const audit = await auditText(service);
    expect(audit).not.toContain(started.body.secret_base32);
    for (const code of confirmed.body.recovery_codes) expect(audit).not.toContain(code);
    expect(await auditEvents(service, { user_id: user.user_id, type: 'mfa.enabled' })).toHaveLength(1);
  });

  it('turns TOTP off only with a code or a recovery code, and deletes the recovery codes', async () => {
    const user = await enrolled();
    const off = (json: unknown) => call(service, 'DELETE', '/users/me/mfa/totp', { headers: user.headers, json });
    expectKnownError(await off({}), 'SCHEMA_ERROR', 400);
    expectKnownError(await off({ totp: totpAt(user.secret, now() - 3 * step) }), 'INVALID_TOTP_CODE', 400);
    expectKnownError(await off({ recovery_code: 'aaaa-bbbb-cccc-dddd' }), 'INVALID_TOTP_CODE', 400);
    expect((await call(service, 'GET', '/users/me', { headers: user.headers })).body.requires_totp_mfa).toBe(true);

    expect((await off({ recovery_code: user.codes[0] })).body).toEqual({ success: true });
    expect((await call(service, 'GET', '/users/me', { headers: user.headers })).body.requires_totp_mfa).toBe(false);
    expect(await recoveryCodeRows(user.user_id)).toBe(0);
    expect((await passwordSignIn(service, user)).status).toBe(200);
  });

  it('replaces every recovery code when asked with a code', async () => {
    const user = await enrolled();
    const replaced = await call(service, 'POST', '/users/me/mfa/recovery-codes', {
      headers: user.headers,
      json: { totp: totpAt(user.secret, now()) },
    });
    expect(replaced.body.recovery_codes).toHaveLength(10);
    expect(await recoveryCodeRows(user.user_id)).toBe(10);
    const attempt = async () => (await passwordSignIn(service, user)).body.details.attempt_code as string;
    expectKnownError(
      await mfaSignIn(service, await attempt(), { recovery_code: user.codes[1]! }),
      'INVALID_TOTP_CODE',
      400,
    );
    expect((await mfaSignIn(service, await attempt(), { recovery_code: replaced.body.recovery_codes[1] })).status).toBe(
      200,
    );
    expect(await auditEvents(service, { user_id: user.user_id, type: 'mfa.recovery_codes_regenerated' })).toHaveLength(
      1,
    );
  });

  it('lets server code set and clear a secret on POST and PATCH /users', async () => {
    const who = await userWithTotp(service);
    await call(service, 'POST', '/users/me/mfa/recovery-codes', {
      headers: userHeaders(
        service,
        (
          await call(service, 'POST', '/auth/sessions', {
            headers: authHeaders(service, 'server'),
            json: { user_id: who.userId },
          })
        ).body,
      ),
      json: { totp: totpAt({ base64: who.secret }, now()) },
    });
    expect(await recoveryCodeRows(who.userId)).toBe(10);
    const cleared = await call(service, 'PATCH', `/users/${who.userId}`, {
      headers: authHeaders(service, 'server'),
      json: { totp_secret_base64: null },
    });
    expect(cleared.body.requires_totp_mfa).toBe(false);
    expect(await recoveryCodeRows(who.userId)).toBe(0);
    const [event] = await auditEvents(service, { user_id: who.userId, type: 'mfa.disabled' });
    expect(event?.data).toEqual({ by: 'server' });
  });
});

describeEachBackend('a project that requires TOTP', ({ databaseUrl }) => {
  const service = testServiceForSuite({ databaseUrl, frozenClock: true });

  const now = () => service.clock.now();

  it('is an admin setting, off by default', async () => {
    const admin = authHeaders(service, 'admin');
    expect((await call(service, 'GET', '/projects/current', { headers: admin })).body.config.mfa_required).toBe(false);
    const on = await call(service, 'PATCH', '/projects/current', {
      headers: admin,
      json: { config: { mfa_required: true } },
    });
    expect(on.status, on.text).toBe(200);
    expect(on.body.config.mfa_required).toBe(true);
  });

  describe('with the policy on', () => {
    beforeAll(() => service.setProjectConfig({ mfa_required: true }));

    it('sends a user without TOTP through setup, then opens the session', async () => {
      const who = await userWithTotp(service, null);
      const refused = await passwordSignIn(service, who);
      expectKnownError(refused, 'MULTI_FACTOR_AUTHENTICATION_SETUP_REQUIRED', 400);
      const code = refused.body.details.attempt_code as string;
      expect(await sessionCount(service, who.userId)).toBe(0);
      // The code is for setting TOTP up, not for signing in with it.
      expectKnownError(await mfaSignIn(service, code, '123456'), 'VERIFICATION_CODE_NOT_FOUND', 404);

      const setup = await call(service, 'POST', '/auth/mfa/setup', { headers: authHeaders(service), json: { code } });
      expect(setup.status, setup.text).toBe(200);
      const secret = { base32: setup.body.secret_base32 as string };
      const confirm = (totp: string) =>
        call(service, 'POST', '/auth/mfa/setup/confirm', { headers: authHeaders(service), json: { code, totp } });
      expectKnownError(await confirm(totpAt(secret, now() - 3 * step)), 'INVALID_TOTP_CODE', 400);
      const done = await confirm(totpAt(secret, now()));
      expect(done.status, done.text).toBe(200);
      expect(done.body).toMatchObject({ user_id: who.userId, is_new_user: false });
      expect(done.body.recovery_codes).toHaveLength(10);
      const me = await call(service, 'GET', '/users/me', { headers: userHeaders(service, done.body) });
      expect(me.body.requires_totp_mfa).toBe(true);
      expectKnownError(await confirm(totpAt(secret, now())), 'VERIFICATION_CODE_ALREADY_USED', 409);

      // From now on the user signs in with the second step.
      expectKnownError(await passwordSignIn(service, who), 'MULTI_FACTOR_AUTHENTICATION_REQUIRED', 400);
    });

    it('holds a sign-up the same way, and records it as one once set up', async () => {
      const email = newEmail('policy');
      const refused = await call(service, 'POST', '/auth/password/sign-up', {
        headers: authHeaders(service),
        json: { email, password: 'correct-horse-1' },
      });
      expectKnownError(refused, 'MULTI_FACTOR_AUTHENTICATION_SETUP_REQUIRED', 400);
      const code = refused.body.details.attempt_code as string;
      const setup = await call(service, 'POST', '/auth/mfa/setup', { headers: authHeaders(service), json: { code } });
      const done = await call(service, 'POST', '/auth/mfa/setup/confirm', {
        headers: authHeaders(service),
        json: { code, totp: totpAt({ base32: setup.body.secret_base32 }, now()) },
      });
      expect(done.body.is_new_user).toBe(true);
      const [signUpEvent] = await auditEvents(service, { user_id: done.body.user_id, type: 'sign_up' });
      expect(signUpEvent?.data).toEqual({ method: 'password', second_factor: 'totp' });
      expect(done.headers.get(h.knownError)).toBeNull();
    });
  });
});
