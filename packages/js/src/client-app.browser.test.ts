// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ClientApp, type ClientAppOptions } from './client-app.js';
import { parseCookies } from './internal/session/cookie-store.js';
import { clearCookies } from './test-support/cookies.js';
import { createFakeService, testProjectId, testPublishableKey } from './test-support/fake-service.js';
import { testClock } from './test-support/tokens.js';

const alice = { email: 'alice@example.com', password: 'correct-horse-1' };
const clock = testClock();
let service = createFakeService({ clock });

function createApp(overrides: Partial<ClientAppOptions> = {}) {
  const navigate = vi.fn();
  const app = new ClientApp({
    projectId: testProjectId,
    publishableClientKey: testPublishableKey,
    baseUrl: 'https://auth.example.com',
    tokenStore: 'cookie',
    fetch: service.fetch,
    clock,
    navigate,
    ...overrides,
  });
  return { app, navigate };
}

/** Runs a redirecting call to its end (it waits 2000 ms for the page to go). */
async function settle<T>(promise: Promise<T>): Promise<T> {
  await vi.advanceTimersByTimeAsync(2000);
  return promise;
}

describe('ClientApp in a browser', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    service = createFakeService({ clock });
    clearCookies();
    window.history.replaceState(null, '', '/');
  });
  afterEach(() => vi.useRealTimers());

  it('defaults the e-mail verification callback to <origin>/handler/email-verification', async () => {
    const { app } = createApp();
    await app.signUpWithCredential({ ...alice, noRedirect: true });
    expect(service.requests[0]!.body).toEqual({
      ...alice,
      verification_callback_url: 'http://localhost:3000/handler/email-verification',
    });
  });

  it('keeps the session in cookies, so another tab sees the same user', async () => {
    const tab1 = createApp().app;
    await tab1.signUpWithCredential({ ...alice, noRedirect: true });
    expect(parseCookies(document.cookie).has(`stack-refresh-${testProjectId}`)).toBe(true);
    const tab2 = createApp().app;
    await expect(tab2.getUser()).resolves.toMatchObject({ primaryEmail: alice.email });
  });

  it('tells a subscribed tab when another tab signs out', async () => {
    const tab1 = createApp().app;
    await tab1.signUpWithCredential({ ...alice, noRedirect: true });
    const tab2 = createApp().app;
    const listener = vi.fn();
    tab2.subscribeUser(listener);
    await vi.waitFor(() => expect(tab2.getUserSnapshot()).toBeTruthy());
    await (await tab1.getUser({ or: 'throw' })).signOut({ noRedirect: true });
    await vi.advanceTimersByTimeAsync(100);
    await vi.waitFor(() => expect(tab2.getUserSnapshot()).toBeNull());
  });

  it('sends to sign-in with after_auth_return_to = current path, search and hash', async () => {
    window.history.replaceState(null, '', '/private/page?tab=2#section');
    const { app, navigate } = createApp();
    await settle(app.redirectToSignIn());
    expect(navigate).toHaveBeenCalledExactlyOnceWith(
      '/handler/sign-in?after_auth_return_to=%2Fprivate%2Fpage%3Ftab%3D2%23section',
    );
    await settle(app.redirectToSignUp());
    expect(navigate).toHaveBeenLastCalledWith(
      '/handler/sign-up?after_auth_return_to=%2Fprivate%2Fpage%3Ftab%3D2%23section',
    );
  });

  it('returns to after_auth_return_to after sign-in', async () => {
    await createApp().app.signUpWithCredential({ ...alice, noRedirect: true });
    window.history.replaceState(null, '', '/handler/sign-in?after_auth_return_to=%2Fprivate%3Fx%3D1');
    const { app, navigate } = createApp({ urls: { afterSignIn: '/dashboard' } });
    await settle(app.signInWithCredential(alice));
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/private?x=1');
  });

  it('sends a new user to after-sign-up and a returning one to after-sign-in', async () => {
    const { app, navigate } = createApp({ urls: { afterSignIn: '/dashboard', afterSignUp: '/welcome' } });
    await settle(app.signUpWithCredential(alice));
    expect(navigate).toHaveBeenLastCalledWith('/welcome');
    await settle(app.signInWithCredential(alice));
    expect(navigate).toHaveBeenLastCalledWith('/dashboard');
  });

  it('refuses an after_auth_return_to on another origin and does not navigate', async () => {
    window.history.replaceState(null, '', '/handler/sign-in?after_auth_return_to=https%3A%2F%2Fevil.com%2F');
    const { app, navigate } = createApp();
    await expect(app.signUpWithCredential(alice)).rejects.toMatchObject({ code: 'REDIRECT_URL_NOT_WHITELISTED' });
    expect(navigate).not.toHaveBeenCalled();
  });

  it('refuses configured redirect targets that leave the origin', async () => {
    const { app, navigate } = createApp({ urls: { home: 'javascript:alert(1)' } });
    await expect(app.redirectToHome()).rejects.toThrow(/Refusing to redirect/);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('redirects to sign-in with { or: "redirect" } when nobody is signed in', async () => {
    window.history.replaceState(null, '', '/account');
    const { app, navigate } = createApp();
    const result = app.getUser({ or: 'redirect' }).catch((e) => e);
    await vi.advanceTimersByTimeAsync(2000);
    expect(await result).toMatchObject({ code: 'USER_AUTHENTICATION_REQUIRED' });
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/handler/sign-in?after_auth_return_to=%2Faccount');
  });

  it('goes to after-sign-out after signing out, or to the given redirectUrl', async () => {
    const { app, navigate } = createApp({ urls: { afterSignOut: '/bye' } });
    await app.signUpWithCredential({ ...alice, noRedirect: true });
    await settle((await app.getUser({ or: 'throw' })).signOut());
    expect(navigate).toHaveBeenLastCalledWith('/bye');
    expect(parseCookies(document.cookie).size).toBe(0);
    await app.signInWithCredential({ ...alice, noRedirect: true });
    await settle((await app.getUser({ or: 'throw' })).signOut({ redirectUrl: 'http://localhost:3000/see-you' }));
    expect(navigate).toHaveBeenLastCalledWith('/see-you');
  });

  it('navigates to the plain redirect targets', async () => {
    const { app, navigate } = createApp({ urls: { home: '/home', afterSignOut: '/out' } });
    await settle(app.redirectToHome());
    await settle(app.redirectToAfterSignIn());
    await settle(app.redirectToAfterSignUp());
    await settle(app.redirectToAfterSignOut());
    expect(navigate.mock.calls.map(([url]) => url)).toEqual(['/home', '/home', '/home', '/out']);
  });
});
