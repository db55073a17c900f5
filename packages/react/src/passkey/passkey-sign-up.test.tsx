/**
 * The sign-up page's passkey sign-up on the real `ClientApp` over recorded
 * answers, in a page whose WebAuthn API is a stand-in: the button shows only
 * when the project has passkeys and e-mailed codes; the e-mail, the code, then
 * the passkey and on to where the sign-up ends; a refused passkey offers
 * "Try again" (the passkey only) and "Continue without a passkey".
 */
import { KnownError } from '@latchkey/protocol';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SignIn, SignUp } from '../credential/credential-pages.js';
import { LatchkeyProvider } from '../provider.js';
import {
  type Answers,
  answeringApp,
  jsonAnswer,
  knownErrorAnswer,
  recordedAnswers,
  userAnswer,
} from '../test-support/answering-app.js';
import { axeViolations } from '../test-support/axe.js';
import { visit } from '../test-support/page.js';

const globals = globalThis as { PublicKeyCredential?: unknown };
/** What the stand-in's next `navigator.credentials.create` calls do, in turn: make a passkey, or refuse. */
let creations: ('make' | 'refuse')[];
let created: number;

const buffer = (text: string) => new TextEncoder().encode(text).buffer;
/** A credential as a browser hands it over (the service is not asked to check it here). */
const credential = {
  id: 'cred-1',
  rawId: buffer('cred-1'),
  type: 'public-key',
  response: { clientDataJSON: buffer('{}'), attestationObject: buffer('attestation') },
  getClientExtensionResults: () => ({}),
};

beforeEach(() => {
  visit('/handler/sign-up?after_auth_return_to=%2Fprivate');
  creations = [];
  created = 0;
  globals.PublicKeyCredential = () => {};
  Object.defineProperty(navigator, 'credentials', {
    configurable: true,
    value: {
      create: async () => {
        created += 1;
        if (creations.shift() === 'refuse') throw new DOMException('The operation was cancelled.', 'NotAllowedError');
        return credential;
      },
    },
  });
});
afterEach(() => {
  cleanup();
  delete globals.PublicKeyCredential;
  Reflect.deleteProperty(navigator, 'credentials');
});

const { project } = recordedAnswers;
const passkeysAndCodes = { passkey_enabled: true, magic_link_enabled: true };

/** The sign-up page (or `page`) on a project with `config` over the recorded one; a service that accepts the flow. */
function renderPage(config: Record<string, boolean>, more: Answers = {}, page: 'sign-up' | 'sign-in' = 'sign-up') {
  // Nobody is signed in until the code signs the new account in (the page sends somebody signed in on).
  let signedIn = false;
  const service = answeringApp(
    {
      'GET /projects/current': () => jsonAnswer({ ...project, config: { ...project.config, ...config } }),
      'POST /auth/otp/send-sign-in-code': () => jsonAnswer({ nonce: 'n'.repeat(39) }),
      'POST /auth/otp/sign-in': () => {
        signedIn = true;
        return jsonAnswer({ ...recordedAnswers.signUp, is_new_user: true });
      },
      'GET /users/me': () =>
        signedIn ? jsonAnswer(userAnswer()) : knownErrorAnswer('CANNOT_GET_OWN_USER_WITHOUT_USER'),
      'POST /auth/passkey/initiate-passkey-registration': () => jsonAnswer(recordedAnswers.passkeyRegistrationStarted),
      'POST /auth/passkey/register': () => jsonAnswer({}),
      'GET /users/me/passkeys': () => jsonAnswer(recordedAnswers.passkeyList),
      ...more,
    },
    { urls: { afterSignUp: '/welcome', afterSignIn: '/dashboard' } },
  );
  const Page = page === 'sign-up' ? SignUp : SignIn;
  render(
    <LatchkeyProvider app={service.app}>
      <Page />
    </LatchkeyProvider>,
  );
  return service;
}

/** Up to the code: the button, the e-mail, "Send me a code"; then the code, typed. */
async function throughTheCode() {
  const user = userEvent.setup();
  await user.click(await screen.findByRole('button', { name: 'Sign up with a passkey' }, { timeout: 5_000 }));
  const email = await screen.findByLabelText('E-mail', {}, { timeout: 5_000 });
  await waitFor(() => expect(document.activeElement).toBe(email), { timeout: 5_000 });
  expect(screen.queryByLabelText('Password')).toBeNull();
  await user.type(email, 'ada@example.com');
  await user.click(screen.getByRole('button', { name: 'Send me a code' }));
  const code = await screen.findByLabelText('Code from the e-mail', {}, { timeout: 5_000 });
  expect(document.activeElement).toBe(code);
  expect(await axeViolations()).toEqual([]);
  expect(screen.getByText(/We sent a six-character code to ada@example\.com\. Type it below/)).toBeTruthy();
  await user.type(code, 'K7M2XQ'); // the sixth character sends it
  return user;
}

