// @vitest-environment node
import '../test-support/dom-in-node.js';
import type { TestService } from '@latchkey/server/testing';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { createRef, type ReactNode, StrictMode } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LatchkeyProvider } from '../provider.js';
import {
  type Answer,
  answeringApp,
  heldAnswer,
  jsonAnswer,
  knownErrorAnswer,
  type SentRequest,
} from '../test-support/answering-app.js';
import { axeViolations } from '../test-support/axe.js';
import { visit } from '../test-support/page.js';
import { lastMailTo, linkCodeOf, realApp, startRealService, uniqueEmail } from '../test-support/real-app.js';
import { EmailVerification } from './email-verification.js';
import { ForgotPassword } from './forgot-password.js';
import { PasswordReset } from './password-reset.js';

afterEach(cleanup);
beforeEach(() => visit('/handler/somewhere'));

const code = 'a'.repeat(45);
const title = () => screen.getByRole('heading', { level: 1 }).textContent;

/** The service's answer to every call the pages make: done. */
const done: Answer = () => jsonAnswer({ success: true });

function renderWith(page: ReactNode, answer: Answer = done) {
  const answering = answeringApp(answer);
  render(<LatchkeyProvider app={answering.app}>{page}</LatchkeyProvider>);
  return answering.requests;
}

/** The bodies of the requests sent to `path`. */
const sentTo = (requests: SentRequest[], path: string) =>
  requests.filter((request) => request.path === path).map((request) => request.body);
const resetLink = '/auth/password/send-reset-code';
const callbackUrl = 'http://localhost:3000/handler/password-reset';

