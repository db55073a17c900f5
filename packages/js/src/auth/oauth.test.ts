/**
 * OAuth in a browser page (jsdom) against the real service in-process, whose
 * `shared` GitHub goes through its development stand-in: the authorize URL
 * and code exchange as the 2.7 SDK built them (vectors 104, 105), the
 * callback's rules, and connected accounts for the client and server code
 * (vectors 47, 189). Answers the service would not give are injected.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cookieNames, isKnownError } from '@latchkey/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ClientAppOptions } from '../client-app.js';
import { parseCookies } from '../internal/session/cookie-store.js';
import { ServerApp } from '../server-app.js';
import { jsonAnswer, knownErrorAnswer } from '../test-support/answers.js';
import { useBrowserPage } from '../test-support/browser.js';
import { clearCookies } from '../test-support/cookies.js';
import {
  createTestApp,
  newCredentials,
  recordingFetch,
  type TestService,
  useTestService,
} from '../test-support/service.js';
import { totpAt } from '../test-support/totp.js';
import { multiFactorAttempt } from './mfa-auth.js';

const service = useTestService({
  projectConfig: { oauth_providers: [{ id: 'github', type: 'shared', enabled: true }] },
});
useBrowserPage();

interface Vector {
  seq: number;
  query: Record<string, string>;
  headers: Record<string, string>;
  body: Record<string, unknown> | null;
}
const vectorsPath = fileURLToPath(new URL('../../../../../shared/protocol-requests.jsonl', import.meta.url));
const vectors = new Map(
  readFileSync(vectorsPath, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => JSON.parse(line) as Vector)
    .map((vector) => [vector.seq, vector]),
);
const vector = (seq: number): Vector => {
  const found = vectors.get(seq);
  if (!found) throw new Error(`vector ${seq} missing`);
  return found;
};

/** The `x-stack-*` header names of a request, sorted. */
const stackHeaders = (headers: Record<string, string>) =>
  Object.keys(headers)
    .map((name) => name.toLowerCase())
    .filter((name) => name.startsWith('x-stack-'))
    .sort();

const createApp = (options: Partial<ClientAppOptions> = {}) =>
  createTestApp(service(), { tokenStore: 'cookie', ...options });

/** The verifier cookie of `state`, as the page holds it. */
const verifierOf = (state: string) => parseCookies(document.cookie).get(cookieNames.oauthVerifier(state));

/** What `run` returns when called with the page's `window` and `document` gone (server code). */
function outsideBrowser<T>(run: () => T): T {
  const globals = globalThis as { window?: unknown; document?: unknown };
  const { window: page, document: doc } = globals;
  delete globals.window;
  delete globals.document;
  try {
    return run();
  } finally {
    globals.window = page;
    globals.document = doc;
  }
}

/** Runs a redirecting call to its end while fake time moves (the 2000 ms wait for the page to go). */
async function settle<T>(promise: Promise<T>): Promise<T> {
  let settled = false;
  const tracked = promise.finally(() => {
    settled = true;
  });
  tracked.catch(() => {}); // the caller sees the rejection through the returned promise
  while (!settled) {
    await new Promise((resolve) => setImmediate(resolve));
    await vi.advanceTimersByTimeAsync(100);
  }
  return tracked;
}

/**
 * The person at the stand-in: follows the authorize URL (with the service's
 * cookies) to the stand-in's page, submits it with `fields`, and answers
 * the app page the flow came back to.
 */
async function throughStandIn(testService: TestService, url: string, fields: Record<string, string>) {
  const jar = new Map<string, string>();
  const go = async (start: string, init?: RequestInit): Promise<{ url: string; status: number }> => {
    let current = start;
    let request = init;
    for (let hop = 0; hop < 10; hop++) {
      if (!current.startsWith(testService.url)) return { url: current, status: 0 };
      const headers = new Headers(request?.headers);
      if (jar.size) headers.set('cookie', [...jar].map(([name, value]) => `${name}=${value}`).join('; '));
      const answer = await fetch(current, { ...request, headers, redirect: 'manual' });
      for (const line of answer.headers.getSetCookie()) {
        const [pair = ''] = line.split(';');
        const index = pair.indexOf('=');
        jar.set(pair.slice(0, index).trim(), pair.slice(index + 1).trim());
      }
      const location = answer.headers.get('location');
      await answer.body?.cancel();
      if (answer.status < 300 || answer.status >= 400 || !location) return { url: current, status: answer.status };
      current = new URL(location, current).href;
      request = undefined;
    }
    throw new Error('too many redirects');
  };
  const page = await go(url);
  expect(page.status).toBe(200);
  const form = new URLSearchParams({ ...Object.fromEntries(new URL(page.url).searchParams), ...fields });
  const back = await go(page.url, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form,
  });
  return new URL(back.url);
}

