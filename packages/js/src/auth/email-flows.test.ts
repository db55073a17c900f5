/**
 * The e-mail flows of `ClientApp` and `ServerApp` against the real service
 * (in-process), reading the codes from its dev mailbox as a person would:
 * forgot password → reset → sign in, magic link by link and by typed code,
 * password update and set, and the developer errors of a missing callback.
 */
import { describe, expect, it } from 'vitest';
import { lastMailTo, linkFromMail, mailsTo } from '../test-support/mail.js';
import { createTestServerApp } from '../test-support/server-apps.js';
import { createTestApp, newCredentials, useTestService } from '../test-support/service.js';

const service = useTestService({ projectConfig: { magic_link_enabled: true } });

const origin = 'http://localhost:3000';
const resetPage = `${origin}/handler/password-reset`;
const magicLinkPage = `${origin}/handler/magic-link-callback`;
/** Access-token lifetime the service issues (wire-protocol.md §5.1). */
const accessTokenLifetimeMs = 600_000;

async function signedUp() {
  const test = createTestApp(service());
  const credentials = newCredentials();
  await test.app.signUpWithCredential({ ...credentials, noRedirect: true });
  return { ...test, credentials };
}

/** A user made by server code whose address is verified: the only kind an e-mailed code signs in. */
async function verifiedUser() {
  const { email } = newCredentials();
  const { app } = createTestServerApp(service());
  const user = await app.createUser({ primaryEmail: email, primaryEmailVerified: true, primaryEmailAuthEnabled: true });
  return { email, userId: user.id };
}

describe('forgot password', { timeout: 30_000 }, () => {
  it('mails a reset link; its code checks, resets once, and the new password signs in instead of the old', async () => {
    const { app, credentials } = await signedUp();
    const other = createTestApp(service()).app;
    await other.sendForgotPasswordEmail(credentials.email, { callbackUrl: resetPage });

    const link = linkFromMail(await lastMailTo(service(), credentials.email));
    expect(`${link.origin}${link.pathname}`).toBe(resetPage);
    const code = link.searchParams.get('code')!;
    await other.verifyPasswordResetCode(code);
    await other.resetPassword({ code: ` ${code.toUpperCase()}\n`, password: 'brand-new-horse-7' });

    await expect(other.resetPassword({ code, password: 'another-horse-8' })).rejects.toMatchObject({
      code: 'VERIFICATION_CODE_ALREADY_USED',
    });
    await expect(other.verifyPasswordResetCode(code)).rejects.toMatchObject({ code: 'VERIFICATION_CODE_ALREADY_USED' });
    await expect(other.signInWithCredential({ ...credentials, noRedirect: true })).rejects.toMatchObject({
      code: 'EMAIL_PASSWORD_MISMATCH',
    });
    await other.signInWithCredential({ email: credentials.email, password: 'brand-new-horse-7', noRedirect: true });
    expect((await other.getUser({ or: 'throw' })).primaryEmail).toBe(credentials.email);

    // The reset signed out every session from before: the first app's ends at its next refresh.
    service().clock.advance(accessTokenLifetimeMs);
    await expect(app.getUser()).resolves.toBeNull();
  });

  it('answers alike for an address without an account, and mails nothing', async () => {
    const { app } = createTestApp(service());
    const nobody = newCredentials().email;
    await app.sendForgotPasswordEmail(nobody, { callbackUrl: resetPage });
    expect(await mailsTo(service(), nobody)).toEqual([]);
  });

  it('defaults the callback to an absolute password-reset page; outside a browser a relative one is a developer error', async () => {
    const { credentials } = await signedUp();
    const configured = createTestApp(service(), { urls: { passwordReset: resetPage } });
    await configured.app.sendForgotPasswordEmail(credentials.email);
    expect(linkFromMail(await lastMailTo(service(), credentials.email)).pathname).toBe('/handler/password-reset');

    const { app, calls } = createTestApp(service());
    await expect(app.sendForgotPasswordEmail(credentials.email)).rejects.toThrow(
      'sendForgotPasswordEmail: outside a browser, pass { callbackUrl }',
    );
    expect(calls()).toEqual([]);
  });

  it('throws the refusals as KnownErrors: an untrusted callback, a malformed or unknown code', async () => {
    const { app } = createTestApp(service());
    await expect(
      app.sendForgotPasswordEmail(newCredentials().email, { callbackUrl: 'https://evil.example/reset' }),
    ).rejects.toMatchObject({ code: 'REDIRECT_URL_NOT_WHITELISTED' });
    await expect(app.verifyPasswordResetCode('short')).rejects.toMatchObject({ code: 'SCHEMA_ERROR' });
    await expect(app.resetPassword({ code: '0'.repeat(45), password: 'brand-new-horse-7' })).rejects.toMatchObject({
      code: 'VERIFICATION_CODE_NOT_FOUND',
    });
  });
});

