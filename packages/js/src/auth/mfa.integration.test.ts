/**
 * The second factor through `ClientApp` against the real service
 * (in-process), with TOTP codes computed from the secret as an authenticator
 * app computes them: enrolment by the user, a sign-in's second step with a
 * code or a recovery code, refused codes, turning TOTP off, new recovery
 * codes, a secret set by `update`, and the setup the project's TOTP
 * requirement asks for.
 */
import { describe, expect, it } from 'vitest';
import { createTestApp, newCredentials, type TestApp, useTestService } from '../test-support/service.js';
import { base32Bytes, totpAt } from '../test-support/totp.js';
import { multiFactorAttempt } from './mfa-auth.js';

const service = useTestService();

/** The code for `secret` now; the clock first moves to the next 30 s step, as a code is accepted once per step. */
function nextCode(secret: Uint8Array): string {
  service().clock.advance(30_000);
  return totpAt(secret, service().clock.now());
}

/** The attempt code of a sign-in that must throw for the second factor. */
async function attemptOf(signingIn: Promise<unknown>, setupRequired = false): Promise<string> {
  const attempt = multiFactorAttempt(
    await signingIn.then(
      () => 'signed in',
      (error: unknown) => error,
    ),
  );
  expect(attempt?.setupRequired).toBe(setupRequired);
  return attempt?.attemptCode ?? '';
}

/** A user who signed up and turned TOTP on themselves; the app stays signed in. */
async function enrolled(test: TestApp = createTestApp(service())) {
  const credentials = { ...newCredentials(), noRedirect: true };
  await test.app.signUpWithCredential(credentials);
  const user = await test.app.getUser({ or: 'throw' });
  expect(user.isMultiFactorRequired).toBe(false);
  const { secret, otpauthUri } = await user.enableTotp();
  expect(new URL(otpauthUri).searchParams.get('secret')).toBe(secret);
  const bytes = base32Bytes(secret);
  const { recoveryCodes } = await user.confirmTotp(nextCode(bytes));
  expect(recoveryCodes).toHaveLength(10);
  expect(test.app.getSnapshot('user')?.isMultiFactorRequired).toBe(true);
  return { ...test, credentials, secret: bytes, recoveryCodes };
}

