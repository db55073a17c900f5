/**
 * Passkeys through `ClientApp` over recorded answers, in a page (jsdom) whose
 * WebAuthn API (`navigator.credentials`) is a stand-in answering with a
 * credential of fixed bytes, so the real `@simplewebauthn/browser` runs
 * between the SDK and the page: the RP id the page's hostname, the requests
 * the service gets, the session stored, the passkeys as app data, and the
 * browser's refusals as `PASSKEY_WEBAUTHN_ERROR`. (The ceremony with a real
 * authenticator runs in Chromium, in the e2e tests.)
 */
import { isKnownError, KnownError } from '@latchkey/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { answeringApp, signedInTokens } from '../test-support/answering-app.js';
import { jsonAnswer, knownErrorAnswer, recordedAnswers } from '../test-support/answers.js';
import { useBrowserPage } from '../test-support/browser.js';
import { multiFactorAttempt } from './mfa-auth.js';
import { passkeysQuery } from './passkey-auth.js';

useBrowserPage('http://app.example.test:3000/sign-in');

const { passkeySignInStarted, passkeyRegistrationStarted, passkeyList, signUp, currentUser } = recordedAnswers;

const bytes = (text: string) => new TextEncoder().encode(text).buffer;
const base64url = (text: string) => Buffer.from(text).toString('base64url');

/** What the page's WebAuthn API was asked, and how it answers next. */
interface StandIn {
  get: CredentialRequestOptions[];
  create: CredentialCreationOptions[];
  /** Throws this (a `DOMException`, as browsers do) instead of answering. */
  refuse?: Error;
  /** Waits until the ceremony's signal aborts, as a conditional (autofill) request does until a passkey is picked. */
  waitForAbort?: boolean;
}

let standIn: StandIn;
const globals = globalThis as { navigator?: unknown; PublicKeyCredential?: unknown };

async function answer<T>(options: CredentialRequestOptions | CredentialCreationOptions, credential: T): Promise<T> {
  if (standIn.refuse) throw standIn.refuse;
  if (standIn.waitForAbort) {
    await new Promise((_, reject) =>
      options.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
    );
  }
  return credential;
}

beforeEach(() => {
  standIn = { get: [], create: [] };
  // The constructor browsers expose, with conditional mediation (passkey autofill).
  globals.PublicKeyCredential = Object.assign(function PublicKeyCredential() {}, {
    isConditionalMediationAvailable: async () => true,
  });
  globals.navigator = {
    credentials: {
      get: (options: CredentialRequestOptions) => {
        standIn.get.push(options);
        return answer(options, {
          id: base64url('credential-1'),
          rawId: bytes('credential-1'),
          type: 'public-key',
          authenticatorAttachment: 'platform',
          response: {
            authenticatorData: bytes('authenticator-data'),
            clientDataJSON: bytes('{"type":"webauthn.get"}'),
            signature: bytes('signature'),
            userHandle: bytes(signUp.user_id),
          },
          getClientExtensionResults: () => ({}),
        });
      },
      create: (options: CredentialCreationOptions) => {
        standIn.create.push(options);
        return answer(options, {
          id: base64url('credential-2'),
          rawId: bytes('credential-2'),
          type: 'public-key',
          authenticatorAttachment: 'cross-platform',
          response: {
            attestationObject: bytes('attestation'),
            clientDataJSON: bytes('{"type":"webauthn.create"}'),
            getTransports: () => ['usb', 'nfc'],
          },
          getClientExtensionResults: () => ({ credProps: { rk: true } }),
        });
      },
    },
  };
});

afterEach(() => {
  delete globals.navigator;
  delete globals.PublicKeyCredential;
  document.body.innerHTML = '';
});

/** Timers that fire at once: a redirect's wait for the page to go ends immediately. */
const immediateTimers = {
  setTimeout: (run: () => void) => {
    run();
    return 0 as unknown as ReturnType<typeof setTimeout>;
  },
  clearTimeout: () => {},
};