describe('ForgotPassword', () => {
  it('checks the address, sends the link, then says "Check your inbox" with a way back to sign-in', async () => {
    const requests = renderWith(<ForgotPassword />);
    expect(title()).toBe('Reset your password');
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(screen.getByLabelText('E-mail').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(screen.getByLabelText('E-mail'));
    expect(requests).toEqual([]);
    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: ' ada@example.com ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    // The e-mail flows' code loads on the first call: wait for the request.
    await waitFor(() => expect(title()).toBe('Check your inbox'));
    expect(sentTo(requests, resetLink)).toEqual([{ email: 'ada@example.com', callback_url: callbackUrl }]);
    expect(screen.getByRole('status').textContent).toContain('If an account uses ada@example.com');
    expect(screen.getByRole('link', { name: 'Back to sign in' }).getAttribute('href')).toBe('/handler/sign-in');
    expect(await axeViolations()).toEqual([]);
  });

  it('shows a refusal in its alert region, busy button meanwhile', async () => {
    const answer = heldAnswer();
    renderWith(<ForgotPassword messages={{ REDIRECT_URL_NOT_WHITELISTED: 'Pas ce domaine.' }} />, () => answer.promise);
    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: 'ada@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(screen.getByRole('button', { name: 'Sending…' }).getAttribute('aria-busy')).toBe('true');
    await act(async () => answer.release(knownErrorAnswer('REDIRECT_URL_NOT_WHITELISTED')));
    expect(screen.getByRole('alert').textContent).toBe('Pas ce domaine.');
    expect(title()).toBe('Reset your password');
    expect(await axeViolations()).toEqual([]);
  });

  it('is used with the keyboard alone, and forwards ref and props', async () => {
    const ref = createRef<HTMLDivElement>();
    const requests = renderWith(<ForgotPassword ref={ref} data-testid="page" />);
    expect(ref.current).toBe(screen.getByTestId('page'));
    const keys = userEvent.setup();
    await keys.tab();
    expect(document.activeElement).toBe(screen.getByLabelText('E-mail'));
    await keys.keyboard('ada@example.com{Enter}');
    expect(sentTo(requests, resetLink)).toEqual([{ email: 'ada@example.com', callback_url: callbackUrl }]);
  });
});

describe('PasswordReset', () => {
  it('checks the code on arrival, then takes the new password twice and offers to sign in', async () => {
    visit(`/handler/password-reset?code=${code}`);
    const requests = renderWith(<PasswordReset />);
    expect(screen.getByRole('status').textContent).toBe('Checking your link…');
    await act(async () => {});
    expect(sentTo(requests, '/auth/password/reset/check-code')).toEqual([{ code }]);
    expect(await axeViolations()).toEqual([]);
    const keys = userEvent.setup();
    await keys.tab();
    expect(document.activeElement).toBe(screen.getByLabelText('New password'));
    await keys.keyboard('short');
    await keys.tab(); // the show/hide toggle
    await keys.tab();
    expect(document.activeElement).toBe(screen.getByLabelText('Confirm new password'));
    await keys.keyboard('short{Enter}');
    expect(screen.getByLabelText('New password').getAttribute('aria-invalid')).toBe('true');
    expect(await axeViolations()).toEqual([]);
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'new-horse-battery' } });
    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: 'new-horse-batterz' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save new password' }));
    expect(screen.getByText('The two passwords are not the same.')).toBeTruthy();
    expect(document.activeElement).toBe(screen.getByLabelText('Confirm new password'));
    expect(sentTo(requests, '/auth/password/reset')).toEqual([]);
    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: 'new-horse-battery' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save new password' }));
    await act(async () => {});
    expect(sentTo(requests, '/auth/password/reset')).toEqual([{ code, password: 'new-horse-battery' }]);
    expect(title()).toBe('Password changed');
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/handler/sign-in');
  });

  it.each([
    ['VERIFICATION_CODE_NOT_FOUND', 'This link does not work'],
    ['VERIFICATION_CODE_EXPIRED', 'This link has expired'],
    ['VERIFICATION_CODE_ALREADY_USED', 'This link was already used'],
  ] as const)('says so when the code is %s, with a way to ask for a new link', async (error, heading) => {
    visit(`/handler/password-reset?code=${code}`);
    renderWith(<PasswordReset />, () => knownErrorAnswer(error));
    await act(async () => {});
    expect(title()).toBe(heading);
    expect(screen.getByRole('link', { name: 'Ask for a new link' }).getAttribute('href')).toBe(
      '/handler/forgot-password',
    );
    expect(await axeViolations()).toEqual([]);
  });

  it('says the link does not work when it has no code, without calling the service', async () => {
    visit('/handler/password-reset');
    const requests = renderWith(<PasswordReset />);
    await act(async () => {});
    expect(title()).toBe('This link does not work');
    expect(requests).toEqual([]);
  });

  it('turns to the used-link card when the code was used meanwhile', async () => {
    visit(`/handler/password-reset?code=${code}`);
    renderWith(<PasswordReset />, (request) =>
      request.path === '/auth/password/reset' ? knownErrorAnswer('VERIFICATION_CODE_ALREADY_USED') : done(request),
    );
    await act(async () => {});
    fireEvent.change(screen.getByLabelText('New password'), { target: { value: 'new-horse-battery' } });
    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: 'new-horse-battery' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save new password' }));
    await act(async () => {});
    expect(title()).toBe('This link was already used');
  });
});

describe('EmailVerification', () => {
  it('verifies once under StrictMode, then says the address is verified', async () => {
    visit(`/handler/email-verification?code=${code}`);
    const { app, requests } = answeringApp(done);
    render(
      <StrictMode>
        <LatchkeyProvider app={app}>
          <EmailVerification />
        </LatchkeyProvider>
      </StrictMode>,
    );
    expect(screen.getByRole('status').textContent).toBe('Checking your link…');
    expect(await axeViolations()).toEqual([]);
    await act(async () => {});
    expect(sentTo(requests, '/contact-channels/verify')).toEqual([{ code }]);
    expect(title()).toBe('E-mail verified');
    expect(screen.getByRole('link', { name: 'Continue' }).getAttribute('href')).toBe('/');
    expect(await axeViolations()).toEqual([]);
  });

  it.each([
    ['VERIFICATION_CODE_NOT_FOUND', 'This link does not work', 'It may be incomplete.'],
    ['VERIFICATION_CODE_EXPIRED', 'This link has expired', 'limited time'],
    ['VERIFICATION_CODE_ALREADY_USED', 'This link was already used', 'most likely verified already'],
  ] as const)('shows the %s state', async (error, heading, text) => {
    visit(`/handler/email-verification?code=${code}`);
    renderWith(<EmailVerification />, () => knownErrorAnswer(error));
    await act(async () => {});
    expect(title()).toBe(heading);
    expect(screen.getByRole('region').textContent).toContain(text);
    expect(await axeViolations()).toEqual([]);
  });

  it('offers to try again after a failure that may pass, from the keyboard', async () => {
    // The network is down for the first call, back for the second.
    let down = true;
    const requests = renderWith(<EmailVerification code={code} />, (request) => {
      if (!down) return done(request);
      down = false;
      return undefined;
    });
    await act(async () => {});
    expect(screen.getByRole('alert').textContent).toBe(
      'Could not reach the Latchkey service at https://auth.example.com/api/v1/contact-channels/verify.',
    );
    const keys = userEvent.setup();
    await keys.tab();
    expect(document.activeElement).toBe(screen.getByRole('button', { name: 'Try again' }));
    await keys.keyboard('{Enter}');
    await act(async () => {});
    expect(sentTo(requests, '/contact-channels/verify')).toEqual([{ code }, { code }]);
    expect(title()).toBe('E-mail verified');
  });
});