describe('the second factor against the service', { timeout: 30_000 }, () => {
  it('enrols, then a password sign-in asks for the code; a wrong code is refused, the right one signs in', async () => {
    const { credentials, secret } = await enrolled();
    const { app, calls } = createTestApp(service());
    const attemptCode = await attemptOf(app.signInWithCredential(credentials));
    expect(attemptCode).toMatch(/^\S{20,}$/);
    expect(await app.getUser()).toBeNull();

    const wrong = String((Number(totpAt(secret, service().clock.now())) + 1) % 1_000_000).padStart(6, '0');
    await expect(app.signInWithMfa({ attemptCode, totp: wrong }, { noRedirect: true })).rejects.toMatchObject({
      code: 'INVALID_TOTP_CODE',
    });
    await expect(
      app.signInWithMfa({ attemptCode, totp: nextCode(secret) }, { noRedirect: true }),
    ).resolves.toMatchObject({ newUser: false });
    const user = await app.getUser({ or: 'throw' });
    expect(user.primaryEmail).toBe(credentials.email);
    expect(user.isMultiFactorRequired).toBe(true);
    expect(calls()).toContain('POST /auth/mfa/sign-in');
  });

  it('signs in with a recovery code once; the same code again is INVALID_TOTP_CODE', async () => {
    const { credentials, recoveryCodes } = await enrolled();
    const [recoveryCode = ''] = recoveryCodes;
    const { app } = createTestApp(service());
    const first = await attemptOf(app.signInWithCredential(credentials));
    await app.signInWithMfa({ attemptCode: first, recoveryCode }, { noRedirect: true });
    expect((await app.getUser({ or: 'throw' })).primaryEmail).toBe(credentials.email);

    const other = createTestApp(service()).app;
    const second = await attemptOf(other.signInWithCredential(credentials));
    await expect(
      other.signInWithMfa({ attemptCode: second, recoveryCode }, { noRedirect: true }),
    ).rejects.toMatchObject({
      code: 'INVALID_TOTP_CODE',
    });
    await expect(other.getUser()).resolves.toBeNull();
  });

  it('turns TOTP off with a code, after which a sign-in asks for none', async () => {
    const { app, credentials, secret } = await enrolled();
    const user = await app.getUser({ or: 'throw' });
    await expect(user.disableTotp({ totp: '000000' })).rejects.toMatchObject({ code: 'INVALID_TOTP_CODE' });
    await user.disableTotp({ totp: nextCode(secret) });
    expect(app.getSnapshot('user')?.isMultiFactorRequired).toBe(false);
    const again = createTestApp(service()).app;
    await again.signInWithCredential(credentials);
    expect((await again.getUser({ or: 'throw' })).isMultiFactorRequired).toBe(false);
  });

  it('turns TOTP off with a recovery code', async () => {
    const { app, recoveryCodes } = await enrolled();
    await (await app.getUser({ or: 'throw' })).disableTotp({ recoveryCode: recoveryCodes[3] ?? '' });
    expect(app.getSnapshot('user')?.isMultiFactorRequired).toBe(false);
  });

  it('new recovery codes replace the old ones', async () => {
    const { app, credentials, secret, recoveryCodes } = await enrolled();
    const renewed = await (await app.getUser({ or: 'throw' })).regenerateRecoveryCodes(nextCode(secret));
    expect(renewed).toHaveLength(10);
    expect(renewed).not.toContain(recoveryCodes[0]);
    const other = createTestApp(service()).app;
    const attemptCode = await attemptOf(other.signInWithCredential(credentials));
    await expect(
      other.signInWithMfa({ attemptCode, recoveryCode: recoveryCodes[0] ?? '' }, { noRedirect: true }),
    ).rejects.toMatchObject({ code: 'INVALID_TOTP_CODE' });
    await other.signInWithMfa({ attemptCode, recoveryCode: renewed[0] ?? '' }, { noRedirect: true });
    expect(await other.getUser()).not.toBeNull();
  });

  it('update sets the secret bytes (totp_secret_base64), and null removes them', async () => {
    const { app } = createTestApp(service());
    const credentials = { ...newCredentials(), noRedirect: true };
    await app.signUpWithCredential(credentials);
    const user = await app.getUser({ or: 'throw' });
    const secret = Uint8Array.from({ length: 20 }, (_, index) => (index * 37 + 11) % 256);
    await user.update({ totpMultiFactorSecret: secret });
    expect(app.getSnapshot('user')?.isMultiFactorRequired).toBe(true);

    const other = createTestApp(service()).app;
    const attemptCode = await attemptOf(other.signInWithCredential(credentials));
    await other.signInWithMfa({ attemptCode, totp: nextCode(secret) }, { noRedirect: true });
    expect((await other.getUser({ or: 'throw' })).primaryEmail).toBe(credentials.email);

    await user.update({ totpMultiFactorSecret: null });
    expect(app.getSnapshot('user')?.isMultiFactorRequired).toBe(false);
  });

  describe('under the project’s TOTP requirement', () => {
    it('a sign-in of a user without TOTP asks for the setup, which enrols and signs in', async () => {
      const credentials = { ...newCredentials(), noRedirect: true };
      await createTestApp(service()).app.signUpWithCredential(credentials);
      await service().setProjectConfig({ mfa_required: true });
      try {
        const { app } = createTestApp(service());
        const attemptCode = await attemptOf(app.signInWithCredential(credentials), true);
        const { secret, otpauthUri } = await app.startMfaSetup(attemptCode);
        expect(otpauthUri).toMatch(/^otpauth:\/\/totp\//);
        const bytes = base32Bytes(secret);
        await expect(app.confirmMfaSetup(attemptCode, '000000', { noRedirect: true })).rejects.toMatchObject({
          code: 'INVALID_TOTP_CODE',
        });
        const result = await app.confirmMfaSetup(attemptCode, nextCode(bytes), { noRedirect: true });
        expect(result.recoveryCodes).toHaveLength(10);
        const user = await app.getUser({ or: 'throw' });
        expect(user.id).toBe(result.userId);
        expect(user.isMultiFactorRequired).toBe(true);

        // Enrolled now: the next sign-in asks for the code, and a recovery code answers it.
        const other = createTestApp(service()).app;
        const next = await attemptOf(other.signInWithCredential(credentials));
        await other.signInWithMfa(
          { attemptCode: next, recoveryCode: result.recoveryCodes[0] ?? '' },
          { noRedirect: true },
        );
        expect((await other.getUser({ or: 'throw' })).id).toBe(result.userId);
      } finally {
        await service().setProjectConfig({ mfa_required: false });
      }
    });
  });
});
