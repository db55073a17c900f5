// @vitest-environment node
/**
 * The OAuth UI on the real `ClientApp` over recorded answers (a provider
 * cannot be reached from a test): the provider buttons of the sign-in and
 * sign-up pages, the callback page (once under StrictMode), the error page
 * per code, the Connected accounts section (with a pseudo-translation
 * proving its labels), and `useConnectedAccount`.
 */
import '../test-support/dom-in-node.js';
import type { ClientApp } from '@latchkey/js';
import { type ClientProjectWire, KnownError, type OAuthProviderLinkWire } from '@latchkey/protocol';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { type ReactNode, StrictMode, Suspense } from 'react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AccountSettings } from '../account-settings/account-settings.js';
import { SignIn, SignUp } from '../credential/credential-pages.js';
import { Handler } from '../handler/handler.js';
import { englishLabels } from '../labels.js';
import { LatchkeyProvider } from '../provider.js';
import {
  type Answers,
  answeringApp,
  heldAnswer,
  jsonAnswer,
  knownErrorAnswer,
  projectAnswer,
  userAnswer,
} from '../test-support/answering-app.js';
import { axeViolations } from '../test-support/axe.js';
import { visit } from '../test-support/page.js';
import { pseudoLabels } from '../test-support/pseudo-labels.js';
import { useConnectedAccount } from './use-connected-account.js';

afterEach(cleanup);
beforeEach(() => visit('/handler/sign-in'));

type Providers = ClientProjectWire['config']['enabled_oauth_providers'];
const providers: Providers = [{ id: 'github' }, { id: 'google' }, { id: 'corp', display_name: 'Corp SSO' }];

/** The project's answer with `oauth` enabled and `config` over the recorded settings. */
function projectWith(oauth: Providers, config: Partial<ClientProjectWire['config']> = {}) {
  const project = projectAnswer();
  return jsonAnswer({ ...project, config: { ...project.config, enabled_oauth_providers: oauth, ...config } });
}

/** The real SDK, signed out, its project enabling `oauth`; `answers` over those. */
function signedOutApp(oauth: Providers = [], answers: Answers = {}, config: Partial<ClientProjectWire['config']> = {}) {
  return answeringApp({
    'GET /projects/current': () => projectWith(oauth, config),
    'GET /users/me': () => knownErrorAnswer('CANNOT_GET_OWN_USER_WITHOUT_USER'),
    ...answers,
  });
}

function renderWith(app: { app: ClientApp }, node: ReactNode, labels?: typeof pseudoLabels) {
  return render(
    <LatchkeyProvider app={app.app} projectName="Acme" labels={labels}>
      {node}
    </LatchkeyProvider>,
  );
}

/** The `authorize` addresses the SDK left for. */
const toProvider = (navigations: string[]) => navigations.filter((url) => url.includes('/auth/oauth/authorize/'));

/** Starts a GitHub sign-in on `page` (the SDK keeps its verifier) and puts the browser on the callback page for it. */
async function returnFromProvider(page: ReturnType<typeof answeringApp>) {
  void page.app.signInWithOAuth('github');
  await waitFor(() => expect(toProvider(page.navigations)).toHaveLength(1));
  const state = new URL(toProvider(page.navigations)[0]!).searchParams.get('state');
  visit(`/handler/oauth-callback?code=c&state=${state}`);
}