describe('the e-mail pages on the real service', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startRealService();
  });
  afterAll(async () => {
    await service?.close();
  });

  it('verifies the address of the sign-up mail, and says a second visit found the link used', async () => {
    const { app } = realApp(service);
    const email = uniqueEmail('verify');
    await app.signUpWithCredential({
      email,
      password: 'correct-horse-battery',
      noRedirect: true,
      verificationCallbackUrl: 'http://localhost:3000/handler/email-verification',
    });
    const linkCode = linkCodeOf(await lastMailTo(service, email));
    render(
      <StrictMode>
        <LatchkeyProvider app={app}>
          <EmailVerification code={linkCode} />
        </LatchkeyProvider>
      </StrictMode>,
    );
    expect(await screen.findByRole('heading', { name: 'E-mail verified' }, { timeout: 10_000 })).toBeTruthy();
    expect((await app.getUser())?.primaryEmailVerified).toBe(true);
    cleanup();
    render(
      <LatchkeyProvider app={realApp(service).app}>
        <EmailVerification code={linkCode} />
      </LatchkeyProvider>,
    );
    expect(
      await screen.findByRole('heading', { name: 'This link was already used' }, { timeout: 10_000 }),
    ).toBeTruthy();
  });

  it('resets a forgotten password through the mailed link; the new one signs in', async () => {
    const email = uniqueEmail('reset');
    await realApp(service).app.signUpWithCredential({ email, password: 'correct-horse-battery', noRedirect: true });
    const { app } = realApp(service);
    render(
      <LatchkeyProvider app={app}>
        <ForgotPassword />
      </LatchkeyProvider>,
    );
    const keys = userEvent.setup();
    await keys.type(screen.getByLabelText('E-mail'), `${email}{Enter}`);
    expect(await screen.findByRole('heading', { name: 'Check your inbox' }, { timeout: 10_000 })).toBeTruthy();
    const linkCode = linkCodeOf(await lastMailTo(service, email));
    cleanup();
    visit(`/handler/password-reset?code=${linkCode}`);
    render(
      <LatchkeyProvider app={app}>
        <PasswordReset />
      </LatchkeyProvider>,
    );
    await keys.type(await screen.findByLabelText('New password', {}, { timeout: 10_000 }), 'brand-new-battery');
    await keys.type(screen.getByLabelText('Confirm new password'), 'brand-new-battery{Enter}');
    expect(await screen.findByRole('heading', { name: 'Password changed' }, { timeout: 10_000 })).toBeTruthy();
    await expect(
      app.signInWithCredential({ email, password: 'brand-new-battery', noRedirect: true }),
    ).resolves.toMatchObject({ newUser: false });
  });

  it('says an unknown reset code does not work', async () => {
    const { app } = realApp(service);
    render(
      <LatchkeyProvider app={app}>
        <PasswordReset code={'z'.repeat(45)} />
      </LatchkeyProvider>,
    );
    expect(await screen.findByRole('heading', { name: 'This link does not work' }, { timeout: 10_000 })).toBeTruthy();
  });
});
