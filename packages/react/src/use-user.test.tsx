// @vitest-environment node
import './test-support/dom-in-node.js';
import type { ClientApp } from '@latchkey/js';
import { isKnownError } from '@latchkey/protocol';
import type { TestService } from '@latchkey/server/testing';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { Component, type ReactNode, StrictMode, Suspense } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LatchkeyProvider, useApp } from './provider.js';
import { answeringApp, jsonAnswer, knownErrorAnswer, userAnswer } from './test-support/answering-app.js';
import { deferred, visit } from './test-support/page.js';
import { realApp, startRealService, uniqueEmail } from './test-support/real-app.js';
import { type UseUserOptions, useUser } from './use-user.js';

afterEach(cleanup);

function Email(props: UseUserOptions) {
  const user = useUser(props);
  return <p>{user ? `user:${user.primaryEmail}` : 'signed out'}</p>;
}

let caught: unknown = null;

class Boundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    caught = error;
    return { error };
  }
  override render() {
    return this.state.error ? <p>error:{this.state.error.message}</p> : this.props.children;
  }
}

function renderWith(page: { app: ClientApp }, ui: ReactNode, strict = false) {
  const tree = (
    <LatchkeyProvider app={page.app}>
      <Boundary>
        <Suspense fallback={<p>loading</p>}>{ui}</Suspense>
      </Boundary>
    </LatchkeyProvider>
  );
  return render(strict ? <StrictMode>{tree}</StrictMode> : tree);
}

/** The user's load held open until the test answers it (`null`: nobody is signed in). */
function heldUser() {
  const loads: Array<ReturnType<typeof deferred<Response>>> = [];
  return {
    answer: () => {
      const load = deferred<Response>();
      loads.push(load);
      return load.promise;
    },
    async finish(email: string | null) {
      await waitFor(() => expect(loads.length).toBeGreaterThan(0)); // the SDK has sent it
      const answer =
        email === null
          ? knownErrorAnswer('CANNOT_GET_OWN_USER_WITHOUT_USER')
          : jsonAnswer(userAnswer({ primary_email: email }));
      await act(async () => loads.shift()?.resolve(answer));
    },
    pending: () => loads.length,
  };
}

const signedOutAnswer = () => knownErrorAnswer('CANNOT_GET_OWN_USER_WITHOUT_USER');

