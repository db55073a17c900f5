/**
 * The second step of a sign-in on the real `ClientApp` over recorded answers:
 * after the password (and the e-mailed link) the code step, a wrong code, a
 * pasted code, a recovery code; under the project's requirement the forced
 * set-up (QR code, key, confirm, recovery codes, continue signed in).
 */
import { KnownError } from '@latchkey/protocol';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SignIn } from '../credential/credential-pages.js';
import { MagicLinkCallback } from '../magic-link/magic-link-callback.js';
import { OAuthCallback } from '../oauth/oauth-callback.js';
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

afterEach(cleanup);
beforeEach(() => visit('/handler/sign-in'));

const attemptCode = 'attempt-code-of-the-first-factor-0123456789abc';
const secondFactor = (code: 'MULTI_FACTOR_AUTHENTICATION_REQUIRED' | 'MULTI_FACTOR_AUTHENTICATION_SETUP_REQUIRED') =>
  knownErrorAnswer(new KnownError(code, { attempt_code: attemptCode }));

/** The project, a password the service accepts as a first factor, and `more`. */
function serviceOf(first: () => Response, more: Answers = {}) {
  return answeringApp({
    'GET /projects/current': () => jsonAnswer(recordedAnswers.project),
    'POST /auth/password/sign-in': first,
    ...more,
  });
}

async function signInWithPassword(app: ReturnType<typeof serviceOf>['app']) {
  const user = userEvent.setup();
  render(
    <LatchkeyProvider app={app}>
      <SignIn />
    </LatchkeyProvider>,
  );
  await user.type(screen.getByLabelText('E-mail'), 'ada@example.com');
  await user.type(screen.getByLabelText('Password'), 'correct-horse-battery');
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  return user;
}

const alertText = () =>
  screen
    .getAllByRole('alert')
    .map((region) => region.textContent)
    .join(' ');