describe('signInWithPasskey', () => {
  const answers = {
    'POST /auth/passkey/initiate-passkey-authentication': jsonAnswer(passkeySignInStarted),
    'POST /auth/passkey/sign-in': jsonAnswer(signUp),
    'GET /users/me': jsonAnswer(currentUser),
  };

  it('asks the page’s passkeys with the page’s hostname as RP id, sends the answer with the code and signs in', async () => {
    const { app, requests, calls, navigations } = answeringApp(answers, { timers: immediateTimers });
    await expect(app.signInWithPasskey()).resolves.toEqual({ userId: signUp.user_id, newUser: false });

    const [asked] = standIn.get;
    expect(asked?.mediation).toBeUndefined();
    expect(asked?.publicKey?.rpId).toBe('app.example.test');
    expect(Buffer.from(asked?.publicKey?.challenge as ArrayBuffer).toString('base64url')).toBe(
      passkeySignInStarted.options_json.challenge,
    );
    expect(calls()).toEqual(['POST /auth/passkey/initiate-passkey-authentication', 'POST /auth/passkey/sign-in']);
    expect(requests[0]?.body).toEqual({});
    expect(requests[1]?.body).toEqual({
      code: passkeySignInStarted.code,
      authentication_response: {
        id: base64url('credential-1'),
        rawId: base64url('credential-1'),
        type: 'public-key',
        authenticatorAttachment: 'platform',
        clientExtensionResults: {},
        response: {
          authenticatorData: base64url('authenticator-data'),
          clientDataJSON: base64url('{"type":"webauthn.get"}'),
          signature: base64url('signature'),
          userHandle: base64url(signUp.user_id),
        },
      },
    });
    expect(navigations).toEqual(['/']);
    expect(await app.getUser()).toMatchObject({ id: currentUser.id, primaryEmail: currentUser.primary_email });
  });

  it('stays on the page with noRedirect', async () => {
    const { app, navigations } = answeringApp(answers);
    await app.signInWithPasskey({ noRedirect: true });
    expect(navigations).toEqual([]);
    expect((await app.getUser({ or: 'throw' })).id).toBe(currentUser.id);
  });

  it('with autofill, asks by conditional mediation and ends quietly when its signal aborts', async () => {
    document.body.innerHTML = '<input name="email" autocomplete="username webauthn">';
    standIn.waitForAbort = true;
    const { app, calls } = answeringApp(answers);
    const controller = new AbortController();
    const signingIn = app.signInWithPasskey({ autofill: true, signal: controller.signal, noRedirect: true });
    await expect.poll(() => standIn.get.length).toBe(1);
    expect(standIn.get[0]?.mediation).toBe('conditional');
    controller.abort();
    await expect(signingIn).resolves.toBeNull();
    expect(calls()).toEqual(['POST /auth/passkey/initiate-passkey-authentication']);
  });

  it('with autofill, signs in with the passkey picked from the autofill', async () => {
    document.body.innerHTML = '<input name="email" autocomplete="username webauthn">';
    const { app } = answeringApp(answers);
    const controller = new AbortController();
    await expect(
      app.signInWithPasskey({ autofill: true, signal: controller.signal, noRedirect: true }),
    ).resolves.toEqual({
      userId: signUp.user_id,
      newUser: false,
    });
  });

  it('ends quietly, asking nothing, with a signal aborted already or a browser without passkey autofill', async () => {
    const { app, calls } = answeringApp(answers);
    await expect(app.signInWithPasskey({ signal: AbortSignal.abort() })).resolves.toBeNull();
    globals.PublicKeyCredential = function PublicKeyCredential() {};
    await expect(app.signInWithPasskey({ autofill: true })).resolves.toBeNull();
    expect(calls()).toEqual([]);
    expect(standIn.get).toEqual([]);
  });

  it('throws the browser’s refusal as PASSKEY_WEBAUTHN_ERROR with its message and code, and signs nobody in', async () => {
    standIn.refuse = new DOMException('The operation either timed out or was not allowed.', 'NotAllowedError');
    const { app, calls } = answeringApp(answers);
    const error = await app.signInWithPasskey().catch((caught: unknown) => caught);
    expect(isKnownError(error, 'PASSKEY_WEBAUTHN_ERROR') && error.details).toEqual({
      code: 'ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY',
      message: 'The operation either timed out or was not allowed.',
    });
    expect((error as Error).cause).toMatchObject({ code: 'ERROR_PASSTHROUGH_SEE_CAUSE_PROPERTY' });
    expect(calls()).toEqual(['POST /auth/passkey/initiate-passkey-authentication']);
  });

  it('refuses options whose RP id is not the placeholder, before any prompt', async () => {
    const foreign = {
      ...passkeySignInStarted,
      options_json: { ...passkeySignInStarted.options_json, rpId: 'evil.example' },
    };
    const { app } = answeringApp({ 'POST /auth/passkey/initiate-passkey-authentication': jsonAnswer(foreign) });
    await expect(app.signInWithPasskey()).rejects.toThrow('carry the RP id "evil.example", not the placeholder');
    expect(standIn.get).toEqual([]);
  });

  it('throws the service’s refusals: a failed passkey, and a user who must give a second factor', async () => {
    const failed = new KnownError('PASSKEY_AUTHENTICATION_FAILED', { message: 'This passkey is not registered here.' });
    const mfa = new KnownError('MULTI_FACTOR_AUTHENTICATION_REQUIRED', { attempt_code: 'attempt-1' });
    const { app } = answeringApp({
      ...answers,
      'POST /auth/passkey/sign-in': [knownErrorAnswer(failed), knownErrorAnswer(mfa)],
    });
    await expect(app.signInWithPasskey()).rejects.toMatchObject({
      code: 'PASSKEY_AUTHENTICATION_FAILED',
      details: { message: 'This passkey is not registered here.' },
    });
    const error = await app.signInWithPasskey().catch((caught: unknown) => caught);
    expect(multiFactorAttempt(error)).toEqual({ attemptCode: 'attempt-1', setupRequired: false });
  });
});

