// @vitest-environment node
/**
 * The OAuth UI on the in-memory stand-in app: the provider buttons of the
 * sign-in and sign-up pages, the callback page (once under StrictMode), the
 * error page per code, the Connected accounts section (with a
 * pseudo-translation proving its labels), and `useConnectedAccount`.
 */
import '../test-support/dom-in-node.js';
import type { ClientApp, ConnectedAccount, CurrentUser, EnabledOAuthProvider } from '@latchkey/js';
import { KnownError } from '@latchkey/protocol';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { type ReactNode, StrictMode, Suspense } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AccountSettings } from '../account-settings/account-settings.js';
import { SignIn, SignUp } from '../credential/credential-pages.js';
import { Handler } from '../handler/handler.js';
import { englishLabels } from '../labels.js';
import { LatchkeyProvider } from '../provider.js';
import { answeringApp, jsonAnswer, knownErrorAnswer, userAnswer } from '../test-support/answering-app.js';
import { axeViolations } from '../test-support/axe.js';
import { createFakeApp, deferred, fakeUser, visit } from '../test-support/fake-app.js';
import { pseudoLabels } from '../test-support/pseudo-labels.js';
import { useConnectedAccount } from './use-connected-account.js';

afterEach(cleanup);
beforeEach(() => visit('/handler/sign-in'));

const providers: EnabledOAuthProvider[] = [{ id: 'github' }, { id: 'google' }, { id: 'corp', displayName: 'Corp SSO' }];

function renderWith(app: ReturnType<typeof createFakeApp>, node: ReactNode, labels?: typeof pseudoLabels) {
  return render(
    <LatchkeyProvider app={app.app} projectName="Acme" labels={labels}>
      {node}
    </LatchkeyProvider>,
  );
}

/** A signed-in user with `links` connected, whose OAuth calls are mocks. */
function userWith(links: CurrentUser['oauthProviders']) {
  const user: CurrentUser = fakeUser();
  const mocks = {
    oauthProviders: links,
    linkConnectedAccount: vi.fn<CurrentUser['linkConnectedAccount']>(() => new Promise(() => {})),
    unlinkConnectedAccount: vi.fn<CurrentUser['unlinkConnectedAccount']>(async () => undefined),
    getConnectedAccount: vi.fn(async (providerId: string) => {
      const link = links.find((candidate) => candidate.id === providerId);
      return link ? ({ ...link, getAccessToken: async () => ({ accessToken: 't' }) } as ConnectedAccount) : null;
    }),
  };
  return Object.assign(user, mocks) as CurrentUser & typeof mocks;
}

describe('provider buttons', () => {
  it('show one "Continue with" button per enabled provider above the form, with an "or" divider', async () => {
    const app = createFakeApp({ config: { oauthProviders: providers } });
    renderWith(app, <SignIn />);
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
      renderWith(createFakeApp(), <Page />);
      await act(async () => {});
      expect(screen.queryByRole('button', { name: /^Continue with / })).toBeNull();
      expect(document.querySelector('.lk-divider')).toBeNull();
      cleanup();
    }
  });

  it('call signInWithOAuth with the provider id and show the clicked one busy', async () => {
    const app = createFakeApp({ config: { oauthProviders: providers } });
    renderWith(app, <SignUp />);
    fireEvent.click(await screen.findByRole('button', { name: 'Continue with Google' }));
    expect(app.mocks.signInWithOAuth).toHaveBeenCalledWith('google');
    const busy = await screen.findByRole('button', { name: 'Taking you to the provider…' });
    expect(busy.getAttribute('aria-busy')).toBe('true');
    expect(
      screen.getAllByRole('button', { name: /^Continue with / }).every((b) => (b as HTMLButtonElement).disabled),
    ).toBe(true);
  });

  it('show a thrown error in the page and let the person try again', async () => {
    const app = createFakeApp({ config: { oauthProviders: providers } });
    app.mocks.signInWithOAuth.mockRejectedValueOnce(new KnownError('OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED'));
    renderWith(app, <SignIn />);
    fireEvent.click(await screen.findByRole('button', { name: 'Continue with GitHub' }));
    const alert = await screen.findByText(/provider/i, { selector: '.lk-alert span' });
    expect(alert.closest('[role="alert"]')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Continue with GitHub' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('stand alone when the project has neither password nor magic link', async () => {
    renderWith(createFakeApp({ config: { oauthProviders: providers, credentialEnabled: false } }), <SignIn />);
    await screen.findByRole('button', { name: 'Continue with GitHub' });
    expect(document.querySelector('[name="email"]')).toBeNull();
    expect(document.querySelector('.lk-divider')).toBeNull();
  });
});