describe('the code step', () => {
  it('takes the focus after the password, refuses a wrong code, and signs in with a pasted one', async () => {
    let tries = 0;
    const service = serviceOf(() => secondFactor('MULTI_FACTOR_AUTHENTICATION_REQUIRED'), {
      'POST /auth/mfa/sign-in': () => {
        tries += 1;
        return tries === 1 ? knownErrorAnswer('INVALID_TOTP_CODE') : jsonAnswer(recordedAnswers.signUp);
      },
    });
    const user = await signInWithPassword(service.app);
    const field = await screen.findByLabelText('Code from your authenticator app', {}, { timeout: 5_000 });
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe('Two-step sign-in');
    expect(document.activeElement).toBe(field);
    expect(field.getAttribute('inputmode')).toBe('numeric');
    expect(field.getAttribute('autocomplete')).toBe('one-time-code');
    expect(await axeViolations()).toEqual([]);

    // The sixth digit sends it.
    await user.type(field, '123456');
    await waitFor(() => expect(alertText()).toContain('Invalid code. Check your authenticator app and try again.'));
    expect((field as HTMLInputElement).value).toBe('');
    expect(document.activeElement).toBe(field);

    await user.paste('654 321');
    await waitFor(() => expect(service.navigations).toEqual(['/']));
    const sent = service.requests.filter((request) => request.path === '/auth/mfa/sign-in').map((r) => r.body);
    expect(sent).toEqual([
      { code: attemptCode, type: 'totp', totp: '123456' },
      { code: attemptCode, type: 'totp', totp: '654321' },
    ]);
  });

  it('switches to a recovery code, and back to the sign-in form', async () => {
    const service = serviceOf(() => secondFactor('MULTI_FACTOR_AUTHENTICATION_REQUIRED'), {
      'POST /auth/mfa/sign-in': () => jsonAnswer(recordedAnswers.signUp),
    });
    const user = await signInWithPassword(service.app);
    await screen.findByLabelText('Code from your authenticator app', {}, { timeout: 5_000 });
    await user.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    const field = screen.getByLabelText('Recovery code');
    expect(document.activeElement).toBe(field);
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(screen.getByText('Enter one of your recovery codes.')).toBeTruthy();
    await user.type(field, 'a7k2-9mqx-4tz8-p3wd{Enter}');
    await waitFor(() => expect(service.navigations).toHaveLength(1));
    expect(service.requests.at(-1)?.body).toEqual({
      code: attemptCode,
      type: 'recovery_code',
      recovery_code: 'a7k2-9mqx-4tz8-p3wd',
    });
  });

  it('goes back to the password form, its e-mail kept and focused', async () => {
    const service = serviceOf(() => secondFactor('MULTI_FACTOR_AUTHENTICATION_REQUIRED'));
    const user = await signInWithPassword(service.app);
    await screen.findByLabelText('Code from your authenticator app', {}, { timeout: 5_000 });
    await user.click(screen.getByRole('button', { name: 'Back to sign in' }));
    const email = screen.getByLabelText('E-mail') as HTMLInputElement;
    expect(email.value).toBe('ada@example.com');
    expect(document.activeElement).toBe(email);
  });

  it('follows an e-mailed sign-in link too', async () => {
    visit(`/handler/magic-link-callback?code=${'c'.repeat(45)}`);
    const service = answeringApp({
      'POST /auth/otp/sign-in': () => secondFactor('MULTI_FACTOR_AUTHENTICATION_REQUIRED'),
      'POST /auth/mfa/sign-in': () => jsonAnswer(recordedAnswers.signUp),
    });
    render(
      <LatchkeyProvider app={service.app}>
        <MagicLinkCallback />
      </LatchkeyProvider>,
    );
    const field = await screen.findByLabelText('Code from your authenticator app', {}, { timeout: 5_000 });
    fireEvent.change(field, { target: { value: '111222' } });
    await waitFor(() => expect(service.navigations).toHaveLength(1));
    expect(service.calls).toContain('POST /auth/mfa/sign-in');
  });

  it('follows the OAuth callback, a refused code in the callback’s words', async () => {
    const service = answeringApp({
      'POST /auth/oauth/token': () => secondFactor('MULTI_FACTOR_AUTHENTICATION_REQUIRED'),
      'POST /auth/mfa/sign-in': () => knownErrorAnswer('INVALID_TOTP_CODE'),
    });
    void service.app.signInWithOAuth('github');
    await waitFor(() => expect(service.navigations).toHaveLength(1));
    const state = new URL(service.navigations[0]!).searchParams.get('state');
    visit(`/handler/oauth-callback?code=c&state=${state}`);
    render(
      <LatchkeyProvider app={service.app}>
        <OAuthCallback />
      </LatchkeyProvider>,
    );
    const field = await screen.findByLabelText('Code from your authenticator app', {}, { timeout: 5_000 });
    fireEvent.change(field, { target: { value: '123456' } });
    await waitFor(() => expect(alertText()).toContain('Invalid TOTP code. Please try signing in again.'));
  });

  it('ends an OAuth sign-in where it asked to, also after the code step', async () => {
    const service = answeringApp({
      'POST /auth/oauth/token': () => secondFactor('MULTI_FACTOR_AUTHENTICATION_REQUIRED'),
      'POST /auth/mfa/sign-in': () => jsonAnswer(recordedAnswers.signUp),
    });
    void service.app.signInWithOAuth('github', { returnTo: '/orders/7' });
    await waitFor(() => expect(service.navigations).toHaveLength(1));
    const state = new URL(service.navigations[0]!).searchParams.get('state');
    visit(`/handler/oauth-callback?code=c&state=${state}`);
    render(
      <LatchkeyProvider app={service.app}>
        <OAuthCallback />
      </LatchkeyProvider>,
    );
    const field = await screen.findByLabelText('Code from your authenticator app', {}, { timeout: 5_000 });
    fireEvent.change(field, { target: { value: '123456' } });
    await waitFor(() => expect(service.navigations).toHaveLength(2));
    expect(service.navigations[1]).toBe('/orders/7');
  });
});

