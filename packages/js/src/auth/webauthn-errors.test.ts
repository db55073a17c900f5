/**
 * Every ceremony failure `@simplewebauthn/browser` reports (its
 * `WebAuthnError.code`) reaches the caller of `signInWithPasskey` and
 * `registerPasskey` as `PASSKEY_WEBAUTHN_ERROR` with the library's message
 * and code. The library is replaced at its import boundary so each code can
 * be raised as it raises it (its own `WebAuthnError` class); other failures
 * pass through as they are.
 */
import { isKnownError, type WebAuthnErrorCode, webAuthnErrorMessages } from '@latchkey/protocol';
import { WebAuthnError } from '@simplewebauthn/browser';
import { describe, expect, it, vi } from 'vitest';
import { answeringApp, signedInTokens } from '../test-support/answering-app.js';
import { jsonAnswer, recordedAnswers } from '../test-support/answers.js';
import { useBrowserPage } from '../test-support/browser.js';

const library = vi.hoisted(() => ({ failure: new Error('unset') as Error }));

vi.mock('@simplewebauthn/browser', async (actual) => {
  const real = await actual<typeof import('@simplewebauthn/browser')>();
  return {
    ...real,
    browserSupportsWebAuthnAutofill: async () => true,
    startAuthentication: async () => {
      throw library.failure;
    },
    startRegistration: async () => {
      throw library.failure;
    },
  };
});

useBrowserPage();

/** The codes of the library's failures the SDK maps (spec §8, WebAuthn ceremony). */
const codes = Object.keys(webAuthnErrorMessages) as WebAuthnErrorCode[];

const app = () =>
  answeringApp(
    {
      'POST /auth/passkey/initiate-passkey-authentication': jsonAnswer(recordedAnswers.passkeySignInStarted),
      'POST /auth/passkey/initiate-passkey-registration': jsonAnswer(recordedAnswers.passkeyRegistrationStarted),
      'GET /users/me': jsonAnswer(recordedAnswers.currentUser),
    },
    { tokenStore: { ...signedInTokens } },
  );

describe('WebAuthn ceremony failures', () => {
  it('are the eleven codes of the library the protocol words', () => {
    expect(codes).toHaveLength(11);
    expect(codes).toContain('ERROR_AUTHENTICATOR_NO_SUPPORTED_PUBKEYCREDPARAMS_ALG');
  });

  it.each(codes)(
    '%s is PASSKEY_WEBAUTHN_ERROR with the library’s message and code, signing in or registering',
    async (code) => {
      const message = `The library says ${code}.`;
      const cause = new Error('from the browser');
      library.failure = new WebAuthnError({ message, code, cause });
      const { app: client, calls } = app();

      const signingIn = await client.signInWithPasskey().catch((error: unknown) => error);
      expect(isKnownError(signingIn, 'PASSKEY_WEBAUTHN_ERROR')).toBe(true);
      expect(signingIn).toMatchObject({ status: 400, details: { message, code }, cause: library.failure });
      expect((signingIn as Error).message).toContain(message);

      const user = await client.getUser({ or: 'throw' });
      await expect(user.registerPasskey()).rejects.toMatchObject({
        code: 'PASSKEY_WEBAUTHN_ERROR',
        details: { message, code },
      });
      expect(calls().filter((call) => call.endsWith('/sign-in') || call.endsWith('/register'))).toEqual([]);
    },
  );

  it('an abort of an autofill ceremony (another ceremony replaced it) ends quietly; of a prompt, it is thrown', async () => {
    const cause = new Error('Cancelling existing WebAuthn API call for new one');
    library.failure = new WebAuthnError({ message: 'aborted', code: 'ERROR_CEREMONY_ABORTED', cause });
    document.body.innerHTML = '<input autocomplete="username webauthn">';
    await expect(app().app.signInWithPasskey({ autofill: true })).resolves.toBeNull();
    await expect(app().app.signInWithPasskey()).rejects.toMatchObject({
      code: 'PASSKEY_WEBAUTHN_ERROR',
      details: { code: 'ERROR_CEREMONY_ABORTED' },
    });
  });

  it('a failure that is not the library’s WebAuthnError passes through as it is', async () => {
    library.failure = new Error('WebAuthn is not supported in this browser');
    await expect(app().app.signInWithPasskey()).rejects.toBe(library.failure);
  });
});