describe('the signed-in user’s passkeys', () => {
  const [used, unused] = passkeyList.items;

  function signedIn(extra: Parameters<typeof answeringApp>[0] = {}) {
    return answeringApp(
      {
        'GET /users/me': jsonAnswer(currentUser),
        'GET /users/me/passkeys': jsonAnswer(passkeyList),
        'POST /auth/passkey/initiate-passkey-registration': jsonAnswer(passkeyRegistrationStarted),
        'POST /auth/passkey/register': jsonAnswer({ user_handle: base64url(currentUser.id) }),
        ...extra,
      },
      { tokenStore: { ...signedInTokens } },
    );
  }

  it('registerPasskey creates one for the page’s hostname, registers it with its name, then re-reads the passkeys and the user', async () => {
    const { app, requests, calls } = signedIn();
    const user = await app.getUser({ or: 'throw' });
    const stop = app.subscribe(passkeysQuery, () => {});
    await expect.poll(() => app.getSnapshot(passkeysQuery)).toHaveLength(2);
    requests.length = 0;

    await user.registerPasskey({ name: 'Work laptop' });
    const publicKey = standIn.create[0]?.publicKey;
    expect(publicKey?.rp).toEqual({ name: 'Test project', id: 'app.example.test' });
    expect(new TextDecoder().decode(publicKey?.user.id as ArrayBuffer)).toBe(signUp.user_id);
    expect(calls().slice(0, 2)).toEqual([
      'POST /auth/passkey/initiate-passkey-registration',
      'POST /auth/passkey/register',
    ]);
    expect(calls().slice(2).sort()).toEqual(['GET /users/me', 'GET /users/me/passkeys']);
    expect(requests[1]?.body).toEqual({
      code: passkeyRegistrationStarted.code,
      name: 'Work laptop',
      credential: {
        id: base64url('credential-2'),
        rawId: base64url('credential-2'),
        type: 'public-key',
        authenticatorAttachment: 'cross-platform',
        clientExtensionResults: { credProps: { rk: true } },
        response: {
          attestationObject: base64url('attestation'),
          clientDataJSON: base64url('{"type":"webauthn.create"}'),
          transports: ['usb', 'nfc'],
        },
      },
    });
    stop();
  });

  it('registerPasskey sends no name when none is given', async () => {
    const { app, requests } = signedIn();
    await (await app.getUser({ or: 'throw' })).registerPasskey();
    expect(requests.find((request) => request.path.endsWith('/register'))?.body).not.toHaveProperty('name');
  });

  it('registerPasskey throws an authenticator that holds one already as ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED, registering nothing', async () => {
    standIn.refuse = new DOMException('The user attempted to register an authenticator twice.', 'InvalidStateError');
    const { app, calls } = signedIn();
    const user = await app.getUser({ or: 'throw' });
    await expect(user.registerPasskey()).rejects.toMatchObject({
      code: 'PASSKEY_WEBAUTHN_ERROR',
      details: { code: 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED', message: expect.any(String) },
    });
    expect(calls()).not.toContain('POST /auth/passkey/register');
  });

  it('registerPasskey throws the service’s refusal as PASSKEY_REGISTRATION_FAILED with its message', async () => {
    const refusal = new KnownError('PASSKEY_REGISTRATION_FAILED', {
      message: 'The passkey challenge expired; start again.',
    });
    const { app } = signedIn({ 'POST /auth/passkey/register': knownErrorAnswer(refusal) });
    await expect((await app.getUser({ or: 'throw' })).registerPasskey()).rejects.toMatchObject({
      code: 'PASSKEY_REGISTRATION_FAILED',
      details: { message: 'The passkey challenge expired; start again.' },
    });
  });

  it('lists them oldest first, with dates; each renames and removes itself, re-reading what changed', async () => {
    const { app, requests, calls } = signedIn({
      'PATCH /users/me/passkeys/9e1d3a5b-2c4d-4e6f-9a0b-1c2d3e4f5a6b': jsonAnswer({}),
      'DELETE /users/me/passkeys/7d0c2f4e-1b3a-4c5d-8e9f-0a1b2c3d4e5f': jsonAnswer({ success: true }),
    });
    const user = await app.getUser({ or: 'throw' });
    const passkeys = await user.listPasskeys();
    expect(passkeys.map(({ id, name, createdAt, lastUsedAt }) => ({ id, name, createdAt, lastUsedAt }))).toEqual([
      {
        id: used?.id,
        name: 'Passkey',
        createdAt: new Date(used!.created_at_millis),
        lastUsedAt: new Date(used!.last_used_at_millis!),
      },
      { id: unused?.id, name: 'Work laptop', createdAt: new Date(unused!.created_at_millis), lastUsedAt: null },
    ]);
    expect(await app.load(passkeysQuery)).toBe(passkeys);
    requests.length = 0;

    await passkeys[1]?.rename('Old laptop');
    expect(calls()).toEqual([`PATCH /users/me/passkeys/${unused?.id}`, 'GET /users/me/passkeys']);
    expect(requests[0]?.body).toEqual({ name: 'Old laptop' });
    requests.length = 0;

    await passkeys[0]?.delete();
    expect(calls()[0]).toBe(`DELETE /users/me/passkeys/${used?.id}`);
    expect(calls().slice(1).sort()).toEqual(['GET /users/me', 'GET /users/me/passkeys']);
  });

  it('are [] signed out, without asking; and become [] when the user signs out', async () => {
    const signedOut = answeringApp({});
    await expect(signedOut.app.load(passkeysQuery)).resolves.toEqual([]);
    expect(signedOut.calls()).toEqual([]);

    const { app } = signedIn({ 'DELETE /auth/sessions/current': jsonAnswer({ success: true }) });
    const stop = app.subscribe(passkeysQuery, () => {});
    await expect.poll(() => app.getSnapshot(passkeysQuery)).toHaveLength(2);
    await (await app.getUser({ or: 'throw' })).signOut({ noRedirect: true });
    await expect.poll(() => app.getSnapshot(passkeysQuery)).toEqual([]);
    stop();
  });
});

describe('passkeys outside a browser', () => {
  it('throw a developer error before asking the service', async () => {
    const page = (globalThis as { window?: unknown }).window;
    delete (globalThis as { window?: unknown }).window;
    try {
      const { app, calls } = answeringApp({});
      await expect(app.signInWithPasskey()).rejects.toThrow('Passkeys run in a browser only');
      expect(calls()).toEqual([]);
    } finally {
      (globalThis as { window?: unknown }).window = page;
    }
  });
});
