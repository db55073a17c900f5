/**
 * TOTP two-step sign-in and passkeys with the real official SDK
 * (`@stackframe/js` 2.7.23) against a real Latchkey service (wire-protocol
 * §10, §11). The SDK's own flows run as written: it turns TOTP on with
 * `user.update({ totpMultiFactorSecret })`, asks for the code through
 * `prompt()` when a sign-in meets MULTI_FACTOR_AUTHENTICATION_REQUIRED and
 * sends it to `/auth/mfa/sign-in`; `registerPasskey()` and
 * `signInWithPasskey()` run against a stand-in `navigator.credentials` whose
 * authenticator is the server tests' software one (real P-256 keys and
 * signatures), so the service verifies what the SDK's browser library built.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import type { StackClientApp as ClientApp } from '@stackframe/js';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { totpAt } from '../packages/js/src/test-support/totp.js';
import { SoftwareAuthenticator } from '../packages/server/src/testing/software-authenticator.js';
import { onPasskeyPage, withPrompt } from './support/browser.js';
import { password, useCompatEnvironment, verificationCallbackUrl } from './support/harness.js';
import { lastCodeTo } from './support/mailbox.js';
import { codeOf } from './support/outcomes.js';
import { StackClientApp } from './support/sdk.js';

const env = useCompatEnvironment();
const page = 'http://localhost:3000/account-settings';
const promptText = 'Please enter the six-digit TOTP code from your authenticator app.';

beforeAll(async () => {
  await env.svc.setProjectConfig({ magic_link_enabled: true, passkey_enabled: true });
});

afterEach(() => {
  expect(env.net.blocked, 'non-loopback fetches').toEqual([]);
  expect(env.net.trail(), 'network diagnostics ran').not.toContain('GET /health');
});

/**
 * A client app with in-memory tokens. `registerPasskey()` takes the page's
 * hostname from `window.location` only when the app has a redirect method,
 * so `onPage` gives it one that never navigates.
 */
function clientApp(options: { onPage?: boolean } = {}): ClientApp<true> {
  return new StackClientApp({
    baseUrl: env.svc.url,
    projectId: env.svc.projectId,
    publishableClientKey: env.svc.keys.publishableClientKey,
    tokenStore: 'memory',
    noAutomaticPrefetch: true,
    ...(options.onPage
      ? {
          redirectMethod: {
            useNavigate: () => () => {},
            navigate: (to: string) => {
              throw new Error(`unexpected navigation to ${to}`);
            },
          },
        }
      : {}),
  });
}

async function signedUp(options: { onPage?: boolean } = {}) {
  const app = clientApp(options);
  const email = `user-${randomUUID()}@example.com`;
  const result = await app.signUpWithCredential({ email, password, noRedirect: true, verificationCallbackUrl });
  expect(result).toEqual({ status: 'ok', data: undefined });
  const user = await app.getUser();
  if (!user) throw new Error('not signed in after sign-up');
  return { app, email, user };
}

/** A signed-up user who turned TOTP on through the SDK; `secret` is the raw secret. */
async function withTotp() {
  const who = await signedUp();
  const secret = randomBytes(20);
  await who.user.update({ totpMultiFactorSecret: new Uint8Array(secret) });
  return { ...who, secret };
}

/** The code an authenticator app shows now, by the service's clock. */
function codeNow(secret: Uint8Array): string {
  return totpAt(secret, env.svc.clock.now());
}

/** Six digits the service cannot take now: no code of the steps around the service's time. */
function wrongCode(secret: Uint8Array): string {
  const now = env.svc.clock.now();
  const near = new Set([-2, -1, 0, 1, 2].map((step) => totpAt(secret, now + step * 30_000)));
  for (let candidate = 0; ; candidate++) {
    const code = String(candidate).padStart(6, '0');
    if (!near.has(code)) return code;
  }
}

const noPrompt = (): string => {
  throw new Error('the SDK prompted for a code');
};

