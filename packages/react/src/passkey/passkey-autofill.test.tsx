/**
 * The sign-in page's passkey autofill on the real `ClientApp` over recorded
 * answers, in a page whose WebAuthn API is a stand-in that, like a browser,
 * holds a conditional (autofill) request until it is aborted: it stops while
 * a password or an e-mailed code is tried, and starts again once that fails.
 */
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SignIn } from '../credential/credential-pages.js';
import { LatchkeyProvider } from '../provider.js';
import {
  type Answers,
  answeringApp,
  jsonAnswer,
  knownErrorAnswer,
  recordedAnswers,
} from '../test-support/answering-app.js';
import { visit } from '../test-support/page.js';

/** The conditional requests the page made, each with whether it was aborted since. */
let requests: { mediation: string | undefined; aborted: () => boolean }[];
const globals = globalThis as { PublicKeyCredential?: unknown };
/** The constructor browsers expose, with conditional mediation (passkey autofill). */
const publicKeyCredential = Object.assign(() => {}, { isConditionalMediationAvailable: async () => true });

beforeEach(() => {
  visit('/handler/sign-in');
  requests = [];
  globals.PublicKeyCredential = publicKeyCredential;
  Object.defineProperty(navigator, 'credentials', {
    configurable: true,
    value: {
      get: (options: CredentialRequestOptions) => {
        const signal = options.signal;
        requests.push({ mediation: options.mediation, aborted: () => signal?.aborted === true });
        return new Promise((_, reject) =>
          signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
        );
      },
    },
  });
});
afterEach(() => {
  cleanup();
  delete globals.PublicKeyCredential;
  Reflect.deleteProperty(navigator, 'credentials');
});

const { project, passkeySignInStarted } = recordedAnswers;

function renderSignIn(more: Answers, config: Record<string, boolean> = {}) {
  const service = answeringApp({
    'GET /projects/current': () =>
      jsonAnswer({ ...project, config: { ...project.config, passkey_enabled: true, ...config } }),
    'POST /auth/passkey/initiate-passkey-authentication': () => jsonAnswer(passkeySignInStarted),
    ...more,
  });
  render(
    <LatchkeyProvider app={service.app}>
      <SignIn />
    </LatchkeyProvider>,
  );
  return service;
}

/** The requests still waiting for a passkey to be picked. */
const waiting = () => requests.filter((request) => !request.aborted());

describe('the passkey autofill of the sign-in page', () => {
  it('stops while a password is tried, and starts again when it is refused', async () => {
    renderSignIn({ 'POST /auth/password/sign-in': () => knownErrorAnswer('EMAIL_PASSWORD_MISMATCH') });
    await waitFor(() => expect(requests).toHaveLength(1), { timeout: 5_000 });
    expect(requests[0]?.mediation).toBe('conditional');
    const user = userEvent.setup();
    await user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'not-the-password');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(screen.getByText('Wrong e-mail or password.')).toBeTruthy());
    await waitFor(() => expect(requests).toHaveLength(2));
    expect(requests[0]?.aborted()).toBe(true);
    expect(waiting()).toHaveLength(1);
    expect(requests[1]?.mediation).toBe('conditional');
  });

  it('stops while an e-mailed code is sent, and starts again in the e-mail field when sending fails or the code is given up', async () => {
    let sends = 0;
    const service = renderSignIn(
      {
        'POST /auth/otp/send-sign-in-code': () => {
          sends += 1;
          return sends === 1 ? knownErrorAnswer('USER_EMAIL_ALREADY_EXISTS') : jsonAnswer({ nonce: 'n'.repeat(39) });
        },
        'POST /auth/otp/sign-in': () => knownErrorAnswer('VERIFICATION_CODE_NOT_FOUND'),
      },
      { magic_link_enabled: true, credential_enabled: false },
    );
    await screen.findByRole('button', { name: 'Send me a code' }, { timeout: 5_000 });
    const email = screen.getByLabelText('E-mail');
    expect(email.getAttribute('autocomplete')).toBe('username webauthn');
    await waitFor(() => expect(requests).toHaveLength(1));
    const user = userEvent.setup();
    await user.type(email, 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send me a code' }));
    await waitFor(() => expect(requests).toHaveLength(2));
    expect(waiting()).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Send me a code' }));
    const code = await screen.findByLabelText('Code from the e-mail');
    expect(waiting()).toHaveLength(0);
    await user.type(code, 'k7m2xq');
    await waitFor(() => expect(service.calls).toContain('POST /auth/otp/sign-in'));
    await waitFor(() => expect(code.getAttribute('aria-invalid')).toBe('true'));
    expect(waiting()).toHaveLength(0); // no field to offer passkeys in
    await user.click(screen.getByRole('button', { name: 'Use another e-mail' }));
    await waitFor(() => expect(requests).toHaveLength(3));
    expect(waiting()).toHaveLength(1);
  });
});