describe('the passkey sign-up of the sign-up page', () => {
  it('is offered only when the project has both passkeys and e-mailed codes, and never on sign-in', async () => {
    for (const config of [{ passkey_enabled: true }, { magic_link_enabled: true }] as Record<string, boolean>[]) {
      renderPage(config);
      await screen.findByRole('heading', { name: 'Sign up for Test project' }, { timeout: 5_000 });
      expect(screen.queryByRole('button', { name: 'Sign up with a passkey' })).toBeNull();
      cleanup();
    }
    renderPage(passkeysAndCodes, {}, 'sign-in');
    await screen.findByRole('button', { name: 'Sign in with a passkey' }, { timeout: 5_000 });
    expect(screen.queryByRole('button', { name: 'Sign up with a passkey' })).toBeNull();
    cleanup();
    renderPage(passkeysAndCodes);
    expect(await screen.findByRole('button', { name: 'Sign up with a passkey' }, { timeout: 5_000 })).toBeTruthy();
    expect(screen.getByLabelText('Password')).toBeTruthy(); // the password form stays below
  });

  it('proves the e-mail with the code, creates the passkey at once, then goes to after_auth_return_to', async () => {
    const service = renderPage(passkeysAndCodes);
    await throughTheCode();
    await waitFor(() => expect(service.navigations).toEqual(['/private']), { timeout: 5_000 });
    expect(created).toBe(1);
    const sent = (call: string) => service.requests.find((request) => `${request.method} ${request.path}` === call);
    expect(sent('POST /auth/otp/send-sign-in-code')?.body).toMatchObject({ email: 'ada@example.com' });
    expect(sent('POST /auth/otp/sign-in')?.body).toEqual({ code: `k7m2xq${'n'.repeat(39)}` });
    expect(sent('POST /auth/passkey/register')?.body).toMatchObject({
      code: recordedAnswers.passkeyRegistrationStarted.code,
    });
    expect(service.calls.some((call) => call.startsWith('POST /auth/password'))).toBe(false);
  });

  it('offers "Try again" (the passkey only) and "Continue without a passkey" when the browser refuses it', async () => {
    creations = ['refuse', 'refuse'];
    const service = renderPage(passkeysAndCodes);
    const user = await throughTheCode();
    const alert = await screen.findByRole('alert');
    await waitFor(() => expect(alert.textContent).toMatch(/The operation was cancelled/), { timeout: 5_000 });
    const again = screen.getByRole('button', { name: 'Try again' });
    await waitFor(() => expect(document.activeElement).toBe(again), { timeout: 5_000 });
    expect(await axeViolations()).toEqual([]);
    await user.click(again);
    await waitFor(() => expect(created).toBe(2), { timeout: 5_000 });
    await screen.findByRole('button', { name: 'Try again' }, { timeout: 5_000 });
    // The account exists: trying again asked for no new code and signed in no new session.
    expect(service.calls.filter((call) => call.startsWith('POST /auth/otp/'))).toEqual([
      'POST /auth/otp/send-sign-in-code',
      'POST /auth/otp/sign-in',
    ]);
    expect(service.calls.filter((call) => call === 'POST /auth/passkey/initiate-passkey-registration')).toHaveLength(2);
    await user.click(screen.getByRole('button', { name: 'Continue without a passkey' }));
    await waitFor(() => expect(service.navigations).toEqual(['/private']), { timeout: 5_000 });
    expect(service.calls).not.toContain('POST /auth/passkey/register');
  });

  it('is the page itself when passwords are off, with no way back to a password', async () => {
    visit('/handler/sign-up');
    const service = renderPage({ ...passkeysAndCodes, credential_enabled: false });
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('E-mail', {}, { timeout: 5_000 }), 'ada@example.com');
    expect(screen.queryByRole('button', { name: 'Sign up with a passkey' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Use a password instead' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Send me a code' }));
    await user.type(await screen.findByLabelText('Code from the e-mail', {}, { timeout: 5_000 }), 'k7m2xq');
    await waitFor(() => expect(service.navigations).toEqual(['/welcome']), { timeout: 5_000 });
  });

  it('goes back to the password form, focus on its e-mail field, keeping what was typed', async () => {
    renderPage(passkeysAndCodes);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Sign up with a passkey' }, { timeout: 5_000 }));
    await user.type(await screen.findByLabelText('E-mail', {}, { timeout: 5_000 }), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Use a password instead' }));
    const email = await screen.findByLabelText('E-mail', {}, { timeout: 5_000 });
    expect(screen.getByLabelText('Password')).toBeTruthy();
    expect((email as HTMLInputElement).value).toBe('ada@example.com');
    await waitFor(() => expect(document.activeElement).toBe(email), { timeout: 5_000 });
  });

  it('hands an existing account with two-step sign-in to the second step, with no passkey made', async () => {
    renderPage(passkeysAndCodes, {
      'POST /auth/otp/sign-in': () =>
        knownErrorAnswer(new KnownError('MULTI_FACTOR_AUTHENTICATION_REQUIRED', { attempt_code: 'a'.repeat(45) })),
    });
    await throughTheCode();
    expect(await screen.findByRole('heading', { name: 'Two-step sign-in' }, { timeout: 5_000 })).toBeTruthy();
    expect(created).toBe(0);
  });
});