describe('TOTP two-step sign-in', () => {
  it('turns on through user.update: isMultiFactorRequired, and a password sign-in asks for the code by prompt()', async () => {
    const { app, email, user, secret } = await withTotp();
    expect(env.net.trail()).toContain('PATCH /users/me');
    expect(user.isMultiFactorRequired).toBe(false);
    expect((await app.getUser())?.isMultiFactorRequired).toBe(true);

    const fresh = clientApp();
    env.net.reset();
    const { outcome, prompts } = await withPrompt(
      () => codeNow(secret),
      () => fresh.signInWithCredential({ email, password, noRedirect: true }),
    );
    expect(outcome).toEqual({ status: 'ok', data: undefined });
    expect(prompts).toEqual([promptText]);
    expect(env.net.trail()).toEqual([
      'POST /auth/password/sign-in -> MULTI_FACTOR_AUTHENTICATION_REQUIRED',
      'POST /auth/mfa/sign-in',
    ]);
    expect(env.net.requests[0]).toMatchObject({
      status: 400,
      body: { details: { attempt_code: expect.stringMatching(/^[0-9a-z]{45}$/i) } },
    });
    const signedIn = await fresh.getUser();
    expect(signedIn).toMatchObject({ id: user.id, primaryEmail: email, isMultiFactorRequired: true });
  });

  it('returns INVALID_TOTP_CODE for a wrong code from the prompt and for a dismissed prompt; not signed in', async () => {
    const { email, secret } = await withTotp();
    const app = clientApp();
    env.net.reset();

    const wrong = await withPrompt(
      () => wrongCode(secret),
      () => app.signInWithCredential({ email, password, noRedirect: true }),
    );
    expect(wrong.outcome.status).toBe('error');
    expect(codeOf(wrong.outcome.status === 'error' ? wrong.outcome.error : null)).toBe('INVALID_TOTP_CODE');
    expect(env.net.trail()).toEqual([
      'POST /auth/password/sign-in -> MULTI_FACTOR_AUTHENTICATION_REQUIRED',
      'POST /auth/mfa/sign-in -> INVALID_TOTP_CODE',
    ]);
    expect(env.net.requests[1]?.status).toBe(400);

    // Dismissing the prompt (null) is refused by the SDK itself, before any MFA request.
    env.net.reset();
    const dismissed = await withPrompt(
      () => null,
      () => app.signInWithCredential({ email, password, noRedirect: true }),
    );
    expect(codeOf(dismissed.outcome.status === 'error' ? dismissed.outcome.error : null)).toBe('INVALID_TOTP_CODE');
    expect(env.net.trail()).toEqual(['POST /auth/password/sign-in -> MULTI_FACTOR_AUTHENTICATION_REQUIRED']);
    expect(await app.getUser()).toBeNull();
  });

  it('asks for the code after a magic-link sign-in as well', async () => {
    const { email, user, secret } = await withTotp();
    const app = clientApp();
    // A code signs in only by a verified address: the sign-up's verification mail first.
    expect(await app.verifyEmail(await lastCodeTo(env.svc, email))).toEqual({ status: 'ok', data: undefined });
    expect(
      (await app.sendMagicLinkEmail(email, { callbackUrl: 'http://localhost:3000/handler/magic-link' })).status,
    ).toBe('ok');
    const code = await lastCodeTo(env.svc, email);
    env.net.reset();
    const { outcome, prompts } = await withPrompt(
      () => codeNow(secret),
      () => app.signInWithMagicLink(code),
    );
    expect(outcome).toEqual({ status: 'ok', data: undefined });
    expect(prompts).toHaveLength(1);
    expect(env.net.trail()).toEqual([
      'POST /auth/otp/sign-in -> MULTI_FACTOR_AUTHENTICATION_REQUIRED',
      'POST /auth/mfa/sign-in',
      // Its redirect after sign-in, without a window: the SDK reports the handler it could not run.
      'POST /check-feature-support',
    ]);
    expect((await app.getUser())?.id).toBe(user.id);
  });

  it('turns off with totpMultiFactorSecret: null: the next sign-in asks for nothing', async () => {
    const { app, email, user } = await withTotp();
    await user.update({ totpMultiFactorSecret: null });
    expect((await app.getUser())?.isMultiFactorRequired).toBe(false);

    const fresh = clientApp();
    env.net.reset();
    const { outcome } = await withPrompt(noPrompt, () =>
      fresh.signInWithCredential({ email, password, noRedirect: true }),
    );
    expect(outcome).toEqual({ status: 'ok', data: undefined });
    expect(env.net.trail()).toEqual(['POST /auth/password/sign-in']);
  });
});

