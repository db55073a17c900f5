/**
 * OAuth with the real official SDK (`@stackframe/js` 2.7.23) against a real
 * Latchkey service: the SDK's own authorize URL (its PKCE challenge and state)
 * is followed through the service and its development stand-in for GitHub
 * (`shared` keys), and the SDK's own code exchange (`callOAuthCallback` of its
 * interface, what `signInWithOAuth` + the callback page run in a browser)
 * signs in. Then the SDK reads the connected account as the protocol says:
 * `getConnectedAccount` is null for a user without one and throws for shared keys.
 */
import { createHash, randomBytes } from 'node:crypto';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { password, useCompatEnvironment, verificationCallbackUrl } from './support/harness.js';
import { codeOf } from './support/outcomes.js';
import { StackClientApp, StackServerApp } from './support/sdk.js';

const env = useCompatEnvironment();
const callbackUrl = 'http://localhost:3000/handler/oauth-callback';
const errorUrl = 'http://localhost:3000/handler/error';

interface OAuthInterface {
  getOAuthUrl(options: Record<string, unknown>): Promise<string>;
  callOAuthCallback(options: {
    oauthParams: URLSearchParams;
    redirectUri: string;
    codeVerifier: string;
    state: string;
  }): Promise<{ newUser: boolean; accessToken: string; refreshToken: string; afterCallbackRedirectUrl?: string }>;
}

beforeAll(async () => {
  await env.svc.setProjectConfig({ oauth_providers: [{ id: 'github', type: 'shared', enabled: true }] });
});

afterEach(() => {
  expect(env.net.blocked, 'non-loopback fetches').toEqual([]);
});

function clientApp(tokenStore: 'memory' | { accessToken: string; refreshToken: string } = 'memory') {
  return new StackClientApp({
    baseUrl: env.svc.url,
    projectId: env.svc.projectId,
    publishableClientKey: env.svc.keys.publishableClientKey,
    tokenStore,
    noAutomaticPrefetch: true,
  });
}

/** Follows redirects like a browser, keeping cookies, until the app's origin; the stand-in's form is posted. */
async function follow(url: string, person: { name: string; email: string }): Promise<URL> {
  const cookies = new Map<string, string>();
  let current = url;
  let init: RequestInit | undefined;
  for (let hop = 0; hop < 10; hop++) {
    if (current.startsWith('http://localhost:3000')) return new URL(current);
    const headers = new Headers(init?.headers);
    if (cookies.size) headers.set('cookie', [...cookies].map(([k, v]) => `${k}=${v}`).join('; '));
    const response = await fetch(current, { ...init, headers, redirect: 'manual' });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ''] = line.split(';');
      const at = pair.indexOf('=');
      cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const location = response.headers.get('location');
    if (location) {
      await response.body?.cancel();
      current = new URL(location, current).href;
      init = undefined;
      continue;
    }
    // The development stand-in's page: choose the person, as its form does.
    expect(await response.text()).toContain('Development stand-in');
    const form = new URLSearchParams({ ...Object.fromEntries(new URL(current).searchParams), ...person });
    init = { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form };
  }
  throw new Error(`no landing from ${url}`);
}

