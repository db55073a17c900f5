// @vitest-environment node
import '../test-support/dom-in-node.js';
import { KnownError } from '@latchkey/protocol';
import type { TestService } from '@latchkey/server/testing';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { createRef, type ReactNode, StrictMode } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { LatchkeyProvider } from '../provider.js';
import { axeViolations } from '../test-support/axe.js';
import { createFakeApp, deferred, visit } from '../test-support/fake-app.js';
import { lastMailTo, linkCodeOf, realApp, startRealService, uniqueEmail } from '../test-support/real-app.js';
import { EmailVerification } from './email-verification.js';
import { ForgotPassword } from './forgot-password.js';
import { PasswordReset } from './password-reset.js';

afterEach(cleanup);
beforeEach(() => visit('/handler/somewhere'));

const code = 'a'.repeat(45);
const title = () => screen.getByRole('heading', { level: 1 }).textContent;

function renderWith(page: ReactNode, fake = createFakeApp()) {
  render(<LatchkeyProvider app={fake.app}>{page}</LatchkeyProvider>);
  return fake.mocks;
}

describe('ForgotPassword', () => {
  it('checks the address, sends the link, then says "Check your inbox" with a way back to sign-in', async () => {
    const app = renderWith(<ForgotPassword />);
    expect(title()).toBe('Reset your password');
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(screen.getByLabelText('E-mail').getAttribute('aria-invalid')).toBe('true');
    expect(document.activeElement).toBe(screen.getByLabelText('E-mail'));
    expect(app.sendForgotPasswordEmail).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: ' ada@example.com ' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(app.sendForgotPasswordEmail).toHaveBeenCalledWith('ada@example.com');
    await act(async () => {});
    expect(title()).toBe('Check your inbox');
    expect(screen.getByRole('status').textContent).toContain('If an account uses ada@example.com');
    expect(screen.getByRole('link', { name: 'Back to sign in' }).getAttribute('href')).toBe('/handler/sign-in');
    expect(await axeViolations()).toEqual([]);
  });

  it('shows a refusal in its alert region, busy button meanwhile', async () => {
    const app = renderWith(<ForgotPassword messages={{ REDIRECT_URL_NOT_WHITELISTED: 'Pas ce domaine.' }} />);
    const answer = deferred<void>();
    app.sendForgotPasswordEmail.mockReturnValueOnce(answer.promise);
    fireEvent.change(screen.getByLabelText('E-mail'), { target: { value: 'ada@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send reset link' }));
    expect(screen.getByRole('button', { name: 'Sending…' }).getAttribute('aria-busy')).toBe('true');
    await act(async () => answer.reject(new KnownError('REDIRECT_URL_NOT_WHITELISTED')));
    expect(screen.getByRole('alert').textContent).toBe('Pas ce domaine.');
    expect(title()).toBe('Reset your password');
    expect(await axeViolations()).toEqual([]);
  });

  it('is used with the keyboard alone, and forwards ref and props', async () => {
    const ref = createRef<HTMLDivElement>();
    const app = renderWith(<ForgotPassword ref={ref} data-testid="page" />);
    expect(ref.current).toBe(screen.getByTestId('page'));
    const keys = userEvent.setup();
    await keys.tab();
    expect(document.activeElement).toBe(screen.getByLabelText('E-mail'));
    await keys.keyboard('ada@example.com{Enter}');
    expect(app.sendForgotPasswordEmail).toHaveBeenCalledWith('ada@example.com');
  });
});

describe('PasswordReset', () => {
  it('checks the code on arrival, then takes the new password twice and offers to sign in', async () => {
    visit(`/handler/password-reset?code=${code}`);
    const app = renderWith(<PasswordReset />);
    expect(screen.getByRole('status').textContent).toBe('Checking your link…');
    await act(async () => {});
    expect(app.verifyPasswordResetCode).toHaveBeenCalledWith(code);
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
    expect(app.resetPassword).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText('Confirm new password'), { target: { value: 'new-horse-battery' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save new password' }));
    await act(async () => {});
    expect(app.resetPassword).toHaveBeenCalledWith({ code, password: 'new-horse-battery' });
    expect(title()).toBe('Password changed');
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/handler/sign-in');
  });

  it.each([
    ['VERIFICATION_CODE_NOT_FOUND', 'This link does not work'],
    ['VERIFICATION_CODE_EXPIRED', 'This link has expired'],
    ['VERIFICATION_CODE_ALREADY_USED', 'This link was already used'],
  ] as const)('says so when the code is %s, with a way to ask for a new link', async (error, heading) => {
    visit(`/handler/password-reset?code=${code}`);
    const fake = createFakeApp();
    fake.mocks.verifyPasswordResetCode.mockRejectedValueOnce(new KnownError(error));
    renderWith(<PasswordReset />, fake);
    await act(async () => {});
    expect(title()).toBe(heading);
    expect(screen.getByRole('link', { name: 'Ask for a new link' }).getAttribute('href')).toBe(
      '/handler/forgot-password',
    );
    expect(await axeViolations()).toEqual([]);
  });

  it('says the link does not work when it has no code, without calling the service', async () => {
    visit('/handler/password-reset');
    const app = renderWith(<PasswordReset />);
    await act(async () => {});
    expect(title()).toBe('This link does not work');
    expect(app.verifyPasswordResetCode).not.toHaveBeenCalled();
  });

  it('turns to the used-link card when the code was used meanwhile', async () => {
    visit(`/handler/password-reset?code=${code}`);
    const app = renderWith(<PasswordReset />);
    await act(async () => {});
    app.resetPassword.mockRejectedValueOnce(new KnownError('VERIFICATION_CODE_ALREADY_USED'));
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
    const fake = createFakeApp();
    render(
      <StrictMode>
        <LatchkeyProvider app={fake.app}>
          <EmailVerification />
        </LatchkeyProvider>
      </StrictMode>,
    );
    expect(screen.getByRole('status').textContent).toBe('Checking your link…');
    expect(await axeViolations()).toEqual([]);
    await act(async () => {});
    expect(fake.mocks.verifyEmail).toHaveBeenCalledTimes(1);
    expect(fake.mocks.verifyEmail).toHaveBeenCalledWith(code);
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
    const fake = createFakeApp();
    fake.mocks.verifyEmail.mockRejectedValueOnce(new KnownError(error));
    renderWith(<EmailVerification />, fake);
    await act(async () => {});
    expect(title()).toBe(heading);
    expect(screen.getByRole('region').textContent).toContain(text);
    expect(await axeViolations()).toEqual([]);
  });

  it('offers to try again after a failure that may pass, from the keyboard', async () => {
    const fake = createFakeApp();
    fake.mocks.verifyEmail.mockRejectedValueOnce(new Error('Could not reach the Latchkey service.'));
    renderWith(<EmailVerification code={code} />, fake);
    await act(async () => {});
    expect(screen.getByRole('alert').textContent).toBe('Could not reach the Latchkey service.');
    const keys = userEvent.setup();
    await keys.tab();
    await keys.keyboard('{Enter}');
    await act(async () => {});
    expect(fake.mocks.verifyEmail).toHaveBeenCalledTimes(2);
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
