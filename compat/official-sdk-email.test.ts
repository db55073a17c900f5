/**
 * Wire compatibility of the e-mail flows, proven with the real official SDK
 * (`@stackframe/js` 2.7.23) against a real Latchkey service over HTTP on
 * loopback: forgot password → reset → sign in, e-mail verification, magic
 * link (the typed code plus the nonce), contact channels on the client and
 * the server, password update and set, and the admin's templates and test
 * mail. Codes are read from the service's dev mailbox, as a person reads them.
 */
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:net';
import type { StackClientApp as ClientApp } from '@stackframe/js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { password, useCompatEnvironment, verificationCallbackUrl } from './support/harness.js';
import { lastCodeTo, mailsTo } from './support/mailbox.js';
import { codeOf, rejection } from './support/outcomes.js';
import { StackAdminApp, StackClientApp, StackServerApp } from './support/sdk.js';

const env = useCompatEnvironment();

const resetUrl = 'http://localhost:3000/handler/password-reset';
const magicLinkUrl = 'http://localhost:3000/handler/magic-link-callback';
const newPassword = 'another correct horse battery';

beforeAll(async () => {
  await env.svc.setProjectConfig({ magic_link_enabled: true });
});

afterEach(() => {
  expect(env.net.blocked, 'non-loopback fetches').toEqual([]);
  expect(env.net.trail(), 'network diagnostics ran').not.toContain('GET /health');
});

function newEmail(): string {
  return `user-${randomUUID()}@example.com`;
}

function clientApp(): ClientApp<true> {
  return new StackClientApp({
    baseUrl: env.svc.url,
    projectId: env.svc.projectId,
    publishableClientKey: env.svc.keys.publishableClientKey,
    tokenStore: 'memory',
    noAutomaticPrefetch: true,
  });
}

function serverApp() {
  return new StackServerApp({
    baseUrl: env.svc.url,
    projectId: env.svc.projectId,
    publishableClientKey: env.svc.keys.publishableClientKey,
    secretServerKey: env.svc.keys.secretServerKey,
    tokenStore: null,
  });
}

function adminApp() {
  return new StackAdminApp({
    baseUrl: env.svc.url,
    projectId: env.svc.projectId,
    publishableClientKey: env.svc.keys.publishableClientKey,
    secretServerKey: env.svc.keys.secretServerKey,
    superSecretAdminKey: env.svc.keys.superSecretAdminKey,
    tokenStore: null,
  });
}

async function signedUp() {
  const app = clientApp();
  const email = newEmail();
  const result = await app.signUpWithCredential({ email, password, noRedirect: true, verificationCallbackUrl });
  expect(result).toEqual({ status: 'ok', data: undefined });
  const user = await app.getUser();
  if (!user) throw new Error('not signed in after sign-up');
  return { app, email, user };
}

/**
 * Runs `call` where the SDK sees a page at `href`: the 2.7.23 client
 * channel's `sendVerificationEmail()` takes no callback and builds it from
 * `window.location`, so in Node it needs one for the duration of the call.
 */
async function onPage<T>(href: string, call: () => Promise<T>): Promise<T> {
  const scope = globalThis as { window?: unknown };
  scope.window = { location: { href } };
  try {
    return await call();
  } finally {
    delete scope.window;
  }
}

/**
 * `sendVerificationEmail({ callbackUrl })` of a user or a server channel:
 * 2.7.23 reads the option at run time, though its typings declare no parameter.
 */
function sendVerificationEmail(target: { sendVerificationEmail(): Promise<unknown> }, callbackUrl: string) {
  const send = target.sendVerificationEmail as (options: { callbackUrl: string }) => Promise<unknown>;
  return send.call(target, { callbackUrl });
}

describe('forgot password', () => {
  it('sendForgotPasswordEmail → verifyPasswordResetCode → resetPassword → sign in with the new password', async () => {
    const { email } = await signedUp();
    const app = clientApp();
    env.net.reset();

    expect(await app.sendForgotPasswordEmail(email, { callbackUrl: resetUrl })).toMatchObject({ status: 'ok' });
    const code = await lastCodeTo(env.svc, email);
    expect(await app.verifyPasswordResetCode(code)).toEqual({ status: 'ok', data: undefined });
    expect(await app.resetPassword({ code, password: newPassword })).toEqual({ status: 'ok', data: undefined });

    const reused = await app.resetPassword({ code, password });
    expect(reused.status).toBe('error');
    expect(codeOf(reused.status === 'error' ? reused.error : null)).toBe('VERIFICATION_CODE_ALREADY_USED');
    const old = await app.signInWithCredential({ email, password, noRedirect: true });
    expect(old.status === 'error' && codeOf(old.error)).toBe('EMAIL_PASSWORD_MISMATCH');
    expect(await app.signInWithCredential({ email, password: newPassword, noRedirect: true })).toEqual({
      status: 'ok',
      data: undefined,
    });
    expect((await app.getUser())?.primaryEmail).toBe(email);
    expect(env.net.trail().slice(0, 4)).toEqual([
      'POST /auth/password/send-reset-code',
      'POST /auth/password/reset/check-code',
      'POST /auth/password/reset',
      'POST /auth/password/reset -> VERIFICATION_CODE_ALREADY_USED',
    ]);
  });

  it('answers alike for an address without an account, and mails nothing', async () => {
    const email = newEmail();
    expect(await clientApp().sendForgotPasswordEmail(email, { callbackUrl: resetUrl })).toMatchObject({
      status: 'ok',
    });
    expect(await mailsTo(env.svc, email)).toEqual([]);
  });
});