describe('passkeys', () => {
  it('registerPasskey() with the SDK’s browser library, then signInWithPasskey() signs in as that user', async () => {
    const { app, user } = await signedUp({ onPage: true });
    const authenticator = new SoftwareAuthenticator();
    env.net.reset();

    const registration = await onPasskeyPage(page, authenticator, () => user.registerPasskey());
    expect(registration.outcome).toEqual({ status: 'ok', data: undefined });
    expect(env.net.trail()).toEqual([
      'POST /auth/passkey/initiate-passkey-registration',
      'POST /auth/passkey/register',
      'GET /users/me',
    ]);
    // The SDK throws unless the service's RP id is its sentinel; it put the page's hostname in its place.
    const [create] = registration.credentialCalls;
    expect(create?.kind).toBe('create');
    expect(create?.publicKey.rp.id).toBe('localhost');
    expect(Buffer.from(create!.publicKey.user.id).toString('utf8')).toBe(user.id);
    expect((await app.getUser())?.passkeyAuthEnabled).toBe(true);

    const fresh = clientApp();
    env.net.reset();
    const signIn = await onPasskeyPage(page, authenticator, () => fresh.signInWithPasskey());
    expect(signIn.outcome).toEqual({ status: 'ok', data: undefined });
    expect(signIn.credentialCalls.map((c) => [c.kind, c.publicKey.rpId])).toEqual([['get', 'localhost']]);
    expect(env.net.trail()).toEqual([
      'POST /auth/passkey/initiate-passkey-authentication',
      'POST /auth/passkey/sign-in',
    ]);
    expect((await fresh.getUser())?.id).toBe(user.id);
  });

  it('a passkey sign-in of a user with TOTP asks for the code too', async () => {
    const { user } = await signedUp({ onPage: true });
    const authenticator = new SoftwareAuthenticator();
    const registered = await onPasskeyPage(page, authenticator, () => user.registerPasskey());
    expect(registered.outcome.status).toBe('ok');
    const secret = randomBytes(20);
    await user.update({ totpMultiFactorSecret: new Uint8Array(secret) });

    const app = clientApp();
    env.net.reset();
    const { outcome, prompts } = await withPrompt(
      () => codeNow(secret),
      () => onPasskeyPage(page, authenticator, () => app.signInWithPasskey()),
    );
    expect(outcome.outcome).toEqual({ status: 'ok', data: undefined });
    expect(prompts).toEqual([promptText]);
    expect(env.net.trail()).toEqual([
      'POST /auth/passkey/initiate-passkey-authentication',
      'POST /auth/passkey/sign-in -> MULTI_FACTOR_AUTHENTICATION_REQUIRED',
      'POST /auth/mfa/sign-in',
    ]);
    expect((await app.getUser())?.id).toBe(user.id);
  });

  it('a registration from a page the project does not trust: PASSKEY_REGISTRATION_FAILED as a Result, with the service’s sentence', async () => {
    const { app, user } = await signedUp({ onPage: true });
    env.net.reset();
    const { outcome } = await onPasskeyPage('https://evil.example/settings', new SoftwareAuthenticator(), () =>
      user.registerPasskey(),
    );
    expect(outcome.status).toBe('error');
    const error = outcome.status === 'error' ? outcome.error : null;
    expect(codeOf(error)).toBe('PASSKEY_REGISTRATION_FAILED');
    expect((error as Error).message).toContain('evil.example');
    expect(env.net.trail()).toContain('POST /auth/passkey/register -> PASSKEY_REGISTRATION_FAILED');
    expect((await app.getUser())?.passkeyAuthEnabled).toBe(false);
  });

  it('with passkeys off in the project: the initiation is refused (PASSKEY_AUTHENTICATION_NOT_ENABLED), which the SDK reports as PASSKEY_AUTHENTICATION_FAILED', async () => {
    await env.svc.setProjectConfig({ passkey_enabled: false });
    try {
      const app = clientApp();
      const { outcome, credentialCalls } = await onPasskeyPage(page, new SoftwareAuthenticator(), () =>
        app.signInWithPasskey(),
      );
      expect(env.net.trail()).toEqual([
        'POST /auth/passkey/initiate-passkey-authentication -> PASSKEY_AUTHENTICATION_NOT_ENABLED',
      ]);
      expect(credentialCalls).toEqual([]);
      expect(outcome.status).toBe('error');
      expect(codeOf(outcome.status === 'error' ? outcome.error : null)).toBe('PASSKEY_AUTHENTICATION_FAILED');
      expect(await app.getUser()).toBeNull();
    } finally {
      await env.svc.setProjectConfig({ passkey_enabled: true });
    }
  });
});
