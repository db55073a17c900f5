/**
 * The second factor through `ClientApp` over recorded answers: what each
 * method sends, what it answers, the session the second step stores, and
 * the errors a page shows (the attempt code of a sign-in that asks for the
 * second step, a refused code). `mfa.integration.test.ts` runs the same
 * flows against the service.
 */
import { KnownError } from '@latchkey/protocol';
import { describe, expect, it } from 'vitest';
import { answeringApp, signedInTokens } from '../test-support/answering-app.js';
import { jsonAnswer, knownErrorAnswer, recordedAnswers, withField } from '../test-support/answers.js';
import { multiFactorAttempt } from './mfa-auth.js';

const { signUp, currentUser, totpEnrolment, recoveryCodes } = recordedAnswers;

const mfaRequired = new KnownError('MULTI_FACTOR_AUTHENTICATION_REQUIRED', { attempt_code: 'attempt-totp' });
const setupRequired = new KnownError('MULTI_FACTOR_AUTHENTICATION_SETUP_REQUIRED', { attempt_code: 'attempt-setup' });

const immediateTimers = {
  setTimeout: (run: () => void) => {
    run();
    return 0 as unknown as ReturnType<typeof setTimeout>;
  },
  clearTimeout: () => {},
};

describe('a sign-in that asks for the second factor', () => {
  it('throws MULTI_FACTOR_AUTHENTICATION_REQUIRED with its attempt code, which multiFactorAttempt reads', async () => {
    const { app } = answeringApp({ 'POST /auth/password/sign-in': knownErrorAnswer(mfaRequired) });
    const error = await app
      .signInWithCredential({ email: 'a@example.com', password: 'pw', noRedirect: true })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      code: 'MULTI_FACTOR_AUTHENTICATION_REQUIRED',
      status: 400,
      details: { attempt_code: 'attempt-totp' },
    });
    expect(multiFactorAttempt(error)).toEqual({ attemptCode: 'attempt-totp', setupRequired: false });
  });

  it('throws MULTI_FACTOR_AUTHENTICATION_SETUP_REQUIRED under the project’s TOTP requirement', async () => {
    const { app } = answeringApp({ 'POST /auth/password/sign-in': knownErrorAnswer(setupRequired) });
    const error = await app
      .signInWithCredential({ email: 'a@example.com', password: 'pw', noRedirect: true })
      .catch((caught: unknown) => caught);
    expect(multiFactorAttempt(error)).toEqual({ attemptCode: 'attempt-setup', setupRequired: true });
  });

  it('multiFactorAttempt is null for anything else', () => {
    expect(multiFactorAttempt(new KnownError('EMAIL_PASSWORD_MISMATCH'))).toBeNull();
    expect(multiFactorAttempt(new Error('MULTI_FACTOR_AUTHENTICATION_REQUIRED'))).toBeNull();
    expect(multiFactorAttempt(undefined)).toBeNull();
  });
});

describe('signInWithMfa', () => {
  const answers = { 'POST /auth/mfa/sign-in': jsonAnswer(signUp), 'GET /users/me': jsonAnswer(currentUser) };

  it('sends the attempt code and a TOTP code, stores the session and goes to the after-sign-in page', async () => {
    const { app, requests, calls, navigations } = answeringApp(answers, {
      timers: immediateTimers,
      urls: { afterSignIn: '/dashboard' },
    });
    await expect(app.signInWithMfa({ attemptCode: 'attempt-totp', totp: '123456' })).resolves.toEqual({
      userId: signUp.user_id,
      newUser: false,
    });
    expect(calls()).toEqual(['POST /auth/mfa/sign-in']);
    expect(requests[0]?.body).toEqual({ code: 'attempt-totp', type: 'totp', totp: '123456' });
    expect(requests[0]?.headers['x-stack-access-type']).toBe('client');
    expect(navigations).toEqual(['/dashboard']);
    expect((await app.getUser({ or: 'throw' })).id).toBe(currentUser.id);
    expect(requests.at(-1)?.headers['x-stack-access-token']).toBe(signUp.access_token);
  });

  it('sends a recovery code as type recovery_code, and stays on the page with noRedirect', async () => {
    const { app, requests, navigations } = answeringApp(answers);
    await app.signInWithMfa({ attemptCode: 'attempt-totp', recoveryCode: 'a7k2-9mqx-4tz8-p3wd' }, { noRedirect: true });
    expect(requests[0]?.body).toEqual({
      code: 'attempt-totp',
      type: 'recovery_code',
      recovery_code: 'a7k2-9mqx-4tz8-p3wd',
    });
    expect(navigations).toEqual([]);
  });

  it('throws a wrong code as INVALID_TOTP_CODE, and a dead attempt code as its VERIFICATION_CODE_ error', async () => {
    const { app } = answeringApp({
      'POST /auth/mfa/sign-in': [knownErrorAnswer('INVALID_TOTP_CODE'), knownErrorAnswer('VERIFICATION_CODE_EXPIRED')],
    });
    const attempt = { attemptCode: 'attempt-totp', totp: '000000' };
    await expect(app.signInWithMfa(attempt, { noRedirect: true })).rejects.toMatchObject({ code: 'INVALID_TOTP_CODE' });
    await expect(app.signInWithMfa(attempt, { noRedirect: true })).rejects.toMatchObject({
      code: 'VERIFICATION_CODE_EXPIRED',
    });
  });
});

