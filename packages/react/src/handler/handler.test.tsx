import { KnownError } from '@latchkey/protocol';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { userEvent } from '@testing-library/user-event';
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { englishLabels } from '../labels.js';
import { LatchkeyProvider } from '../provider.js';
import {
  type Answer,
  answeringApp,
  jsonAnswer,
  knownErrorAnswer,
  recordedAnswers,
} from '../test-support/answering-app.js';
import { axeViolations } from '../test-support/axe.js';
import { visit } from '../test-support/page.js';
import { Handler } from './handler.js';
import { handlerPageOf } from './handler-page.js';

afterEach(cleanup);

const endSession = '/auth/sessions/current';
/** The publishable key was replaced meanwhile: the service refuses to end the session. */
const keyRefused = () =>
  knownErrorAnswer(new KnownError('INVALID_PUBLISHABLE_CLIENT_KEY', { project_id: 'project-answers' }));

/** The service as the pages meet it; `ending` answers a sign-out (default: held). */
function service(ending: Answer = () => new Promise<Response>(() => {})): Answer {
  return (request) => {
    if (request.path === endSession) return ending(request);
    const answers: Record<string, () => Response> = {
      '/projects/current': () => jsonAnswer({ ...recordedAnswers.project, display_name: 'Demo project' }),
      '/users/me': () => jsonAnswer(recordedAnswers.currentUser),
      '/auth/oauth/token': () => jsonAnswer(recordedAnswers.refresh),
    };
    return answers[request.path]?.() ?? jsonAnswer({ success: true });
  };
}

function app(options: Parameters<typeof answeringApp>[1] = {}, ending?: Answer) {
  return answeringApp(service(ending), options);
}

function renderHandler(path: string, answering = app(), props: Parameters<typeof Handler>[0] = {}) {
  visit(path);
  render(
    <LatchkeyProvider app={answering.app} projectName="Acme">
      <Handler {...props} />
    </LatchkeyProvider>,
  );
  return answering;
}

/** The bodies of the requests sent to `path`. */
const sentTo = ({ requests }: ReturnType<typeof app>, path: string) =>
  requests.filter((request) => request.path === path).map((request) => request.body);

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
    renderHandler('/auth/sign-in', app({ urls: { handler: '/auth' } }));
    expect(title()).toBe('Sign in to Acme');
    cleanup();
    renderHandler('/account/sign-up', app(), { basePath: '/account/' });
    expect(title()).toBe('Sign up for Acme');
  });

  it('shows a "Page not found" card with a link home for other pages', () => {
    renderHandler('/handler/nope', app({ urls: { home: '/start' } }));
    expect(title()).toBe('Page not found');
    expect(screen.getByRole('link', { name: 'Go to the home page' }).getAttribute('href')).toBe('/start');
  });

  it('serves the e-mail pages: forgot-password, password-reset, email-verification, magic-link-callback', async () => {
    renderHandler('/handler/forgot-password');
    expect(title()).toBe('Reset your password');
    cleanup();
    const resetting = renderHandler(`/handler/password-reset?code=${'a'.repeat(45)}`);
    // The e-mail flows' code loads on the first call: wait for the request.
    await waitFor(() =>
      expect(sentTo(resetting, '/auth/password/reset/check-code')).toEqual([{ code: 'a'.repeat(45) }]),
    );
    await act(async () => {});
    expect(title()).toBe('Choose a new password');
    cleanup();
    const verifying = renderHandler(`/handler/email-verification?code=${'b'.repeat(45)}`);
    await act(async () => {});
    expect(sentTo(verifying, '/contact-channels/verify')).toEqual([{ code: 'b'.repeat(45) }]);
    expect(title()).toBe('E-mail verified');
    cleanup();
    const signingIn = renderHandler('/handler/magic-link-callback');
    await act(async () => {});
    expect(sentTo(signingIn, '/auth/otp/sign-in')).toEqual([]);
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
    const signingOut = renderHandler(
      '/handler/sign-out',
      app({ signedIn: true, urls: { afterSignOut: '/goodbye' } }, () => jsonAnswer({ success: true })),
    );
    expect(title()).toBe('Signing out…');
    expect(screen.getByRole('status').textContent).toContain('Ending your session');
    await act(async () => {});
    expect(sentTo(signingOut, endSession)).toEqual([{}]);
    expect(signingOut.navigations).toEqual(['/goodbye']);
  });

  it('signs out once under StrictMode (effects run twice in development)', async () => {
    const signingOut = app({ signedIn: true });
    visit('/handler/sign-out');
    render(
      <StrictMode>
        <LatchkeyProvider app={signingOut.app}>
          <Handler />
        </LatchkeyProvider>
      </StrictMode>,
    );
    await act(async () => {});
    expect(sentTo(signingOut, endSession)).toHaveLength(1);
  });

  it('goes straight to after-sign-out when nobody is signed in', async () => {
    const signingOut = renderHandler('/handler/sign-out');
    await act(async () => {});
    expect(sentTo(signingOut, endSession)).toEqual([]);
    expect(signingOut.navigations).toEqual(['/']);
  });

  it('offers to try again when sign-out fails', async () => {
    const signingOut = renderHandler('/handler/sign-out', app({ signedIn: true }, keyRefused));
    await act(async () => {});
    expect(title()).toBe('Could not sign you out');
    expect(screen.getByRole('alert').textContent).toBe(
      'The publishable client key is not valid for project project-answers.',
    );
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Try again' })));
    // The refused sign-out ended the session here all the same: trying again goes to the after-sign-out page.
    expect(signingOut.navigations).toEqual(['/']);
  });

  it('works without a provider when given the app', async () => {
    visit('/handler/sign-in');
    render(<Handler app={app().app} />);
    expect(await screen.findByRole('heading', { level: 1, name: 'Sign in to Demo project' })).toBeTruthy();
  });
});

describe('Handler, words and accessibility', () => {
  it('passes labels and messages to every page it serves', async () => {
    const french = {
      labels: { signInSubmit: 'Se connecter', signOutFailedTitle: 'Déconnexion impossible' },
      messages: { INVALID_PUBLISHABLE_CLIENT_KEY: 'Clé refusée.' },
    };
    renderHandler('/handler/sign-in', app(), french);
    expect(screen.getByRole('button', { name: 'Se connecter' })).toBeTruthy();
    cleanup();
    renderHandler('/handler/sign-out', app({ signedIn: true }, keyRefused), french);
    await act(async () => {});
    expect(title()).toBe('Déconnexion impossible');
    expect(screen.getByRole('alert').textContent).toBe('Clé refusée.');
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

describe('Handler rendered on a server', () => {
  it('renders the page its pathname names, not the window’s location (server-side rendering has none)', () => {
    visit('/');
    const html = (pathname?: string) =>
      renderToString(
        <LatchkeyProvider app={app().app} projectName="Acme">
          <Handler pathname={pathname} />
        </LatchkeyProvider>,
      );
    const notFound = englishLabels.notFoundTitle;
    expect(html('/handler/sign-out')).not.toContain(notFound);
    expect(html('/handler/no-such-page')).toContain(notFound);
    expect(html()).toContain(notFound); // no pathname: the server knows no page
  });
});