describe('the forced set-up', () => {
  it('shows the QR code and the key, confirms a code, shows the recovery codes once, then goes on signed in', async () => {
    let confirms = 0;
    const service = serviceOf(() => secondFactor('MULTI_FACTOR_AUTHENTICATION_SETUP_REQUIRED'), {
      'POST /auth/mfa/setup': () => jsonAnswer(recordedAnswers.totpEnrolment),
      // Nobody is signed in until the set-up is confirmed (the sign-in page sends somebody signed in on).
      'GET /users/me': () =>
        confirms > 1 ? jsonAnswer(userAnswer()) : knownErrorAnswer('CANNOT_GET_OWN_USER_WITHOUT_USER'),
      'POST /auth/mfa/setup/confirm': () => {
        confirms += 1;
        return confirms === 1
          ? knownErrorAnswer('INVALID_TOTP_CODE')
          : jsonAnswer({ ...recordedAnswers.signUp, ...recordedAnswers.recoveryCodes });
      },
    });
    const user = await signInWithPassword(service.app);
    expect(await screen.findByRole('heading', { level: 1, name: 'Set up two-step sign-in' })).toBeTruthy();
    const qr = await screen.findByRole('img', { name: 'QR code for your authenticator app' }, { timeout: 5_000 });
    await waitFor(() => expect(qr.ownerDocument.querySelector('svg.lk-qr path')?.getAttribute('d')).toMatch(/^M/));
    expect(screen.getByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')).toBeTruthy();
    const field = screen.getByLabelText('Code from the app, to confirm');
    await waitFor(() => expect(document.activeElement).toBe(field));
    expect(await axeViolations()).toEqual([]);

    await user.type(field, '000000');
    await waitFor(() =>
      expect(screen.getByText('Invalid code. Check your authenticator app and try again.')).toBeTruthy(),
    );
    await user.type(field, '123456');
    const list = await screen.findByRole('list', { name: 'Recovery codes' });
    expect(list.querySelectorAll('li')).toHaveLength(10);
    expect(document.activeElement?.textContent).toBe('Save your recovery codes');
    expect(service.navigations).toEqual([]); // the codes first
    const download = screen.getByRole('link', { name: 'Download as .txt' });
    expect(download.getAttribute('download')).toBe('recovery-codes.txt');
    expect(decodeURIComponent(download.getAttribute('href') ?? '')).toBe(
      `data:text/plain;charset=utf-8,${recordedAnswers.recoveryCodes.recovery_codes.join('\n')}\n`,
    );
    await user.click(screen.getByRole('button', { name: 'Copy codes' }));
    await waitFor(() => expect(screen.getByText('The codes are copied.')).toBeTruthy());
    // user-event's clipboard stands in for the browser's.
    expect((await navigator.clipboard.readText()).split('\n')).toContain('a7k2-9mqx-4tz8-p3wd');
    expect(await axeViolations()).toEqual([]);

    await act(() => user.click(screen.getByRole('button', { name: 'I saved them, continue' })));
    await waitFor(() => expect(service.navigations).toEqual(['/']));
    // Signed in: the session is stored, so the SDK asks for the user.
    expect((await service.app.getUser())?.displayName).toBe('Ada Lovelace');
    expect(service.requests.filter((r) => r.path === '/auth/mfa/setup')).toHaveLength(1);
  });

  it('continues to the sign-in page’s after_auth_return_to once the codes are kept', async () => {
    visit('/handler/sign-in?after_auth_return_to=%2Fbilling%3Ftab%3Dcards');
    let confirmed = false;
    const service = serviceOf(() => secondFactor('MULTI_FACTOR_AUTHENTICATION_SETUP_REQUIRED'), {
      'POST /auth/mfa/setup': () => jsonAnswer(recordedAnswers.totpEnrolment),
      'GET /users/me': () =>
        confirmed ? jsonAnswer(userAnswer()) : knownErrorAnswer('CANNOT_GET_OWN_USER_WITHOUT_USER'),
      'POST /auth/mfa/setup/confirm': () => {
        confirmed = true;
        return jsonAnswer({ ...recordedAnswers.signUp, ...recordedAnswers.recoveryCodes });
      },
    });
    const user = await signInWithPassword(service.app);
    const field = await screen.findByLabelText('Code from the app, to confirm', {}, { timeout: 5_000 });
    await user.type(field, '123456');
    await screen.findByRole('list', { name: 'Recovery codes' });
    expect(service.navigations).toEqual([]);
    await act(() => user.click(screen.getByRole('button', { name: 'I saved them, continue' })));
    await waitFor(() => expect(service.navigations).toEqual(['/billing?tab=cards']));
  });
});