describe('e-mail verification', () => {
  it('verifies the primary e-mail by the sign-up mail’s code; the user then shows it verified', async () => {
    const { app, email, user } = await signedUp();
    expect(user.primaryEmailVerified).toBe(false);

    expect(await app.verifyEmail(await lastCodeTo(env.svc, email))).toEqual({ status: 'ok', data: undefined });
    expect((await app.getUser())?.primaryEmailVerified).toBe(true);
  });

  it('user.sendVerificationEmail({ callbackUrl }) mails a new code; an unknown code is a VerificationCodeError', async () => {
    const { app, email, user } = await signedUp();
    await sendVerificationEmail(user, verificationCallbackUrl);
    expect(await mailsTo(env.svc, email)).toHaveLength(2);
    expect(await app.verifyEmail(await lastCodeTo(env.svc, email))).toEqual({ status: 'ok', data: undefined });

    const unknown = await app.verifyEmail('0'.repeat(45));
    expect(unknown.status === 'error' && codeOf(unknown.error)).toBe('VERIFICATION_CODE_NOT_FOUND');
  });
});

describe('magic link', () => {
  it('sendMagicLinkEmail returns the nonce; the typed code plus the nonce signs a new address up', async () => {
    const app = clientApp();
    const email = newEmail();
    const sent = await app.sendMagicLinkEmail(email, { callbackUrl: magicLinkUrl });
    expect(sent.status).toBe('ok');
    const nonce = sent.status === 'ok' ? sent.data.nonce : '';
    const code = await lastCodeTo(env.svc, email);
    expect(code.endsWith(nonce)).toBe(true);
    const typed = code.slice(0, 6).toUpperCase();
    expect((await mailsTo(env.svc, email))[0]?.text).toContain(typed);

    expect(await app.signInWithMagicLink(typed + nonce)).toEqual({ status: 'ok', data: undefined });
    const user = await app.getUser();
    expect(user).toMatchObject({ primaryEmail: email, primaryEmailVerified: true, hasPassword: false });

    const again = await app.signInWithMagicLink(typed + nonce);
    expect(again.status === 'error' && codeOf(again.error)).toBe('VERIFICATION_CODE_ALREADY_USED');

    // A user without a password sets one, then signs in with it.
    expect(await user!.setPassword({ password: newPassword })).toBeUndefined();
    expect((await app.getUser())?.hasPassword).toBe(true);
    const other = await clientApp().signInWithCredential({ email, password: newPassword, noRedirect: true });
    expect(other).toEqual({ status: 'ok', data: undefined });
  });

  it('signs an existing user in by the link’s code', async () => {
    const { email, user } = await signedUp();
    const app = clientApp();
    // A code signs in only by a verified address: the sign-up's verification mail first.
    expect(await app.verifyEmail(await lastCodeTo(env.svc, email))).toEqual({ status: 'ok', data: undefined });
    await app.sendMagicLinkEmail(email, { callbackUrl: magicLinkUrl });
    expect(await app.signInWithMagicLink(await lastCodeTo(env.svc, email))).toEqual({ status: 'ok', data: undefined });
    expect((await app.getUser())?.id).toBe(user.id);
  });
});

describe('password update', () => {
  it('returns PasswordConfirmationMismatch for a wrong old password; the right one changes it', async () => {
    const { email, user } = await signedUp();
    const wrong = await user.updatePassword({ oldPassword: 'not the password at all', newPassword });
    expect(codeOf(wrong)).toBe('PASSWORD_CONFIRMATION_MISMATCH');
    expect(await user.updatePassword({ oldPassword: password, newPassword })).toBeUndefined();
    const signIn = await clientApp().signInWithCredential({ email, password: newPassword, noRedirect: true });
    expect(signIn).toEqual({ status: 'ok', data: undefined });
  });
});