describe('the oauth-callback page', () => {
  it('calls callOAuthCallback once under StrictMode and shows a spinner meanwhile', async () => {
    visit('/handler/oauth-callback?code=c&state=strict');
    const app = createFakeApp();
    render(
      <StrictMode>
        <LatchkeyProvider app={app.app}>
          <Handler />
        </LatchkeyProvider>
      </StrictMode>,
    );
    await act(async () => {});
    expect(app.mocks.callOAuthCallback).toHaveBeenCalledTimes(1);
    expect(screen.getByRole('status').textContent).toContain('Signing you in…');
  });

  it('says signing in failed, with the known error’s message and a link to sign in', async () => {
    visit('/handler/oauth-callback?code=c&state=failing');
    const app = createFakeApp();
    app.mocks.callOAuthCallback.mockRejectedValueOnce(
      new KnownError('OUTER_OAUTH_TIMEOUT', undefined, 'The OAuth flow has timed out. Please sign in again.'),
    );
    renderWith(app, <Handler />);
    expect(
      await screen.findByRole('heading', { name: 'Error signing in during OAuth callback. Please try again.' }),
    ).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toBe('The OAuth flow has timed out. Please sign in again.');
    expect(screen.getByRole('link', { name: 'Back to sign in' }).getAttribute('href')).toBe('/handler/sign-in');
  });

  it('counts a page without code and state as a failure', async () => {
    visit('/handler/oauth-callback');
    const app = createFakeApp();
    app.mocks.callOAuthCallback.mockResolvedValueOnce(false);
    renderWith(app, <Handler />);
    expect(await screen.findByRole('heading', { name: /Error signing in during OAuth callback/ })).toBeTruthy();
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
  it.each(cases)('titles %s as "%s", with the message as text and the ways back', async (code, title) => {
    visit(`/handler/error?errorCode=${code}&message=${encodeURIComponent('<b>Provider</b> said no')}`);
    renderWith(createFakeApp(), <Handler />);
    expect(screen.getByRole('heading', { name: title })).toBeTruthy();
    const message = document.querySelector('.lk-oauth-error-message');
    expect(message?.textContent).toBe('<b>Provider</b> said no');
    expect(message?.querySelector('b')).toBeNull();
    expect(screen.getByText(`Error code: ${code}`)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to sign in' }).getAttribute('href')).toBe('/handler/sign-in');
    expect(screen.getByRole('link', { name: 'Go home' }).getAttribute('href')).toBe('/');
  });

  it('tells a taken e-mail to sign in to that account and connect from account settings', () => {
    visit('/handler/error?errorCode=CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE');
    renderWith(createFakeApp(), <Handler />);
    expect(
      screen.getByText(/Sign in to that account, then connect the provider from your account settings/),
    ).toBeTruthy();
  });
});

describe('the Connected accounts section', () => {
  const github = { id: 'github', accountId: '42', email: 'octo@example.com' };

  function renderSettings(user: CurrentUser, oauthProviders: EnabledOAuthProvider[], labels?: typeof pseudoLabels) {
    visit('/handler/account-settings#connected-accounts');
    return renderWith(createFakeApp({ user, config: { oauthProviders } }), <AccountSettings />, labels);
  }

  it('lists the connected providers and offers the others', async () => {
    const user = userWith([github]);
    renderSettings(user, providers);
    expect(await screen.findByRole('heading', { name: 'Connected accounts' })).toBeTruthy();
    const list = screen.getByRole('list', { name: 'Your connected accounts' });
    expect(list.textContent).toContain('GitHub');
    expect(list.textContent).toContain('octo@example.com');
    expect(screen.queryByRole('button', { name: 'Connect GitHub' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Connect Corp SSO' }));
    expect(user.linkConnectedAccount).toHaveBeenCalledWith('corp');
    expect(await axeViolations(document.body)).toEqual([]);
  });

  it('asks before disconnecting, then disconnects', async () => {
    const user = userWith([github]);
    renderSettings(user, providers);
    fireEvent.click(await screen.findByRole('button', { name: 'Disconnect' }));
    expect(screen.getByText('Disconnect GitHub? You will no longer sign in with it.')).toBeTruthy();
    expect(user.unlinkConnectedAccount).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.click(screen.getByRole('button', { name: 'Disconnect' }));
    const confirm = screen.getAllByRole('button', { name: 'Disconnect' }).find((b) => b.className.includes('danger'));
    fireEvent.click(confirm!);
    await waitFor(() => expect(user.unlinkConnectedAccount).toHaveBeenCalledWith('github'));
    expect(await screen.findByText('GitHub was disconnected.')).toBeTruthy();
  });

  it('shows the service’s refusal to remove the last way to sign in', async () => {
    const user = userWith([github]);
    const refusal = 'You cannot disconnect your last way to sign in. Set a password first.';
    user.unlinkConnectedAccount.mockRejectedValueOnce(new KnownError('SCHEMA_ERROR', { message: refusal }, refusal));
    renderSettings(user, providers);
    fireEvent.click(await screen.findByRole('button', { name: 'Disconnect' }));
    const confirm = screen.getAllByRole('button', { name: 'Disconnect' }).find((b) => b.className.includes('danger'));
    fireEvent.click(confirm!);
    const alert = await screen.findByText(/last way to sign in/, { selector: '.lk-alert span' });
    expect(alert.closest('[role="alert"]')).toBeTruthy();
  });

  it('is hidden when the project enables no provider and the user has none', async () => {
    renderSettings(userWith([]), []);
    await screen.findByRole('navigation');
    expect(screen.queryByRole('link', { name: 'Connected accounts' })).toBeNull();
    cleanup();
    renderSettings(userWith([github]), []);
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
    const unlinking = deferred();
    const user = userWith([github, { id: 'x', accountId: '7', email: null }]);
    user.unlinkConnectedAccount.mockReturnValueOnce(unlinking.promise);
    renderSettings(user, providers, pseudoLabels);
    await screen.findByRole('heading', { name: '⟦accountConnectedTitle⟧' });
    collect();
    fireEvent.click(screen.getAllByRole('button', { name: '⟦accountDisconnect⟧' })[0]!);
    collect();
    fireEvent.click(
      screen.getAllByRole('button', { name: '⟦accountDisconnect⟧' }).find((b) => b.className.includes('danger'))!,
    );
    await act(async () => unlinking.resolve());
    collect();
    cleanup();
    renderSettings(userWith([]), providers, pseudoLabels);
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
