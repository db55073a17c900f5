import { KnownError } from '@latchkey/protocol';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { StrictMode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { LatchkeyProvider } from '../provider.js';
import { axeViolations } from '../test-support/axe.js';
import { createFakeApp, fakeUser, visit } from '../test-support/fake-app.js';
import { Handler } from './handler.js';
import { handlerPageOf } from './handler-page.js';

afterEach(cleanup);

function renderHandler(path: string, fake = createFakeApp(), props: Parameters<typeof Handler>[0] = {}) {
  visit(path);
  render(
    <LatchkeyProvider app={fake.app} projectName="Acme">
      <Handler {...props} />
    </LatchkeyProvider>,
  );
  return fake;
}

const title = () => screen.getByRole('heading', { level: 1 }).textContent;

describe('Handler', () => {
  it('serves sign-in and sign-up under /handler', () => {
    renderHandler('/handler/sign-in');
    expect(title()).toBe('Sign in to Acme');
    cleanup();
    renderHandler('/handler/sign-up/');
    expect(title()).toBe('Sign up for Acme');
  });

  it('uses app.urls.handler, or the basePath prop', () => {
    renderHandler('/auth/sign-in', createFakeApp({ urls: { handler: '/auth' } }));
    expect(title()).toBe('Sign in to Acme');
    cleanup();
    renderHandler('/account/sign-up', createFakeApp(), { basePath: '/account/' });
    expect(title()).toBe('Sign up for Acme');
  });

  it('shows a "Page not found" card with a link home for other pages', () => {
    renderHandler('/handler/nope', createFakeApp({ urls: { home: '/start' } }));
    expect(title()).toBe('Page not found');
    expect(screen.getByRole('link', { name: 'Go to the home page' }).getAttribute('href')).toBe('/start');
  });

  it('serves the e-mail pages: forgot-password, password-reset, email-verification, magic-link-callback', async () => {
    renderHandler('/handler/forgot-password');
    expect(title()).toBe('Reset your password');
    cleanup();
    const fake = renderHandler(`/handler/password-reset?code=${'a'.repeat(45)}`);
    await act(async () => {});
    expect(fake.mocks.verifyPasswordResetCode).toHaveBeenCalledTimes(1);
    expect(title()).toBe('Choose a new password');
    cleanup();
    const verifying = renderHandler(`/handler/email-verification?code=${'b'.repeat(45)}`);
    await act(async () => {});
    expect(verifying.mocks.verifyEmail).toHaveBeenCalledWith('b'.repeat(45));
    expect(title()).toBe('E-mail verified');
    cleanup();
    const signingIn = renderHandler('/handler/magic-link-callback');
    await act(async () => {});
    expect(signingIn.mocks.signInWithMagicLink).not.toHaveBeenCalled();
    expect(title()).toBe('This link does not work');
  });

  it('follows back/forward navigation', () => {
    renderHandler('/handler/sign-in');
    act(() => {
      window.history.pushState(null, '', '/handler/sign-up');
      window.dispatchEvent(new PopStateEvent('popstate'));
    });
    expect(title()).toBe('Sign up for Acme');
  });

  it('signs out on sign-out, redirecting to after-sign-out, with a "Signing out…" state', async () => {
    const user = fakeUser();
    user.signOut.mockReturnValueOnce(new Promise(() => {}));
    renderHandler('/handler/sign-out', createFakeApp({ user, urls: { afterSignOut: '/goodbye' } }));
    expect(title()).toBe('Signing out…');
    expect(screen.getByRole('status').textContent).toContain('Ending your session');
    await act(async () => {});
    expect(user.signOut).toHaveBeenCalledWith({ redirectUrl: '/goodbye' });
  });

  it('signs out once under StrictMode (effects run twice in development)', async () => {
    const user = fakeUser();
    const fake = createFakeApp({ user });
    visit('/handler/sign-out');
    render(
      <StrictMode>
        <LatchkeyProvider app={fake.app}>
          <Handler />
        </LatchkeyProvider>
      </StrictMode>,
    );
    await act(async () => {});
    expect(user.signOut).toHaveBeenCalledTimes(1);
  });

  it('goes straight to after-sign-out when nobody is signed in', async () => {
    const fake = renderHandler('/handler/sign-out', createFakeApp({ user: null }));
    await act(async () => {});
    expect(fake.mocks.redirectToAfterSignOut).toHaveBeenCalledTimes(1);
  });

  it('offers to try again when sign-out fails', async () => {
    const user = fakeUser();
    user.signOut.mockRejectedValueOnce(new KnownError('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED'));
    renderHandler('/handler/sign-out', createFakeApp({ user }));
    await act(async () => {});
    expect(title()).toBe('Could not sign you out');
    expect(screen.getByRole('alert').textContent).toBe('The session has ended. Please sign in again.');
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Try again' })));
    expect(user.signOut).toHaveBeenCalledTimes(2);
  });

  it('works without a provider when given the app', async () => {
    const fake = createFakeApp({ projectName: 'Demo project' });
    visit('/handler/sign-in');
    render(<Handler app={fake.app} />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in to Demo project' })).toBeTruthy();
  });
});

describe('Handler, words and accessibility', () => {
  it('passes labels and messages to every page it serves', async () => {
    const user = fakeUser();
    user.signOut.mockRejectedValueOnce(new KnownError('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED'));
    const french = {
      labels: { signInSubmit: 'Se connecter', signOutFailedTitle: 'Déconnexion impossible' },
      messages: { REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED: 'Session terminée.' },
    };
    renderHandler('/handler/sign-in', createFakeApp(), french);
    expect(screen.getByRole('button', { name: 'Se connecter' })).toBeTruthy();
    cleanup();
    renderHandler('/handler/sign-out', createFakeApp({ user }), french);
    await act(async () => {});
    expect(title()).toBe('Déconnexion impossible');
    expect(screen.getByRole('alert').textContent).toBe('Session terminée.');
  });

  it('serves a "Page not found" card with no axe violations, its link reached with Tab', async () => {
    renderHandler('/handler/nope');
    expect(await axeViolations()).toEqual([]);
    await userEvent.setup().tab();
    expect(document.activeElement).toBe(screen.getByRole('link', { name: 'Go to the home page' }));
  });
});

describe('handlerPageOf', () => {
  it('names the page under the base path', () => {
    expect(handlerPageOf('/handler/sign-in', '/handler')).toBe('sign-in');
    expect(handlerPageOf('/handler/sign-in/', '/handler/')).toBe('sign-in');
    expect(handlerPageOf('/handler', '/handler')).toBe('');
    expect(handlerPageOf('/handlers/sign-in', '/handler')).toBeNull();
    expect(handlerPageOf('/x/handler/sign-up', 'https://app.example/x/handler')).toBe('sign-up');
  });
});