describe('magic link', { timeout: 30_000 }, () => {
  it('signs a new address up by the typed code plus the nonce, and goes to after-sign-up', async () => {
    const { app, navigate } = createTestApp(service(), { urls: { afterSignUp: '/welcome' } });
    const email = newCredentials().email;
    const { nonce } = await app.sendMagicLinkEmail(email, { callbackUrl: magicLinkPage });

    const mail = await lastMailTo(service(), email);
    const code = linkFromMail(mail).searchParams.get('code')!;
    expect(code.endsWith(nonce)).toBe(true);
    const typed = code.slice(0, 6).toUpperCase();
    expect(mail.text).toContain(typed);

    const result = await app.signInWithMagicLink(typed + nonce);
    expect(result.newUser).toBe(true);
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/welcome');
    const user = await app.getUser({ or: 'throw' });
    expect(user).toMatchObject({
      id: result.userId,
      primaryEmail: email,
      primaryEmailVerified: true,
      hasPassword: false,
    });
    await expect(app.signInWithMagicLink(typed + nonce)).rejects.toMatchObject({
      code: 'VERIFICATION_CODE_ALREADY_USED',
    });
  });

  it('signs an existing user in by the link’s code, as that user', async () => {
    const { email, userId } = await verifiedUser();
    const { app, navigate } = createTestApp(service());
    await app.sendMagicLinkEmail(email, { callbackUrl: magicLinkPage });
    const code = linkFromMail(await lastMailTo(service(), email)).searchParams.get('code')!;
    await expect(app.signInWithMagicLink(code, { noRedirect: true })).resolves.toEqual({ userId, newUser: false });
    expect(navigate).not.toHaveBeenCalled();
    expect(app.getSnapshot('user')).toBeUndefined(); // reloaded on the next read
    expect((await app.getUser({ or: 'throw' })).id).toBe(userId);
  });

  it('defaults the callback to the magic-link page when it is absolute; a relative one needs { callbackUrl } here', async () => {
    const email = newCredentials().email;
    const configured = createTestApp(service(), { urls: { magicLinkCallback: magicLinkPage } });
    await configured.app.sendMagicLinkEmail(email);
    expect(linkFromMail(await lastMailTo(service(), email)).pathname).toBe('/handler/magic-link-callback');
    const { app, calls } = createTestApp(service());
    await expect(app.sendMagicLinkEmail(email)).rejects.toThrow('sendMagicLinkEmail: outside a browser');
    expect(calls()).toEqual([]);
  });
});

describe('the signed-in user’s password', { timeout: 30_000 }, () => {
  it('updates it given the old one; a wrong old one is PASSWORD_CONFIRMATION_MISMATCH and changes nothing', async () => {
    const { app, credentials } = await signedUp();
    const user = await app.getUser({ or: 'throw' });
    await expect(
      user.updatePassword({ oldPassword: 'not-the-password-1', newPassword: 'brand-new-horse-7' }),
    ).rejects.toMatchObject({ code: 'PASSWORD_CONFIRMATION_MISMATCH' });
    const fresh = createTestApp(service()).app;
    await fresh.signInWithCredential({ ...credentials, noRedirect: true });

    await user.updatePassword({ oldPassword: credentials.password, newPassword: 'brand-new-horse-7' });
    await expect(fresh.signInWithCredential({ ...credentials, noRedirect: true })).rejects.toMatchObject({
      code: 'EMAIL_PASSWORD_MISMATCH',
    });
    await fresh.signInWithCredential({ email: credentials.email, password: 'brand-new-horse-7', noRedirect: true });
    // This session stays signed in past its access token's life.
    service().clock.advance(accessTokenLifetimeMs);
    await expect(app.getUser()).resolves.toMatchObject({ id: user.id });
  });

  it('sets one for a user who has none, after which the user shows hasPassword and signs in with it', async () => {
    const { app } = createTestApp(service());
    const email = newCredentials().email;
    const { nonce } = await app.sendMagicLinkEmail(email, { callbackUrl: magicLinkPage });
    const code = linkFromMail(await lastMailTo(service(), email)).searchParams.get('code')!;
    expect(code.endsWith(nonce)).toBe(true);
    await app.signInWithMagicLink(code, { noRedirect: true });
    const user = await app.getUser({ or: 'throw' });
    expect(user.hasPassword).toBe(false);

    await user.setPassword({ password: 'brand-new-horse-7' });
    expect(app.getSnapshot('user')?.hasPassword).toBe(true);
    await createTestApp(service()).app.signInWithCredential({ email, password: 'brand-new-horse-7', noRedirect: true });
  });
});

describe('ServerApp e-mail flows', { timeout: 30_000 }, () => {
  it('mails a reset link and a magic link to the callback it must be given', async () => {
    const { email } = await verifiedUser();
    const credentials = { email };
    const { app, calls } = createTestServerApp(service());
    await app.sendForgotPasswordEmail(credentials.email, { callbackUrl: resetPage });
    expect((await lastMailTo(service(), credentials.email)).kind).toBe('password_reset');
    const { nonce } = await app.sendMagicLinkEmail(credentials.email, { callbackUrl: magicLinkPage });
    const code = linkFromMail(await lastMailTo(service(), credentials.email)).searchParams.get('code')!;
    expect(code.endsWith(nonce)).toBe(true);

    const missing = { callbackUrl: undefined } as unknown as { callbackUrl: string };
    await expect(app.sendForgotPasswordEmail(credentials.email, missing)).rejects.toThrow(
      'ServerApp.sendForgotPasswordEmail: pass { callbackUrl }',
    );
    await expect(app.sendMagicLinkEmail(credentials.email, missing)).rejects.toThrow(
      'ServerApp.sendMagicLinkEmail: pass { callbackUrl }',
    );
    expect(calls()).toEqual(['POST /auth/password/send-reset-code', 'POST /auth/otp/send-sign-in-code']);
  });
});
