/**
 * `ClientApp` in a browser page (jsdom, see `test-support/browser.ts`):
 * cookies shared by tabs, redirects, the return-to rules. Against the real
 * service in-process, one for the file.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ClientAppOptions } from './client-app.js';
import { parseCookies } from './internal/session/cookie-store.js';
import { useBrowserPage } from './test-support/browser.js';
import { clearCookies } from './test-support/cookies.js';
import { createTestApp, newCredentials, useTestService } from './test-support/service.js';

const service = useTestService();
useBrowserPage();
/** A user of this test; fresh for each, since every test shares the one service. */
let alice = newCredentials();

function createApp(overrides: Partial<ClientAppOptions> = {}) {
  return createTestApp(service(), { tokenStore: 'cookie', ...overrides });
}

/**
 * Runs a redirecting call to its end: real I/O with the service goes on while
 * fake time moves, until the call's 2000 ms wait for the page to go is over.
 */
async function settle<T>(promise: Promise<T>): Promise<T> {
  let settled = false;
  const tracked = promise.finally(() => {
    settled = true;
  });
  while (!settled) {
    await new Promise((resolve) => setImmediate(resolve));
    await vi.advanceTimersByTimeAsync(100);
  }
  return tracked;
}

describe('ClientApp in a browser', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    alice = newCredentials();
    clearCookies();
    window.history.replaceState(null, '', '/');
  });
  afterEach(() => vi.useRealTimers());

  it('defaults the e-mail verification callback to <origin>/handler/email-verification', async () => {
    const { app, requests } = createApp();
    await app.signUpWithCredential({ ...alice, noRedirect: true });
    expect(requests[0]!.body).toEqual({
      ...alice,
      verification_callback_url: 'http://localhost:3000/handler/email-verification',
    });
  });

  it('defaults the callbacks of the mailed links to <origin><handler>/password-reset and /magic-link-callback', async () => {
    const { app, requests } = createApp({ urls: { handler: '/auth' } });
    // settle: the service pads the reset answer with a timer, which this file's fake timers hold.
    await settle(app.sendForgotPasswordEmail(alice.email));
    await settle(app.sendMagicLinkEmail(alice.email).catch(() => {})); // magic link is off here: only the request counts
    expect(requests.map((request) => request.body)).toEqual([
      { email: alice.email, callback_url: 'http://localhost:3000/auth/password-reset' },
      { email: alice.email, callback_url: 'http://localhost:3000/auth/magic-link-callback' },
    ]);
  });

  it("carries the sign-in page's after_auth_return_to into the magic link, and the link's sign-in goes there", async () => {
    window.history.replaceState(null, '', '/handler/sign-in?after_auth_return_to=%2Fprotected%3Ftab%3D2');
    const { app, requests } = createApp();
    await settle(app.sendMagicLinkEmail(alice.email).catch(() => {})); // magic link is off here: only the request counts
    const link = new URL((requests[0]!.body as { callback_url: string }).callback_url);
    expect(`${link.origin}${link.pathname}`).toBe('http://localhost:3000/handler/magic-link-callback');
    expect(link.searchParams.get('after_auth_return_to')).toBe('/protected?tab=2');
  });

  it('keeps the session in cookies, so another tab sees the same user', async () => {
    const tab1 = createApp().app;
    await tab1.signUpWithCredential({ ...alice, noRedirect: true });
    expect(parseCookies(document.cookie).has(`stack-refresh-${service().projectId}`)).toBe(true);
    const tab2 = createApp().app;
    await expect(tab2.getUser()).resolves.toMatchObject({ primaryEmail: alice.email });
  });

  it('tells a subscribed tab within 100 ms when another tab signs out, showing no out-of-date user', async () => {
    const tab1 = createApp().app;
    await tab1.signUpWithCredential({ ...alice, noRedirect: true });
    const { app: tab2, calls } = createApp();
    tab2.subscribe('user', () => {});
    await vi.waitFor(() => expect(tab2.getSnapshot('user')).toBeTruthy());
    await (await tab1.getUser({ or: 'throw' })).signOut({ noRedirect: true });
    const callsBefore = calls().length;
    await vi.advanceTimersByTimeAsync(100);
    expect(tab2.getSnapshot('user')).toBeNull();
    expect(calls().slice(callsBefore)).toEqual([]); // signed out without asking the service
  });

  it('tells a subscribed tab within 100 ms when another tab signs in', async () => {
    await createApp().app.signUpWithCredential({ ...alice, noRedirect: true });
    clearCookies();
    const tab2 = createApp().app;
    tab2.subscribe('user', () => {});
    await vi.waitFor(() => expect(tab2.getSnapshot('user')).toBeNull());
    await createApp().app.signInWithCredential({ ...alice, noRedirect: true });
    await vi.advanceTimersByTimeAsync(100);
    await vi.waitFor(() => expect(tab2.getSnapshot('user')).toMatchObject({ primaryEmail: alice.email }));
  });

  it('regression: getUser() of an unsubscribed tab is null right after another tab signed out', async () => {
    const tab1 = createApp().app;
    await tab1.signUpWithCredential({ ...alice, noRedirect: true });
    const tab2 = createApp().app;
    await expect(tab2.getUser()).resolves.toMatchObject({ primaryEmail: alice.email });
    await (await tab1.getUser({ or: 'throw' })).signOut({ noRedirect: true });
    await expect(tab2.getUser()).resolves.toBeNull();
  });

  it('never shows the previous user when another tab signs in as someone else', async () => {
    const bob = newCredentials('correct-horse-2');
    const tab1 = createApp().app;
    await tab1.signUpWithCredential({ ...bob, noRedirect: true });
    await tab1.signUpWithCredential({ ...alice, noRedirect: true });
    const tab2 = createApp().app;
    const seen: Array<string | null | undefined> = [];
    tab2.subscribe('user', () => {
      const user = tab2.getSnapshot('user');
      seen.push(user === undefined ? undefined : (user?.primaryEmail ?? null));
    });
    await vi.waitFor(() => expect(tab2.getSnapshot('user')).toBeTruthy());
    await (await tab1.getUser({ or: 'throw' })).signOut({ noRedirect: true });
    await tab1.signInWithCredential({ ...bob, noRedirect: true });
    await vi.advanceTimersByTimeAsync(100);
    await vi.waitFor(() => expect(tab2.getSnapshot('user')).toMatchObject({ primaryEmail: bob.email }));
    expect(seen).toEqual([alice.email, undefined, bob.email]);
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

  it('redirects after sign-in, then waits 2000 ms for the page to go', async () => {
    await createApp().app.signUpWithCredential({ ...alice, noRedirect: true });
    const { app, navigate } = createApp({ urls: { afterSignIn: '/dashboard' } });
    let done = false;
    const signIn = app.signInWithCredential(alice).then(() => (done = true));
    while (navigate.mock.calls.length === 0) await new Promise((resolve) => setImmediate(resolve)); // real I/O
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/dashboard');
    await vi.advanceTimersByTimeAsync(1999);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await signIn;
    expect(done).toBe(true);
  });

  it('sends a new user to after-sign-up and a returning one to after-sign-in', async () => {
    const { app, navigate } = createApp({ urls: { afterSignIn: '/dashboard', afterSignUp: '/welcome' } });
    await settle(app.signUpWithCredential(alice));
    expect(navigate).toHaveBeenLastCalledWith('/welcome');
    await settle(app.signInWithCredential(alice));
    expect(navigate).toHaveBeenLastCalledWith('/dashboard');
  });

  it('ignores an after_auth_return_to on another origin at sign-up: signed in, on to after-sign-up', async () => {
    window.history.replaceState(null, '', '/handler/sign-in?after_auth_return_to=https%3A%2F%2Fevil.com%2F');
    const { app, navigate } = createApp({ urls: { afterSignUp: '/welcome' } });
    await settle(app.signUpWithCredential(alice));
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/welcome');
    expect(await app.getUser()).not.toBeNull();
  });

  it.each([
    ['//evil.com', '%2F%2Fevil.com'],
    ['/\\evil.com', '%2F%5Cevil.com'],
    ['\\/evil.com', '%5C%2Fevil.com'],
    ['/\t/evil.com', '%2F%09%2Fevil.com'],
    ['https://evil.com/', 'https%3A%2F%2Fevil.com%2F'],
    ['javascript:alert(1)', 'javascript%3Aalert(1)'],
    ['data:text/html,<script>alert(1)</script>', 'data%3Atext%2Fhtml%2C%3Cscript%3Ealert(1)%3C%2Fscript%3E'],
    ['" javascript:" (space first)', '%20javascript%3Aalert(1)'],
    ['"\\njavascript:" (newline first)', '%0Ajavascript%3Aalert(1)'],
    ['"\\x01javascript:" (control character first)', '%01javascript%3Aalert(1)'],
    ['"java\\tscript:" (tab inside)', 'java%09script%3Aalert(1)'],
  ])('ignores after_auth_return_to=%s: signed in, and on to after-sign-in, never there', async (_label, encoded) => {
    // Anybody can put a return-to in a link; it used to be refused after the session was stored.
    await createApp().app.signUpWithCredential({ ...alice, noRedirect: true });
    window.history.replaceState(null, '', `/handler/sign-in?after_auth_return_to=${encoded}`);
    const { app, navigate } = createApp({ urls: { afterSignIn: '/dashboard' } });
    await settle(app.signInWithCredential(alice));
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/dashboard');
    expect(await app.getUser()).not.toBeNull();
  });

  it('keeps a doubly encoded after_auth_return_to on this origin, as a path', async () => {
    await createApp().app.signUpWithCredential({ ...alice, noRedirect: true });
    window.history.replaceState(null, '', '/handler/sign-in?after_auth_return_to=%252F%252Fevil.com');
    const { app, navigate } = createApp();
    await settle(app.signInWithCredential(alice));
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/%2F%2Fevil.com');
  });

  it('refuses configured redirect targets that leave the origin', async () => {
    const { app, navigate } = createApp({ urls: { home: 'javascript:alert(1)' } });
    await expect(app.redirectToHome()).rejects.toThrow(/Refusing to redirect/);
    expect(navigate).not.toHaveBeenCalled();
  });

  it('redirects to sign-in with { or: "redirect" } when nobody is signed in', async () => {
    window.history.replaceState(null, '', '/account');
    const { app, navigate } = createApp();
    const result = await settle(app.getUser({ or: 'redirect' }).catch((e) => e));
    expect(result).toMatchObject({ code: 'USER_AUTHENTICATION_REQUIRED' });
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

  it('goes on after sign-in or sign-up to after_auth_return_to when on this origin, as a sign-in would', async () => {
    // A page that signed in with `noRedirect` and did more first (a passkey sign-up) goes on where the sign-in would have.
    const { app, navigate } = createApp({ urls: { afterSignIn: '/dashboard', afterSignUp: '/welcome' } });
    window.history.replaceState(null, '', '/handler/sign-up?after_auth_return_to=%2Fprivate%3Fx%3D1');
    await settle(app.redirectToAfterSignUp());
    await settle(app.redirectToAfterSignIn());
    window.history.replaceState(null, '', '/handler/sign-up?after_auth_return_to=https%3A%2F%2Fevil.com%2F');
    await settle(app.redirectToAfterSignUp());
    await settle(app.redirectToAfterSignIn());
    expect(navigate.mock.calls.map(([url]) => url)).toEqual(['/private?x=1', '/private?x=1', '/welcome', '/dashboard']);
  });
});