describe('useUser (the real ClientApp over recorded answers)', () => {
  it('suspends while the user loads, then renders it and follows changes', async () => {
    const held = heldUser();
    const page = answeringApp(
      { 'GET /users/me': held.answer, 'DELETE /auth/sessions/current': () => jsonAnswer({}) },
      { signedIn: true },
    );
    renderWith(page, <Email />);
    expect(screen.getByText('loading')).toBeTruthy();
    await held.finish('ada@example.com');
    expect(await screen.findByText('user:ada@example.com')).toBeTruthy();
    const user = await page.app.getUser({ or: 'throw' });
    await act(() => user.signOut({ noRedirect: true }));
    expect(screen.getByText('signed out')).toBeTruthy();
    expect(page.calls.filter((call) => call === 'GET /users/me')).toHaveLength(1);
  });

  it('shares one load between components', async () => {
    const held = heldUser();
    const page = answeringApp({ 'GET /users/me': held.answer }, { signedIn: true });
    renderWith(
      page,
      <>
        <Email />
        <Email />
      </>,
    );
    await held.finish(null);
    await waitFor(() => expect(screen.getAllByText('signed out')).toHaveLength(2));
    expect(page.calls).toEqual(['GET /users/me']);
  });

  it("redirects to sign-in with { or: 'redirect' } and stays suspended", async () => {
    visit('/protected');
    const page = answeringApp({ 'GET /users/me': signedOutAnswer });
    renderWith(page, <Email or="redirect" />);
    await waitFor(() => expect(page.navigations).toEqual(['/handler/sign-in?after_auth_return_to=%2Fprotected']));
    expect(screen.getByText('loading')).toBeTruthy();
  });

  it("throws USER_AUTHENTICATION_REQUIRED to the error boundary with { or: 'throw' }, as getUser does", async () => {
    const page = answeringApp({ 'GET /users/me': signedOutAnswer });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderWith(page, <Email or="throw" />);
    expect(await screen.findByText(/error:User is not signed in/, {}, { timeout: 5_000 })).toBeTruthy();
    expect(isKnownError(caught, 'USER_AUTHENTICATION_REQUIRED')).toBe(true);
    vi.mocked(console.error).mockRestore();
  });

  it('under StrictMode loads once, redirects once and keeps one subscription', async () => {
    const held = heldUser();
    const page = answeringApp({ 'GET /users/me': held.answer }, { signedIn: true });
    const subscribe = vi.spyOn(page.app, 'subscribe');
    renderWith(page, <Email />, true);
    await held.finish('ada@example.com');
    expect(await screen.findByText('user:ada@example.com')).toBeTruthy();
    expect(page.calls).toEqual(['GET /users/me']);
    expect(subscribe).toHaveBeenCalled();
    cleanup();
    const signedOut = answeringApp({ 'GET /users/me': signedOutAnswer });
    renderWith(signedOut, <Email or="redirect" />, true);
    await waitFor(() => expect(signedOut.navigations).toHaveLength(1));
    await act(async () => {});
    expect(signedOut.navigations).toHaveLength(1);
  });

  it('regression: never shows the user of a load the store has moved past (a sign-in meanwhile)', async () => {
    const held = heldUser();
    const page = answeringApp({
      'GET /users/me': held.answer,
      'POST /auth/password/sign-in': () =>
        jsonAnswer({ access_token: page.accessToken, refresh_token: 'second-refresh-token', user_id: 'user-2' }),
    });
    renderWith(page, <Email />);
    await waitFor(() => expect(held.pending()).toBe(1)); // the signed-out load, held open
    await act(() => page.app.signInWithCredential({ email: 'grace@example.com', password: 'pw', noRedirect: true }));
    await held.finish(null); // the first load ends: nobody, but a session began meanwhile
    expect(screen.queryByText('signed out')).toBeNull();
    expect(screen.getByText('loading')).toBeTruthy();
    await held.finish('grace@example.com');
    expect(await screen.findByText('user:grace@example.com')).toBeTruthy();
  });

  it('throws a failed load to the error boundary', async () => {
    const page = answeringApp({ 'GET /users/me': () => jsonAnswer({ id: 42 }) }, { signedIn: true }); // a malformed user
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderWith(page, <Email />);
    // React holds a suspended tree's fallback for ~300 ms before retrying: allow for it on a busy machine.
    expect(await screen.findByText(/error:.*GET \/users\/me/, {}, { timeout: 5_000 })).toBeTruthy();
    vi.mocked(console.error).mockRestore();
  });
});

describe('useUser on the real SDK and service', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startRealService();
  });
  afterAll(async () => {
    await service?.close();
  });

  it('follows sign-in and sign-out through the SDK cache, in StrictMode', async () => {
    const real = realApp(service);
    renderWith(real, <Email />, true);
    expect(screen.getByText('loading')).toBeTruthy();
    expect(await screen.findByText('signed out', {}, { timeout: 10_000 })).toBeTruthy();
    const email = uniqueEmail('ada');
    await act(() => real.app.signUpWithCredential({ email, password: 'correct-horse-battery', noRedirect: true }));
    expect(await screen.findByText(`user:${email}`, {}, { timeout: 10_000 })).toBeTruthy();
    const user = await real.app.getUser({ or: 'throw' });
    await act(() => user.signOut({ redirectUrl: '/bye' }));
    await waitFor(() => expect(screen.getByText('signed out')).toBeTruthy(), { timeout: 10_000 });
    expect(real.navigations).toEqual(['/bye']);
  });

  it("sends a signed-out visitor to sign-in with { or: 'redirect' }, to come back here", async () => {
    visit('/protected?tab=2');
    const real = realApp(service);
    renderWith(real, <Email or="redirect" />);
    await waitFor(() => expect(real.navigations).toHaveLength(1), { timeout: 10_000 });
    expect(real.navigations[0]).toBe('/handler/sign-in?after_auth_return_to=%2Fprotected%3Ftab%3D2');
    expect(screen.getByText('loading')).toBeTruthy();
  });
});

let probedApp: unknown = null;
function Probe() {
  return <p>{useApp() === probedApp ? 'same app' : 'other app'}</p>;
}

describe('useApp', () => {
  it('returns the provider app and refuses to work outside a provider', () => {
    const page = answeringApp({});
    probedApp = page.app;
    render(
      <LatchkeyProvider app={page.app}>
        <Probe />
      </LatchkeyProvider>,
    );
    expect(screen.getByText('same app')).toBeTruthy();
    cleanup();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<Probe />)).toThrow(/inside <LatchkeyProvider/);
    vi.mocked(console.error).mockRestore();
  });
});