/** Starts a sign-in on the page and returns the authorize URL the app went to. */
async function startSignIn(app: ReturnType<typeof createApp>, options: { returnTo?: string } = {}) {
  await settle(app.app.signInWithOAuth('github', options));
  const url = app.navigate.mock.calls.at(-1)?.[0];
  if (!url) throw new Error('signInWithOAuth did not navigate');
  return new URL(url);
}

/** Signs a new person up through the stand-in; the page ends where the callback redirected. */
async function signUpWithGitHub(test = createApp()) {
  const authorize = await startSignIn(test);
  const email = newCredentials().email;
  const back = await throughStandIn(service(), authorize.href, { name: 'Octo', email });
  window.history.replaceState(null, '', `${back.pathname}${back.search}`);
  await settle(test.app.callOAuthCallback());
  return { ...test, email };
}

describe('OAuth in a browser', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    clearCookies();
    window.history.replaceState(null, '', '/handler/sign-in');
  });
  afterEach(() => vi.useRealTimers());

  it('goes to the authorize URL of vector 104, keeping the PKCE verifier of its challenge in a cookie', async () => {
    const authorize = await startSignIn(createApp());
    const expected = vector(104).query;
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${service().url}/api/v1/auth/oauth/authorize/github`);
    const query = Object.fromEntries(authorize.searchParams);
    expect(Object.keys(query)).toEqual(Object.keys(expected));
    expect(query).toMatchObject({
      client_id: service().projectId,
      client_secret: service().keys.publishableClientKey,
      redirect_uri: expected.redirect_uri,
      scope: 'legacy',
      grant_type: 'authorization_code',
      code_challenge_method: 'S256',
      response_type: 'code',
      type: 'authenticate',
      error_redirect_url: expected.error_redirect_url,
    });
    expect(query.state).toMatch(/^[\w-]{43}$/);
    const verifier = verifierOf(query.state ?? '');
    expect(verifier).toMatch(/^[\w-]{43}$/);
    expect(query.code_challenge).toBe(
      createHash('sha256')
        .update(verifier ?? '')
        .digest('base64url'),
    );
  });

  it('carries returnTo, else the page’s after_auth_return_to, as an absolute after_callback_redirect_url', async () => {
    window.history.replaceState(null, '', '/handler/sign-in?after_auth_return_to=%2Forders%3Fid%3D1');
    const fromPage = await startSignIn(createApp());
    expect(fromPage.searchParams.get('after_callback_redirect_url')).toBe('http://localhost:3000/orders?id=1');
    const given = await startSignIn(createApp(), { returnTo: '/dashboard' });
    expect(given.searchParams.get('after_callback_redirect_url')).toBe('http://localhost:3000/dashboard');
    await expect(createApp().app.signInWithOAuth('github', { returnTo: 'https://evil.example/' })).rejects.toSatisfy(
      (error) => isKnownError(error, 'REDIRECT_URL_NOT_WHITELISTED'),
    );
  });

  it('signs up through the provider: exchange = vector 105, code and state off the address bar, after-sign-up', async () => {
    const test = createApp();
    const { app, requests, navigate, email } = await signUpWithGitHub(test);
    const exchange = requests.find((request) => request.path === '/api/v1/auth/oauth/token');
    expect(exchange?.contentType).toBe(vector(105).headers['content-type']);
    expect(Object.keys(exchange?.headers ?? {}).filter((name) => name.startsWith('x-stack-'))).toEqual([]);
    const body = exchange?.body as Record<string, string>;
    expect(Object.keys(body)).toEqual(Object.keys(vector(105).body ?? {}));
    expect(body).toMatchObject({
      redirect_uri: 'http://localhost:3000/handler/oauth-callback',
      grant_type: 'authorization_code',
      client_id: service().projectId,
      client_secret: service().keys.publishableClientKey,
    });
    expect(window.location.search).toBe('');
    expect(navigate).toHaveBeenLastCalledWith('/'); // after-sign-up, which defaults to home
    const user = await app.getUser({ or: 'throw' });
    expect(user.oauthProviders).toEqual([{ id: 'github', accountId: expect.any(String), email }]);
    expect(document.cookie).not.toContain('stack-oauth-outer-');
  });

  it('answers false on a page without code and state', async () => {
    window.history.replaceState(null, '', '/handler/oauth-callback');
    await expect(createApp().app.callOAuthCallback()).resolves.toBe(false);
  });

  it('ignores a callback whose verifier cookie is gone (spec §4), after clearing the address bar', async () => {
    window.history.replaceState(null, '', '/handler/oauth-callback?code=abc&state=nope&keep=1');
    const { app, requests } = createApp();
    await expect(app.callOAuthCallback()).resolves.toBe(false);
    expect(window.location.search).toBe('?keep=1');
    expect(requests).toEqual([]);
  });

  it('throws the known error of a refused exchange, and INVALID_AUTHORIZATION_CODE for an OAuth error body', async () => {
    const authorize = await startSignIn(createApp());
    const state = authorize.searchParams.get('state') ?? '';
    window.history.replaceState(null, '', `/handler/oauth-callback?code=not-a-code&state=${state}`);
    const { app } = createApp();
    await expect(app.callOAuthCallback()).rejects.toSatisfy((error) =>
      isKnownError(error, 'INVALID_AUTHORIZATION_CODE'),
    );
    const again = await startSignIn(createApp());
    const test = createApp();
    test.failNext('POST /auth/oauth/token', () =>
      jsonAnswer({ error: 'invalid_grant', error_description: 'Code used.' }, 400),
    );
    window.history.replaceState(null, '', `/handler/oauth-callback?code=c&state=${again.searchParams.get('state')}`);
    await expect(test.app.callOAuthCallback()).rejects.toMatchObject({
      code: 'INVALID_AUTHORIZATION_CODE',
      message: 'Code used.',
    });
    await expect(test.app.getUser()).resolves.toBeNull();
  });

  it('throws MULTI_FACTOR_AUTHENTICATION_REQUIRED for a user with TOTP; its attempt code finishes the sign-in', async () => {
    const signedUp = await signUpWithGitHub();
    const secret = Uint8Array.from({ length: 20 }, (_, index) => index + 1);
    const before = await signedUp.app.getUser({ or: 'throw' });
    await before.update({ totpMultiFactorSecret: secret });
    await before.signOut({ noRedirect: true }); // the page's cookies are the next app's too

    const test = createApp();
    const authorize = await startSignIn(test);
    const back = await throughStandIn(service(), authorize.href, { name: 'Octo', email: signedUp.email });
    window.history.replaceState(null, '', `${back.pathname}${back.search}`);
    const error = await settle(test.app.callOAuthCallback()).catch((caught: unknown) => caught);
    const attempt = multiFactorAttempt(error);
    expect(attempt?.setupRequired).toBe(false);
    await expect(test.app.getUser()).resolves.toBeNull();

    service().clock.advance(30_000);
    const totp = totpAt(secret, service().clock.now());
    await test.app.signInWithMfa({ attemptCode: attempt?.attemptCode ?? '', totp }, { noRedirect: true });
    expect((await test.app.getUser({ or: 'throw' })).oauthProviders[0]?.email).toBe(signedUp.email);
  });

  it('ends the second step of a callback where the flow asked to, not at the after-sign-in page', async () => {
    const signedUp = await signUpWithGitHub();
    const secret = Uint8Array.from({ length: 20 }, (_, index) => index + 7);
    const before = await signedUp.app.getUser({ or: 'throw' });
    await before.update({ totpMultiFactorSecret: secret });
    await before.signOut({ noRedirect: true });

    window.history.replaceState(null, '', '/handler/sign-in?after_auth_return_to=%2Forders%3Fopen%3D1');
    const test = createApp({ urls: { afterSignIn: '/dashboard' } });
    const authorize = await startSignIn(test);
    const back = await throughStandIn(service(), authorize.href, { name: 'Octo', email: signedUp.email });
    window.history.replaceState(null, '', `${back.pathname}${back.search}`);
    const error = await settle(test.app.callOAuthCallback()).catch((caught: unknown) => caught);
    const attempt = multiFactorAttempt(error);
    expect(attempt).toEqual({
      attemptCode: expect.any(String),
      setupRequired: false,
      returnTo: 'http://localhost:3000/orders?open=1',
    });
    // The flow's cookie is used up with the verifier.
    expect(document.cookie).not.toContain('latchkey-oauth-return-');

    service().clock.advance(30_000);
    const totp = totpAt(secret, service().clock.now());
    await settle(
      test.app.signInWithMfa({ attemptCode: attempt?.attemptCode ?? '', totp }, { returnTo: attempt?.returnTo }),
    );
    expect(test.navigate).toHaveBeenLastCalledWith('/orders?open=1');
    expect((await test.app.getUser({ or: 'throw' })).oauthProviders[0]?.email).toBe(signedUp.email);
  });

  it('does not follow an after_callback_redirect_url on another origin', async () => {
    const authorize = await startSignIn(createApp());
    const signedUp = await signUpWithGitHub();
    const tokens = await (await signedUp.app.getUser({ or: 'throw' })).getTokens();
    const test = createApp();
    test.failNext('POST /auth/oauth/token', () =>
      jsonAnswer({
        access_token: tokens.accessToken,
        refresh_token: tokens.refreshToken,
        user_id: signedUp.email,
        is_new_user: false,
        after_callback_redirect_url: 'https://evil.example/steal',
        token_type: 'Bearer',
        expires_in: 600,
        scope: 'legacy',
      }),
    );
    window.history.replaceState(
      null,
      '',
      `/handler/oauth-callback?code=c&state=${authorize.searchParams.get('state')}`,
    );
    await settle(test.app.callOAuthCallback());
    expect(test.navigate.mock.calls).toEqual([['/']]);
  });

  it('follows an after_callback_redirect_url on this origin', async () => {
    window.history.replaceState(null, '', '/handler/sign-in?after_auth_return_to=%2Forders');
    const test = createApp();
    const authorize = await startSignIn(test);
    const back = await throughStandIn(service(), authorize.href, { name: 'Ada', email: newCredentials().email });
    window.history.replaceState(null, '', `${back.pathname}${back.search}`);
    await settle(test.app.callOAuthCallback());
    expect(test.navigate).toHaveBeenLastCalledWith('/orders');
  });

  it('refuses outside a browser page', async () => {
    const { app } = createApp({ tokenStore: 'memory' });
    const [signIn, callback] = outsideBrowser(() => [app.signInWithOAuth('github'), app.callOAuthCallback()]);
    await expect(signIn).rejects.toThrow(/browser/);
    await expect(callback).rejects.toThrow(/browser/);
  });
});

describe('connected accounts', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    clearCookies();
    window.history.replaceState(null, '', '/handler/sign-in');
  });
  afterEach(() => vi.useRealTimers());

  it('lists and gets the GitHub account; its token request = vector 47; scopes missing → null', async () => {
    const { app, requests, email } = await signUpWithGitHub();
    const user = await app.getUser({ or: 'throw' });
    expect((await user.listConnectedAccounts()).map(({ id, email }) => ({ id, email }))).toEqual([
      { id: 'github', email },
    ]);
    await expect(user.getConnectedAccount('google')).resolves.toBeNull();
    const github = await user.getConnectedAccount('github');
    expect(github).toMatchObject({ id: 'github', email });
    requests.length = 0;
    // Shared keys: the stand-in's tokens open nothing, which is thrown (wire-protocol.md §9.3).
    await expect(github?.getAccessToken()).rejects.toSatisfy((error) =>
      isKnownError(error, 'OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS'),
    );
    const sent = requests[0];
    const recorded = vector(47);
    expect([sent?.method, sent?.path, sent?.body]).toEqual([
      'POST',
      '/api/v1/connected-accounts/me/github/access-token',
      recorded.body,
    ]);
    expect(stackHeaders(sent?.headers ?? {})).toEqual(stackHeaders(recorded.headers));
    expect(sent?.contentType).toBe(recorded.headers['content-type']);
  });

  it('answers null for the two "no connection" errors and throws the others', async () => {
    const { app, failNext } = await signUpWithGitHub();
    const user = await app.getUser({ or: 'throw' });
    const call = 'POST /connected-accounts/me/github/access-token';
    failNext(call, () => knownErrorAnswer('OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE'));
    await expect(user.getConnectedAccount('github', { scopes: ['repo'] })).resolves.toBeNull();
    failNext(call, () => knownErrorAnswer('OAUTH_CONNECTION_NOT_CONNECTED_TO_USER'));
    await expect(user.getConnectedAccount('github', { scopes: ['repo'] })).resolves.toBeNull();
    failNext(call, () => jsonAnswer({ access_token: 'gho_1' }, 201));
    const account = await user.getConnectedAccount('github', { scopes: ['repo', 'gist'] });
    failNext(call, () => jsonAnswer({ access_token: 'gho_2' }, 201));
    await expect(account?.getAccessToken()).resolves.toEqual({ accessToken: 'gho_2' });
    await expect(user.getConnectedAccount('github', { scopes: ['repo'] })).rejects.toSatisfy((error) =>
      isKnownError(error, 'OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS'),
    );
  });

  it('links through the provider with the session’s token and scopes, or on getConnectedAccount({ or: "redirect" })', async () => {
    const test = createApp();
    await test.app.signUpWithCredential({ ...newCredentials(), noRedirect: true });
    const user = await test.app.getUser({ or: 'throw' });
    window.history.replaceState(null, '', '/handler/account-settings');
    await settle(user.linkConnectedAccount('github', { scopes: ['repo', 'gist'] }));
    const link = new URL(test.navigate.mock.calls.at(-1)?.[0] ?? '');
    const { accessToken } = await user.getTokens();
    expect(Object.fromEntries(link.searchParams)).toMatchObject({
      type: 'link',
      token: accessToken,
      provider_scope: 'repo gist',
      after_callback_redirect_url: 'http://localhost:3000/handler/account-settings',
    });
    const redirected = settle(user.getConnectedAccount('github', { or: 'redirect' }));
    await expect(redirected).rejects.toSatisfy((error) =>
      isKnownError(error, 'OAUTH_CONNECTION_NOT_CONNECTED_TO_USER'),
    );
    const second = new URL(test.navigate.mock.calls.at(-1)?.[0] ?? '');
    expect(second.searchParams.get('type')).toBe('link');
    expect(second.searchParams.has('provider_scope')).toBe(false);
    // Through the stand-in: the account is connected and the callback ends on the settings page.
    const back = await throughStandIn(service(), second.href, { name: 'Octo', email: newCredentials().email });
    window.history.replaceState(null, '', `${back.pathname}${back.search}`);
    await settle(test.app.callOAuthCallback());
    expect(test.navigate).toHaveBeenLastCalledWith('/handler/account-settings');
    const linked = await test.app.getUser({ or: 'throw' });
    expect([linked.id, linked.oauthProviders.map((provider) => provider.id)]).toEqual([user.id, ['github']]);
  });

  it('unlinks: the client is refused its last way to sign in; server code may; server token request = vector 189', async () => {
    const { app } = await signUpWithGitHub();
    const user = await app.getUser({ or: 'throw' });
    await expect(user.unlinkConnectedAccount('github')).rejects.toSatisfy((error) =>
      isKnownError(error, 'SCHEMA_ERROR'),
    );
    const recording = recordingFetch(service());
    const server = outsideBrowser(
      () =>
        new ServerApp({
          projectId: service().projectId,
          publishableClientKey: service().keys.publishableClientKey,
          secretServerKey: service().keys.secretServerKey,
          baseUrl: service().url,
          fetch: recording.fetch,
        }),
    );
    const serverUser = await server.getUser(user.id);
    const github = await serverUser?.getConnectedAccount('github');
    expect(github?.id).toBe('github');
    recording.requests.length = 0;
    await github?.getAccessToken().catch(() => {});
    const sent = recording.requests[0];
    const recorded = vector(189);
    expect([sent?.method, sent?.path, sent?.body]).toEqual([
      'POST',
      `/api/v1/connected-accounts/${user.id}/github/access-token`,
      recorded.body,
    ]);
    // The 2.7 server app also sent its publishable key (x-stack-publishable-client-key); ours never needs it here.
    expect(stackHeaders(sent?.headers ?? {})).toEqual(
      stackHeaders(recorded.headers).filter((name) => name !== 'x-stack-publishable-client-key'),
    );
    await serverUser?.unlinkConnectedAccount('github');
    await expect(server.getUser(user.id)).resolves.toMatchObject({ oauthProviders: [] });
  });
});