describe('setup under the project’s TOTP requirement', () => {
  it('startMfaSetup answers the new secret for the attempt code', async () => {
    const { app, requests } = answeringApp({ 'POST /auth/mfa/setup': jsonAnswer(totpEnrolment) });
    await expect(app.startMfaSetup('attempt-setup')).resolves.toEqual({
      secret: totpEnrolment.secret_base32,
      otpauthUri: totpEnrolment.otpauth_uri,
    });
    expect(requests[0]?.body).toEqual({ code: 'attempt-setup' });
  });

  it('confirmMfaSetup signs in and answers the recovery codes', async () => {
    const { app, requests } = answeringApp({
      'POST /auth/mfa/setup/confirm': jsonAnswer({ ...signUp, is_new_user: true, ...recoveryCodes }),
      'GET /users/me': jsonAnswer(currentUser),
    });
    await expect(app.confirmMfaSetup('attempt-setup', '654321', { noRedirect: true })).resolves.toEqual({
      userId: signUp.user_id,
      newUser: true,
      recoveryCodes: recoveryCodes.recovery_codes,
      redirect: expect.any(Function),
    });
    expect(requests[0]?.body).toEqual({ code: 'attempt-setup', totp: '654321' });
    expect((await app.getUser({ or: 'throw' })).id).toBe(currentUser.id);
  });

  it('confirmMfaSetup refuses an answer without recovery codes, storing no session', async () => {
    const { app, calls } = answeringApp({ 'POST /auth/mfa/setup/confirm': jsonAnswer(signUp) });
    await expect(app.confirmMfaSetup('attempt-setup', '654321', { noRedirect: true })).rejects.toThrow(
      'recovery_codes is missing',
    );
    expect(calls()).toEqual(['POST /auth/mfa/setup/confirm']);
  });
});