describe('provider buttons', () => {
  it('show one "Continue with" button per enabled provider above the form, with an "or" divider', async () => {
    renderWith(signedOutApp(providers), <SignIn />);
    const buttons = await screen.findAllByRole('button', { name: /^Continue with / });
    expect(buttons.map((button) => button.textContent)).toEqual([
      'Continue with GitHub',
      'Continue with Google',
      'Continue with Corp SSO',
    ]);
    expect(buttons.every((button) => button.querySelector('svg[aria-hidden="true"]'))).toBe(true);
    const divider = document.querySelector('.lk-divider');
    const email = document.querySelector('[name="email"]');
    expect(divider?.textContent).toBe('or');
    // Buttons, then the divider, then the form.
    expect(buttons[2]!.compareDocumentPosition(divider!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(divider!.compareDocumentPosition(email!) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(await axeViolations(document.body)).toEqual([]);
  });

  it('show nothing when the project enables no provider, on sign-in and sign-up', async () => {
    for (const Page of [SignIn, SignUp]) {
      const page = signedOutApp();
      renderWith(page, <Page />);
      await waitFor(() => expect(page.calls).toContain('GET /projects/current'));
      await act(async () => {});
      expect(screen.queryByRole('button', { name: /^Continue with / })).toBeNull();
      expect(document.querySelector('.lk-divider')).toBeNull();
      cleanup();
    }
  });

  it('leave for the clicked provider and show it busy', async () => {
    const page = signedOutApp(providers);
    renderWith(page, <SignUp />);
    fireEvent.click(await screen.findByRole('button', { name: 'Continue with Google' }));
    const busy = await screen.findByRole('button', { name: 'Taking you to the provider…' });
    expect(busy.getAttribute('aria-busy')).toBe('true');
    expect(
      screen.getAllByRole('button', { name: /^Continue with / }).every((b) => (b as HTMLButtonElement).disabled),
    ).toBe(true);
    await waitFor(() => expect(toProvider(page.navigations)).toHaveLength(1));
    expect(new URL(toProvider(page.navigations)[0]!).pathname).toMatch(/\/auth\/oauth\/authorize\/google$/);
  });

  it('send a failed flow back to this page, which says it in one sentence and takes it off the address', async () => {
    visit('/handler/sign-in?after_auth_return_to=%2Fprotected');
    const page = signedOutApp(providers);
    renderWith(page, <SignIn />);
    fireEvent.click(await screen.findByRole('button', { name: 'Continue with GitHub' }));
    await waitFor(() => expect(toProvider(page.navigations)).toHaveLength(1));
    const errorUrl = new URL(toProvider(page.navigations)[0]!).searchParams.get('error_redirect_url');
    expect(errorUrl).toBe(`${window.location.origin}/handler/sign-in?after_auth_return_to=%2Fprotected`);
    cleanup();

    visit(`/handler/sign-in?after_auth_return_to=%2Fprotected&errorCode=OAUTH_PROVIDER_ACCESS_DENIED&message=x`);
    renderWith(signedOutApp(providers), <SignIn />);
    const alert = await screen.findByText('Signing in with the provider was cancelled, so nothing changed.');
    expect(alert.closest('[role="alert"]')).toBeTruthy();
    expect(window.location.search).toBe('?after_auth_return_to=%2Fprotected');
  });

  it('tell a provider e-mail an account signs in with to sign in to it, then connect the provider', async () => {
    visit('/handler/sign-up?errorCode=CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE');
    renderWith(signedOutApp(providers), <SignUp />);
    await screen.findByText(/An account already signs in with this e-mail address/);
    const link = screen.getByRole('link', { name: 'Sign in, then connect it' });
    expect(link.getAttribute('href')).toBe(
      `/handler/sign-in?after_auth_return_to=${encodeURIComponent('/handler/account-settings#connected-accounts')}`,
    );
  });

  it('show a thrown error in the page and let the person try again', async () => {
    const refusing = answeringApp(
      (request) =>
        request.path === '/projects/current'
          ? projectWith(providers)
          : knownErrorAnswer('CANNOT_GET_OWN_USER_WITHOUT_USER'),
      {
        navigate: () => {
          throw new KnownError('OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED'); // the browser could not leave for the provider
        },
      },
    );
    renderWith(refusing, <SignIn />);
    fireEvent.click(await screen.findByRole('button', { name: 'Continue with GitHub' }));
    const alert = await screen.findByText(/provider/i, { selector: '.lk-alert span' });
    expect(alert.closest('[role="alert"]')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Continue with GitHub' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('stand alone when the project has neither password nor magic link', async () => {
    renderWith(signedOutApp(providers, {}, { credential_enabled: false }), <SignIn />);
    await screen.findByRole('button', { name: 'Continue with GitHub' });
    expect(document.querySelector('[name="email"]')).toBeNull();
    expect(document.querySelector('.lk-divider')).toBeNull();
  });
});

describe('the oauth-callback page', () => {
  const exchanges = (calls: string[]) => calls.filter((call) => call === 'POST /auth/oauth/token').length;

  it('exchanges the code once under StrictMode and shows a spinner meanwhile', async () => {
    const held = heldAnswer();
    const page = signedOutApp([], { 'POST /auth/oauth/token': () => held.promise });
    await returnFromProvider(page);
    render(
      <StrictMode>
        <LatchkeyProvider app={page.app}>
          <Handler />
        </LatchkeyProvider>
      </StrictMode>,
    );
    await waitFor(() => expect(exchanges(page.calls)).toBe(1));
    await act(async () => {});
    expect(exchanges(page.calls)).toBe(1);
    expect(screen.getByRole('status').textContent).toContain('Signing you in…');
  });

  it('says signing in failed, with the known error’s message and a link to sign in', async () => {
    const page = signedOutApp([], {
      'POST /auth/oauth/token': () =>
        knownErrorAnswer(
          new KnownError('OUTER_OAUTH_TIMEOUT', undefined, 'The OAuth flow has timed out. Please sign in again.'),
        ),
    });
    await returnFromProvider(page);
    renderWith(page, <Handler />);
    expect(
      await screen.findByRole('heading', { name: 'Error signing in during OAuth callback. Please try again.' }),
    ).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('The OAuth flow has timed out. Please sign in again.');
    expect(screen.getByRole('link', { name: 'Back to sign in' }).getAttribute('href')).toBe('/handler/sign-in');
  });

  it('counts a page without code and state as a failure', async () => {
    visit('/handler/oauth-callback');
    const page = signedOutApp();
    renderWith(page, <Handler />);
    expect(await screen.findByRole('heading', { name: /Error signing in during OAuth callback/ })).toBeTruthy();
    expect(exchanges(page.calls)).toBe(0);
  });
});

describe('the error page', () => {
  const cases: [string, string][] = [
    ['OAUTH_PROVIDER_ACCESS_DENIED', 'Sign-in was cancelled'],
    ['CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE', 'This e-mail belongs to another account'],
    ['OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER', 'This provider account is connected elsewhere'],
    ['OUTER_OAUTH_TIMEOUT', 'Sign-in took too long'],
    ['SIGN_UP_NOT_ENABLED', 'Sign-up is closed'],
    ['SOMETHING_NEW', 'Something went wrong'],
  ];
  it.each(cases)('titles %s as "%s", says it once, and offers the ways back', async (code, title) => {
    visit(`/handler/error?errorCode=${code}&message=${encodeURIComponent('<b>Provider</b> said no')}`);
    renderWith(signedOutApp(), <Handler />);
    expect(screen.getByRole('heading', { name: title })).toBeTruthy();
    // A code the page explains is said in its words only; another's message follows, as text.
    const message = document.querySelector('.lk-oauth-error-message');
    if (code === 'SOMETHING_NEW') {
      expect(message?.textContent).toBe('<b>Provider</b> said no');
      expect(message?.querySelector('b')).toBeNull();
    } else {
      expect(message).toBeNull();
    }
    // The code breaks between its words on a narrow screen, never inside one.
    const codeLine = document.querySelector('.lk-oauth-error-code');
    expect(codeLine?.textContent).toBe(`Error code: ${code}`);
    expect(codeLine?.querySelectorAll('wbr').length).toBe(code.split('_').length - 1);
    expect(screen.getByRole('link', { name: 'Back to sign in' }).getAttribute('href')).toBe('/handler/sign-in');
    expect(screen.getByRole('link', { name: 'Go home' }).getAttribute('href')).toBe('/');
  });

  it('tells a taken e-mail to sign in to that account and connect from account settings', () => {
    visit('/handler/error?errorCode=CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE');
    renderWith(signedOutApp(), <Handler />);
    expect(
      screen.getByText(/Sign in to that account, then connect the provider from your account settings/),
    ).toBeTruthy();
  });
});

describe('the Connected accounts section', () => {
  const github: OAuthProviderLinkWire = { id: 'github', account_id: '42', email: 'octo@example.com' };

  /**
   * Ada signed in with `links` connected, the project enabling `oauth`;
   * disconnecting answers `unlink` (default: done, and the account is gone
   * from her next load).
   */
  function renderSettings(
    links: OAuthProviderLinkWire[],
    oauth: Providers,
    labels?: typeof pseudoLabels,
    unlink?: () => Response | Promise<Response>,
  ) {
    visit('/handler/account-settings#connected-accounts');
    let connected = links;
    const page = answeringApp(
      (request) => {
        if (request.path === '/projects/current') return projectWith(oauth);
        if (request.path === '/users/me') return jsonAnswer(userAnswer({ oauth_providers: connected }));
        const removed = /^\/connected-accounts\/me\/([^/]+)$/.exec(request.path);
        if (request.method === 'DELETE' && removed) {
          const answer = unlink ? unlink() : jsonAnswer({});
          return Promise.resolve(answer).then((response) => {
            if (response.headers.get('x-stack-known-error') === null) {
              connected = connected.filter((link) => link.id !== removed[1]);
            }
            return response;
          });
        }
        if (request.path.startsWith('/contact-channels')) return jsonAnswer({ items: [], is_paginated: false });
        if (request.path.startsWith('/teams')) return jsonAnswer({ items: [], is_paginated: false });
        return undefined;
      },
      { signedIn: true },
    );
    renderWith(page, <AccountSettings />, labels);
    return page;
  }

  const unlinks = (calls: string[]) => calls.filter((call) => call.startsWith('DELETE /connected-accounts/me/'));

  it('lists the connected providers and offers the others', async () => {
    const page = renderSettings([github], providers);
    expect(await screen.findByRole('heading', { name: 'Connected accounts' })).toBeTruthy();
    const list = await screen.findByRole('list', { name: 'Your connected accounts' });
    expect(list.textContent).toContain('GitHub');
    expect(list.textContent).toContain('octo@example.com');
    expect(screen.queryByRole('button', { name: 'Connect GitHub' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Connect Corp SSO' }));
    await waitFor(() => expect(toProvider(page.navigations)).toHaveLength(1));
    expect(new URL(toProvider(page.navigations)[0]!).pathname).toMatch(/\/auth\/oauth\/authorize\/corp$/);
    expect(await axeViolations(document.body)).toEqual([]);
  });

  it('asks before disconnecting, then disconnects', async () => {
    const page = renderSettings([github], providers);
    fireEvent.click(await screen.findByRole('button', { name: 'Disconnect' }));
    expect(screen.getByText('Disconnect GitHub? You will no longer sign in with it.')).toBeTruthy();
    expect(unlinks(page.calls)).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(screen.getByRole('button', { name: 'Disconnect' }));
    const confirm = screen.getAllByRole('button', { name: 'Disconnect' }).find((b) => b.className.includes('danger'));
    fireEvent.click(confirm!);
    await waitFor(() => expect(unlinks(page.calls)).toEqual(['DELETE /connected-accounts/me/github']));
    expect(await screen.findByText('GitHub was disconnected.')).toBeTruthy();
  });

  it('shows the service’s refusal to remove the last way to sign in', async () => {
    const refusal = 'You cannot disconnect your last way to sign in. Set a password first.';
    renderSettings([github], providers, undefined, () =>
      knownErrorAnswer(new KnownError('SCHEMA_ERROR', { message: refusal }, refusal)),
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Disconnect' }));
    const confirm = screen.getAllByRole('button', { name: 'Disconnect' }).find((b) => b.className.includes('danger'));
    fireEvent.click(confirm!);
    const alert = await screen.findByText(/last way to sign in/, { selector: '.lk-alert span' });
    expect(alert.closest('[role="alert"]')).toBeTruthy();
  });

  it('is hidden when the project enables no provider and the user has none', async () => {
    renderSettings([], []);
    await screen.findByRole('navigation');
    await act(async () => {});
    expect(screen.queryByRole('link', { name: 'Connected accounts' })).toBeNull();
    cleanup();
    renderSettings([github], []);
    expect(await screen.findByRole('link', { name: 'Connected accounts' })).toBeTruthy();
  });

  it('holds only labelled words, and uses every one of its labels', async () => {
    const seen = new Set<string>();
    const leftovers: string[] = [];
    const collect = () => {
      const text = document.body.textContent ?? '';
      for (const match of text.matchAll(/⟦([a-zA-Z]+)/g)) seen.add(match[1]!);
      // Brand names are the providers' own, not interface text.
      const rest = text
        .replace(/GitHub|X(?=⟦)/g, '')
        .replace(/⟦[^⟧]*⟧/g, '')
        .replace(/octo@example\.com|Ada Lovelace|ada@example\.com|AL/g, '');
      if (/[A-Za-z]/.test(rest)) leftovers.push(rest.trim());
    };
    const unlinking = heldAnswer();
    renderSettings(
      [github, { id: 'x', account_id: '7', email: null }],
      providers,
      pseudoLabels,
      () => unlinking.promise,
    );
    await screen.findByRole('heading', { name: '⟦accountConnectedTitle⟧' });
    await screen.findAllByRole('button', { name: '⟦accountDisconnect⟧' });
    collect();
    fireEvent.click(screen.getAllByRole('button', { name: '⟦accountDisconnect⟧' })[0]!);
    collect();
    fireEvent.click(
      screen.getAllByRole('button', { name: '⟦accountDisconnect⟧' }).find((b) => b.className.includes('danger'))!,
    );
    await act(async () => {});
    collect();
    await act(async () => unlinking.release(jsonAnswer({})));
    await act(async () => {});
    collect();
    cleanup();
    renderSettings([], providers, pseudoLabels);
    await screen.findByRole('heading', { name: '⟦accountConnectedTitle⟧' });
    collect();
    expect(leftovers).toEqual([]);
    const own = Object.keys(englishLabels).filter((key) => /^account(Connect|Disconnect)/.test(key));
    expect(own.filter((key) => !seen.has(key))).toEqual([]);
  });
});

/** Shows what `useConnectedAccount` gives. */
function Probe({ id, scopes }: { id: string; scopes?: string[] }) {
  const account = useConnectedAccount(id, { scopes });
  return <p>{account ? `${account.id}:${account.email}` : 'none'}</p>;
}

describe('useConnectedAccount (the real ClientApp over recorded answers)', () => {
  const github = { id: 'github', account_id: '42', email: 'octo@example.com' };

  function show(app: ClientApp) {
    return render(
      <LatchkeyProvider app={app}>
        <Suspense fallback={<p>loading</p>}>
          <Probe id="github" scopes={['repo']} />
          <Probe id="google" />
        </Suspense>
      </LatchkeyProvider>,
    );
  }

  it('suspends, then gives the account or null, asking the service with the scopes', async () => {
    const { app, calls } = answeringApp(
      {
        'GET /users/me': () => jsonAnswer(userAnswer({ oauth_providers: [github] })),
        'POST /connected-accounts/me/github/access-token': () => jsonAnswer({ access_token: 'gho_recorded' }),
      },
      { signedIn: true },
    );
    show(app);
    expect(screen.getByText('loading')).toBeTruthy();
    expect(await screen.findByText('github:octo@example.com')).toBeTruthy();
    expect(screen.getByText('none')).toBeTruthy();
    expect(calls.filter((call) => call === 'GET /users/me')).toHaveLength(1); // the cached user serves both
    expect(calls).toContain('POST /connected-accounts/me/github/access-token');
  });

  it('is null when the account lacks the scopes, and when nobody is signed in', async () => {
    const missingScope = answeringApp(
      {
        'GET /users/me': () => jsonAnswer(userAnswer({ oauth_providers: [github] })),
        'POST /connected-accounts/me/github/access-token': () =>
          knownErrorAnswer('OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE'),
      },
      { signedIn: true },
    );
    show(missingScope.app);
    await waitFor(() => expect(screen.getAllByText('none')).toHaveLength(2));
    cleanup();
    const signedOut = answeringApp({ 'GET /users/me': () => knownErrorAnswer('CANNOT_GET_OWN_USER_WITHOUT_USER') });
    show(signedOut.app);
    await waitFor(() => expect(screen.getAllByText('none')).toHaveLength(2));
  });
});