describe('contact channels', () => {
  it('client: list, create, send verification, verify, make primary, delete', async () => {
    const { app, email, user } = await signedUp();
    const [primary, ...none] = await user.listContactChannels();
    expect(none).toEqual([]);
    expect(primary).toMatchObject({ value: email, type: 'email', isPrimary: true, usedForAuth: true });

    const second = newEmail();
    const created = await user.createContactChannel({ value: second, type: 'email', usedForAuth: false });
    expect(created).toMatchObject({ value: second, isVerified: false, isPrimary: false, usedForAuth: false });
    expect((await user.listContactChannels()).map((c) => c.value).sort()).toEqual([email, second].sort());

    await onPage('http://localhost:3000/account', () => created.sendVerificationEmail());
    expect(await app.verifyEmail(await lastCodeTo(env.svc, second))).toEqual({ status: 'ok', data: undefined });
    // Verified already: the SDK takes EMAIL_ALREADY_VERIFIED as done.
    await onPage('http://localhost:3000/account', () => created.sendVerificationEmail());

    await created.update({ isPrimary: true, usedForAuth: true });
    const updated = await app.getUser();
    expect(updated).toMatchObject({ primaryEmail: second, primaryEmailVerified: true });
    await primary!.delete();
    expect((await updated!.listContactChannels()).map((c) => c.value)).toEqual([second]);
    const signIn = await clientApp().signInWithCredential({ email: second, password, noRedirect: true });
    expect(signIn).toEqual({ status: 'ok', data: undefined });
  });

  it('client: an address another user signs in with is refused', async () => {
    const { email: taken } = await signedUp();
    const { user } = await signedUp();
    const error = await rejection(user.createContactChannel({ value: taken, type: 'email', usedForAuth: true }));
    expect(codeOf(error)).toBe('CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE');
  });

  it('server: list, create verified, update, send verification, delete', async () => {
    const server = serverApp();
    const user = await server.createUser({ primaryEmail: newEmail(), primaryEmailAuthEnabled: true });
    const [primary] = await user.listContactChannels();
    expect(primary).toMatchObject({ value: user.primaryEmail, isPrimary: true });

    const work = newEmail();
    const created = await user.createContactChannel({
      value: work,
      type: 'email',
      usedForAuth: true,
      isVerified: true,
    });
    expect(created).toMatchObject({ value: work, isVerified: true, usedForAuth: true, isPrimary: false });
    await created.update({ isVerified: false });
    expect((await user.listContactChannels()).find((c) => c.value === work)?.isVerified).toBe(false);

    await sendVerificationEmail(created, verificationCallbackUrl);
    expect(await clientApp().verifyEmail(await lastCodeTo(env.svc, work))).toEqual({ status: 'ok', data: undefined });
    expect((await user.listContactChannels()).find((c) => c.value === work)?.isVerified).toBe(true);

    await created.delete();
    expect((await user.listContactChannels()).map((c) => c.value)).toEqual([user.primaryEmail]);
  });
});

describe('admin: e-mail templates and the test mail', () => {
  it('lists the templates (the four and the new-device alert), updates one, and resets it to the default', async () => {
    const admin = adminApp();
    const templates = await admin.listEmailTemplates();
    // The extension type passes through the official SDK like the four it knows.
    expect(templates.map((t) => t.type).sort()).toEqual([
      'email_verification',
      'magic_link',
      'new_device_sign_in',
      'password_reset',
      'team_invitation',
    ]);
    expect(templates.every((t) => t.isDefault)).toBe(true);

    await admin.updateEmailTemplate('password_reset', { subject: 'Reset your {{ projectDisplayName }} password' });
    const updated = (await admin.listEmailTemplates()).find((t) => t.type === 'password_reset');
    expect(updated).toMatchObject({ subject: 'Reset your {{ projectDisplayName }} password', isDefault: false });

    // The editor document as the SDK's dashboard sends it (protocol-requests.jsonl) is stored as given.
    const content = { schemaVersion: 5, root: { type: 'EmailLayout', data: { childrenIds: [] } } };
    await admin.updateEmailTemplate('password_reset', { content });
    expect((await admin.listEmailTemplates()).find((t) => t.type === 'password_reset')?.content).toEqual(content);

    await admin.resetEmailTemplate('password_reset');
    expect((await admin.listEmailTemplates()).find((t) => t.type === 'password_reset')?.isDefault).toBe(true);
    // The SDK re-reads the list after each change (more GETs than calls); the changes are these two.
    expect(env.net.trail().filter((call) => call !== 'GET /email-templates')).toEqual([
      'PATCH /email-templates/password_reset',
      'PATCH /email-templates/password_reset',
      'DELETE /email-templates/password_reset',
    ]);
  });

  it('sendTestEmail through an SMTP server that is down is Result.error({ errorMessage })', async () => {
    const port = await closedPort();
    const result = await adminApp().sendTestEmail({
      recipientEmail: 'ops@example.com',
      emailConfig: {
        host: '127.0.0.1',
        port,
        username: 'mailer',
        password: 'smtp-secret-1',
        senderEmail: 'auth@example.com',
        senderName: 'Test project',
      },
    });
    expect(result.status).toBe('error');
    const message = result.status === 'error' ? result.error.errorMessage : '';
    expect(message).toMatch(/ECONNREFUSED|connect/i);
    expect(message).not.toContain('smtp-secret-1');
  });
});

/** A loopback port nothing listens on: taken, then given back. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}