describe('the signed-in user’s TOTP', () => {
  const withTotp = withField(currentUser, 'requires_totp_mfa', true);

  function signedIn(answers: Parameters<typeof answeringApp>[0]) {
    return answeringApp(answers, { tokenStore: { ...signedInTokens } });
  }

  it('isMultiFactorRequired reads requires_totp_mfa', async () => {
    const { app } = signedIn({ 'GET /users/me': [jsonAnswer(currentUser)] });
    expect((await app.getUser({ or: 'throw' })).isMultiFactorRequired).toBe(false);
    const other = signedIn({ 'GET /users/me': jsonAnswer(withTotp) });
    expect((await other.app.getUser({ or: 'throw' })).isMultiFactorRequired).toBe(true);
  });

  it('enableTotp answers a pending secret; confirmTotp turns it on, answers the recovery codes and re-reads the user', async () => {
    const { app, requests, calls } = signedIn({
      'GET /users/me': [jsonAnswer(currentUser), jsonAnswer(withTotp)],
      'POST /users/me/mfa/totp': jsonAnswer(totpEnrolment),
      'POST /users/me/mfa/totp/confirm': jsonAnswer(recoveryCodes),
    });
    const user = await app.getUser({ or: 'throw' });
    await expect(user.enableTotp()).resolves.toEqual({
      secret: totpEnrolment.secret_base32,
      otpauthUri: totpEnrolment.otpauth_uri,
    });
    expect(requests.at(-1)?.body).toBeNull();
    await expect(user.confirmTotp('123456')).resolves.toEqual({ recoveryCodes: recoveryCodes.recovery_codes });
    expect(calls()).toEqual([
      'GET /users/me',
      'POST /users/me/mfa/totp',
      'POST /users/me/mfa/totp/confirm',
      'GET /users/me',
    ]);
    expect(requests[2]?.body).toEqual({ totp: '123456' });
    expect(app.getSnapshot('user')?.isMultiFactorRequired).toBe(true);
  });

  it('disableTotp sends a TOTP code or a recovery code, then re-reads the user', async () => {
    const { app, requests, calls } = signedIn({
      'GET /users/me': [jsonAnswer(withTotp), jsonAnswer(currentUser)],
      'DELETE /users/me/mfa/totp': jsonAnswer({ success: true }),
    });
    const user = await app.getUser({ or: 'throw' });
    await user.disableTotp({ totp: '123456' });
    expect(requests[1]?.body).toEqual({ totp: '123456' });
    expect(app.getSnapshot('user')?.isMultiFactorRequired).toBe(false);
    await user.disableTotp({ recoveryCode: 'a7k2-9mqx-4tz8-p3wd' });
    expect(requests[3]?.body).toEqual({ recovery_code: 'a7k2-9mqx-4tz8-p3wd' });
    expect(calls()).toEqual([
      'GET /users/me',
      'DELETE /users/me/mfa/totp',
      'GET /users/me',
      'DELETE /users/me/mfa/totp',
      'GET /users/me',
    ]);
  });

  it('a wrong code is INVALID_TOTP_CODE, and the user is not re-read', async () => {
    const { app, calls } = signedIn({
      'GET /users/me': jsonAnswer(withTotp),
      'DELETE /users/me/mfa/totp': knownErrorAnswer('INVALID_TOTP_CODE'),
      'POST /users/me/mfa/totp/confirm': knownErrorAnswer('INVALID_TOTP_CODE'),
      'POST /users/me/mfa/recovery-codes': knownErrorAnswer('INVALID_TOTP_CODE'),
    });
    const user = await app.getUser({ or: 'throw' });
    await expect(user.disableTotp({ totp: '000000' })).rejects.toMatchObject({ code: 'INVALID_TOTP_CODE' });
    await expect(user.confirmTotp('000000')).rejects.toMatchObject({ code: 'INVALID_TOTP_CODE' });
    await expect(user.regenerateRecoveryCodes('000000')).rejects.toMatchObject({ code: 'INVALID_TOTP_CODE' });
    expect(calls().filter((call) => call === 'GET /users/me')).toHaveLength(1);
  });

  it('regenerateRecoveryCodes sends a TOTP code and answers the new codes', async () => {
    const { app, requests } = signedIn({
      'GET /users/me': jsonAnswer(withTotp),
      'POST /users/me/mfa/recovery-codes': jsonAnswer(recoveryCodes),
    });
    const user = await app.getUser({ or: 'throw' });
    await expect(user.regenerateRecoveryCodes('123456')).resolves.toEqual(recoveryCodes.recovery_codes);
    expect(requests[1]?.body).toEqual({ totp: '123456' });
  });

  it('update sets a secret as totp_secret_base64, or removes it with null', async () => {
    const { app, requests } = signedIn({
      'GET /users/me': jsonAnswer(withTotp),
      'PATCH /users/me': jsonAnswer(withTotp),
    });
    const user = await app.getUser({ or: 'throw' });
    await user.update({ totpMultiFactorSecret: Uint8Array.from([0, 1, 2, 250, 251, 252, 253, 254, 255]) });
    expect(requests[1]?.body).toEqual({ totp_secret_base64: 'AAEC+vv8/f7/' });
    await user.update({ totpMultiFactorSecret: null, displayName: 'Ada' });
    expect(requests[3]?.body).toEqual({ totp_secret_base64: null, display_name: 'Ada' });
    await user.update({ displayName: 'Ada' });
    expect(requests[5]?.body).toEqual({ display_name: 'Ada' });
  });
});