describe('OAuth with the official SDK', () => {
  it('follows the SDK’s authorize URL (PKCE S256) and signs in with its code exchange', async () => {
    const app = clientApp();
    const api = (app as unknown as { _interface: OAuthInterface })._interface;
    const codeVerifier = randomBytes(32).toString('base64url');
    const state = randomBytes(32).toString('base64url');
    const url = await api.getOAuthUrl({
      provider: 'GitHub',
      redirectUrl: `${callbackUrl}?code=stale&state=stale`,
      errorRedirectUrl: errorUrl,
      afterCallbackRedirectUrl: 'http://localhost:3000/after',
      codeChallenge: createHash('sha256').update(codeVerifier).digest('base64url'),
      state,
      type: 'authenticate',
      providerScope: undefined,
    });
    const sent = new URL(url).searchParams;
    expect(sent.get('code_challenge_method')).toBe('S256');
    expect(sent.get('redirect_uri')).toBe(callbackUrl);

    const landing = await follow(url, {
      name: 'Octo Compat',
      email: `octo-${state.slice(0, 8).toLowerCase()}@example.com`,
    });
    expect(`${landing.origin}${landing.pathname}`).toBe(callbackUrl);
    expect(landing.searchParams.get('state')).toBe(state);

    const result = await api.callOAuthCallback({
      oauthParams: landing.searchParams,
      redirectUri: callbackUrl,
      codeVerifier,
      state,
    });
    expect(result.newUser).toBe(true);
    expect(result.afterCallbackRedirectUrl).toBe('http://localhost:3000/after');

    const signedIn = clientApp({ accessToken: result.accessToken, refreshToken: result.refreshToken });
    const user = await signedIn.getUser();
    expect(user).toMatchObject({ displayName: 'Octo Compat', primaryEmailVerified: false, hasPassword: false });
    expect(user!.oauthProviders.map((p) => p.id)).toEqual(['github']);

    // A code is exchanged once: the SDK's second exchange fails.
    await expect(
      api.callOAuthCallback({ oauthParams: landing.searchParams, redirectUri: callbackUrl, codeVerifier, state }),
    ).rejects.toThrow();

    // Shared keys give no provider access token: the SDK throws, as the protocol has it.
    const thrown = await user!.getConnectedAccount('github').then(
      () => null,
      (error: unknown) => error,
    );
    expect(codeOf(thrown)).toBe('OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS');
    const server = new StackServerApp({
      baseUrl: env.svc.url,
      projectId: env.svc.projectId,
      publishableClientKey: env.svc.keys.publishableClientKey,
      secretServerKey: env.svc.keys.secretServerKey,
      tokenStore: null,
    });
    const serverUser = await server.getUser(user!.id);
    expect(serverUser!.oauthProviders).toEqual([expect.objectContaining({ id: 'github' })]);
  });

  it('links a provider to the signed-in session: the code exchange answers that session, which the SDK keeps', async () => {
    const app = clientApp();
    const email = `linker-${Date.now()}@example.com`;
    await app.signUpWithCredential({ email, password, noRedirect: true, verificationCallbackUrl });
    const user = await app.getUser();
    const api = (app as unknown as { _interface: OAuthInterface })._interface;
    const session = await (app as unknown as { _getSession(): Promise<unknown> })._getSession();
    const codeVerifier = randomBytes(32).toString('base64url');
    const state = randomBytes(32).toString('base64url');
    const url = await api.getOAuthUrl({
      provider: 'GitHub',
      redirectUrl: callbackUrl,
      errorRedirectUrl: errorUrl,
      afterCallbackRedirectUrl: 'http://localhost:3000/settings',
      codeChallenge: createHash('sha256').update(codeVerifier).digest('base64url'),
      state,
      type: 'link',
      session,
      providerScope: undefined,
    });
    expect(new URL(url).searchParams.get('token')).toEqual(expect.any(String));
    const landing = await follow(url, { name: 'Octo Linker', email: `octo-${email}` });
    expect(`${landing.origin}${landing.pathname}`).toBe(callbackUrl);
    // What the SDK's callback page runs: it requires a refresh token and stores both tokens.
    const result = await api.callOAuthCallback({
      oauthParams: landing.searchParams,
      redirectUri: callbackUrl,
      codeVerifier,
      state,
    });
    expect(result).toMatchObject({ newUser: false, afterCallbackRedirectUrl: 'http://localhost:3000/settings' });

    const linked = clientApp({ accessToken: result.accessToken, refreshToken: result.refreshToken });
    const after = await linked.getUser();
    expect(after?.id).toBe(user!.id);
    expect(after!.oauthProviders.map((p) => p.id)).toEqual(['github']);
    // Still the one session the user signed up with.
    const sessions = await fetch(`${env.svc.apiUrl}/auth/sessions?user_id=${user!.id}`, {
      headers: {
        'x-stack-access-type': 'server',
        'x-stack-project-id': env.svc.projectId,
        'x-stack-secret-server-key': env.svc.keys.secretServerKey,
      },
    });
    expect(((await sessions.json()) as { items: unknown[] }).items).toHaveLength(1);
  });

  it('answers null for a user without the connected account', async () => {
    const app = clientApp();
    await app.signUpWithCredential({
      email: `plain-${Date.now()}@example.com`,
      password,
      noRedirect: true,
      verificationCallbackUrl,
    });
    const user = await app.getUser();
    expect(await user!.getConnectedAccount('github')).toBeNull();
  });
});
