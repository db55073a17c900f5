/**
 * OAuth sign-in against a real OpenID Connect provider on loopback
 * (oidc-provider), configured as a generic provider by issuer URL: the whole
 * flow over HTTP, the account rules one by one, and the flow's security
 * checks (state, browser binding, PKCE, single use, expiry, ID-token
 * signature).
 */
import { generateKeyPair } from 'node:crypto';
import { promisify } from 'node:util';
import { exportJWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbOf } from '../storage/open-storage.js';
import { call, signUp, snapshot, userHeaders } from '../test-support/api.js';
import { auditEvents, auditTrail } from '../test-support/audit.js';
import { startTestService, type TestService } from '../testing/index.js';
import {
  appCallbackUrl,
  appErrorUrl,
  authorizeUrl,
  exchangeCode,
  landing,
  TestBrowser,
} from '../testing/oauth-browser.js';
import { type OidcUpstream, startUpstreamFor, type upstreamProvider } from '../testing/oidc-upstream.js';

let service: TestService;
let upstream: OidcUpstream;
/** Set by a test to serve a key set that did not sign the ID tokens. */
let forgedJwks: string | null = null;

beforeAll(async () => {
  service = await startTestService({
    oauthProviderNetwork: {
      // While a test forges the key set, the key-set URL changes, so no key cached before is used.
      rewriteUrl: (url) => (forgedJwks && url.endsWith('/jwks') ? `${url}?forged` : url),
      fetch: async (input, init) => {
        const url = String(input instanceof Request ? input.url : input);
        if (url.endsWith('/jwks?forged')) {
          return new Response(forgedJwks, { headers: { 'content-type': 'application/json' } });
        }
        return fetch(input, init);
      },
    },
  });
  let provider: ReturnType<typeof upstreamProvider>;
  ({ upstream, provider } = await startUpstreamFor(service.url, {
    accounts: [
      { sub: 'ada', email: 'ada@corp.test', email_verified: true, name: 'Ada Corp' },
      { sub: 'bob', email: 'bob@corp.test', email_verified: false, name: 'Bob Unverified' },
      { sub: 'nomail', name: 'No Mail' },
    ],
  }));
  await service.setProjectConfig({ oauth_providers: [provider] });
}, 60_000);

afterAll(async () => {
  await upstream?.close();
  await service?.close();
});

/** Runs a flow as `who` and returns where the browser landed, and the app's flow. */
async function signInAs(who: string | { deny: true }, options: Parameters<typeof authorizeUrl>[2] = {}) {
  const flow = authorizeUrl(service, 'corp', options);
  upstream.nextLogin(who);
  const browser = new TestBrowser();
  const end = await browser.go(flow.url);
  return { flow, browser, ...landing(end.url), end };
}

/** A whole sign-in as `who`, through the code exchange. */
async function completeSignIn(who: string, options: Parameters<typeof authorizeUrl>[2] = {}) {
  const result = await signInAs(who, options);
  expect(result.page, result.params.get('message') ?? '').toBe(appCallbackUrl);
  expect(result.params.get('state')).toBe(result.flow.state);
  return exchangeCode(service, { code: result.params.get('code')!, verifier: result.flow.verifier });
}

/** The accounts, users and sessions (the flow's own used code aside): what a refused sign-in must not change. */
async function accounts() {
  const { codes: _codes, ...rest } = await snapshot(service);
  return rest;
}

async function me(tokens: { access_token: string }) {
  return (await call(service, 'GET', '/users/me', { headers: userHeaders(service, tokens) })).body;
}

describe('generic OpenID Connect sign-in', () => {
  it('creates a user with the verified e-mail on first sign-in, and signs the same user in afterwards', async () => {
    const first = await completeSignIn('ada');
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ token_type: 'Bearer', is_new_user: true, after_callback_redirect_url: null });
    const user = await me(first.body as { access_token: string });
    expect(user).toMatchObject({
      primary_email: 'ada@corp.test',
      primary_email_verified: true,
      display_name: 'Ada Corp',
      has_password: false,
      oauth_providers: [{ id: 'corp', account_id: 'ada', email: 'ada@corp.test' }],
    });

    const second = await completeSignIn('ada');
    expect(second.body).toMatchObject({ is_new_user: false, user_id: user.id });
    expect(await auditTrail(service, user.id)).toEqual(['sign_up', 'oauth.connected', 'sign_in.succeeded']);
    const [signedIn] = await auditEvents(service, { user_id: user.id, type: 'sign_in.succeeded' });
    expect(signedIn).toMatchObject({ actor: { type: 'anonymous' }, data: { method: 'oauth', provider: 'corp' } });
  });

  it('lists the provider for clients with its display name', async () => {
    const project = await call(service, 'GET', '/projects/current', {
      headers: userHeaders(service, { access_token: '' }),
    });
    expect(project.body.config.enabled_oauth_providers).toEqual([{ id: 'corp', display_name: 'Corp SSO' }]);
  });

  it('carries after_callback_redirect_url through to the exchange', async () => {
    const answer = await completeSignIn('ada', { afterCallbackRedirectUrl: 'http://localhost:3000/dashboard' });
    expect(answer.body.after_callback_redirect_url).toBe('http://localhost:3000/dashboard');
  });

  it('creates a user without an e-mail when the provider gives none', async () => {
    const answer = await completeSignIn('nomail');
    const user = await me(answer.body as { access_token: string });
    expect(user).toMatchObject({ primary_email: null, display_name: 'No Mail' });
  });

  it('stores the provider tokens sealed, not in clear', async () => {
    const rows = await dbOf(service.storage).selectFrom('oauth_accounts').selectAll().execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) {
      expect(row.access_token_sealed).toMatch(/^v1\./);
      expect(row.access_token_sealed!.length).toBeGreaterThan(40);
    }
  });
});

describe('the flow refuses', () => {
  it('a person who declines at the provider: the error page gets OAUTH_PROVIDER_ACCESS_DENIED, and no user is made', async () => {
    const before = await accounts();
    const result = await signInAs({ deny: true });
    expect(result.page).toBe(appErrorUrl);
    expect(result.params.get('errorCode')).toBe('OAUTH_PROVIDER_ACCESS_DENIED');
    expect(result.params.get('message')).toMatch(/cancelled/i);
    expect(await accounts()).toEqual(before);
  });

  it('a replayed authorization code, a wrong verifier and another redirect URI', async () => {
    const result = await signInAs('ada');
    const code = result.params.get('code')!;
    const wrongVerifier = await exchangeCode(service, { code, verifier: 'x'.repeat(43) });
    expect(wrongVerifier).toMatchObject({ status: 400, body: { code: 'INVALID_AUTHORIZATION_CODE' } });
    const otherRedirect = await exchangeCode(service, {
      code,
      verifier: result.flow.verifier,
      redirectUri: 'http://localhost:3000/elsewhere',
    });
    expect(otherRedirect.body.code).toBe('REDIRECT_URL_NOT_WHITELISTED');
    const good = await exchangeCode(service, { code, verifier: result.flow.verifier });
    expect(good.status).toBe(200);
    const replay = await exchangeCode(service, { code, verifier: result.flow.verifier });
    expect(replay).toMatchObject({ status: 400, body: { code: 'INVALID_AUTHORIZATION_CODE' } });
  });

  it('an authorization code after its two minutes', async () => {
    const result = await signInAs('ada');
    service.clock.advance(2 * 60_000 + 1);
    const late = await exchangeCode(service, { code: result.params.get('code')!, verifier: result.flow.verifier });
    expect(late.body.code).toBe('INVALID_AUTHORIZATION_CODE');
  });

  it('a callback with a state the service never issued', async () => {
    const browser = new TestBrowser();
    const end = await browser.go(`${service.apiUrl}/auth/oauth/callback/corp?code=abc&state=${'a'.repeat(45)}`);
    expect(end.response?.status).toBe(400);
    expect((await end.response!.json()).code).toBe('INVALID_AUTHORIZATION_CODE');
  });

  it('the provider callback replayed, and one arriving in another browser', async () => {
    const flow = authorizeUrl(service, 'corp');
    upstream.nextLogin('ada');
    const browser = new TestBrowser();
    const end = await browser.go(flow.url, {
      stopAt: ['http://localhost:3000', `${service.apiUrl}/auth/oauth/callback`],
    });
    const providerCallback = end.url;
    // Another browser (no cookie binding the flow) cannot use the provider's answer.
    const stranger = await new TestBrowser().go(providerCallback);
    expect(landing(stranger.url).params.get('errorCode')).toBe('OUTER_OAUTH_TIMEOUT');
    // The browser that started it can, once.
    const once = await browser.go(providerCallback);
    expect(landing(once.url).page).toBe(appCallbackUrl);
    const twice = await browser.go(providerCallback);
    expect(landing(twice.url).params.get('errorCode')).toBe('OUTER_OAUTH_TIMEOUT');
  });

  it('a flow older than 10 minutes: OUTER_OAUTH_TIMEOUT', async () => {
    const flow = authorizeUrl(service, 'corp');
    upstream.nextLogin('ada');
    const browser = new TestBrowser();
    const end = await browser.go(flow.url, {
      stopAt: ['http://localhost:3000', `${service.apiUrl}/auth/oauth/callback`],
    });
    service.clock.advance(10 * 60_000 + 1);
    const late = await browser.go(end.url);
    expect(landing(late.url).params.get('errorCode')).toBe('OUTER_OAUTH_TIMEOUT');
  });

  it('an ID token whose signature does not verify against the issuer’s keys', async () => {
    const { publicKey } = await promisify(generateKeyPair)('rsa', { modulusLength: 2048 });
    forgedJwks = JSON.stringify({
      keys: [{ ...(await exportJWK(publicKey)), kid: 'forged', alg: 'RS256', use: 'sig' }],
    });
    try {
      // The provider signs with its own key, which the forged set lacks.
      const result = await signInAs('ada');
      expect(result.page).toBe(appErrorUrl);
      expect(result.params.get('errorCode')).toBe('OAUTH_PROVIDER_ACCESS_DENIED');
      expect(result.params.get('message')).toMatch(/ID token/);
    } finally {
      forgedJwks = null;
    }
  });

  it('bad client credentials, untrusted URLs and a missing PKCE challenge, answered without a redirect', async () => {
    const browser = new TestBrowser();
    const cases: [Parameters<typeof authorizeUrl>[2], string, number][] = [
      [{ clientSecret: 'pck_wrong' }, 'INVALID_PUBLISHABLE_CLIENT_KEY', 401],
      [{ redirectUri: 'https://evil.example/callback' }, 'REDIRECT_URL_NOT_WHITELISTED', 400],
      [{ errorRedirectUrl: 'https://evil.example/error' }, 'REDIRECT_URL_NOT_WHITELISTED', 400],
      [{ afterCallbackRedirectUrl: 'https://evil.example/' }, 'REDIRECT_URL_NOT_WHITELISTED', 400],
      [{ omit: ['code_challenge'] }, 'SCHEMA_ERROR', 400],
    ];
    for (const [options, code, status] of cases) {
      const end = await browser.go(authorizeUrl(service, 'corp', options).url);
      expect(end.response?.status, code).toBe(status);
      expect((await end.response!.json()).code).toBe(code);
    }
  });

  it('a provider the project has not enabled, on the error page', async () => {
    const end = await new TestBrowser().go(authorizeUrl(service, 'gitlab').url);
    expect(landing(end.url).params.get('errorCode')).toBe('OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED');
  });
});

describe('account rules', () => {
  it('a verified provider e-mail proves an address an account signs in with unproven: the account is hers, its password and sessions end', async () => {
    // Someone signed up with grace's address and a password; the address is all the account has
    // (pre-claimed-address.test.ts has the account with ways in of its own, which she does not get).
    const squatter = await signUp(service, 'grace@corp.test');
    upstream.setAccount({ sub: 'grace', email: 'grace@corp.test', email_verified: true });
    const answer = await completeSignIn('grace');
    expect(answer.body).toMatchObject({ is_new_user: false, user_id: squatter.user_id });
    expect(await me(answer.body as { access_token: string })).toMatchObject({
      has_password: false,
      primary_email_verified: true,
      oauth_providers: [{ id: 'corp', account_id: 'grace', email: 'grace@corp.test' }],
    });
    expect((await me(squatter)).id).toBeUndefined();
  });

  it('refuses an unverified provider e-mail that a verified account signs in with', async () => {
    const owner = await signUp(service, 'bob@corp.test');
    await verifyPrimaryEmail(owner);
    const result = await signInAs('bob');
    expect(result.params.get('errorCode')).toBe('CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE');
  });

  it('links to the account when both sides have the address verified', async () => {
    const owner = await signUp(service, 'hedy@corp.test');
    await verifyPrimaryEmail(owner);
    upstream.setAccount({ sub: 'hedy', email: 'hedy@corp.test', email_verified: true });
    const answer = await completeSignIn('hedy');
    expect(answer.body).toMatchObject({ is_new_user: false, user_id: owner.user_id });
    expect((await me(owner)).oauth_providers).toEqual([{ id: 'corp', account_id: 'hedy', email: 'hedy@corp.test' }]);
  });

  it('refuses sign-up through a provider when sign-up is off', async () => {
    upstream.setAccount({ sub: 'newcomer', email: 'newcomer@corp.test', email_verified: true });
    await service.setProjectConfig({ sign_up_enabled: false });
    try {
      const result = await signInAs('newcomer');
      expect(result.params.get('errorCode')).toBe('SIGN_UP_NOT_ENABLED');
    } finally {
      await service.setProjectConfig({ sign_up_enabled: true });
    }
  });

  it('links an account for the signed-in user, and not for anybody else afterwards', async () => {
    const alice = await signUp(service, 'alice@app.test');
    upstream.setAccount({ sub: 'alice-corp', email: 'alice@corp.test', email_verified: true });
    const linked = await completeSignIn('alice-corp', {
      type: 'link',
      token: alice.access_token,
      afterCallbackRedirectUrl: 'http://localhost:3000/settings',
    });
    expect(linked.body).toMatchObject({ user_id: alice.user_id, is_new_user: false });
    expect(linked.body.after_callback_redirect_url).toBe('http://localhost:3000/settings');
    expect((await me(alice)).oauth_providers).toEqual([
      { id: 'corp', account_id: 'alice-corp', email: 'alice@corp.test' },
    ]);
    // Linking is no sign-in: the user connected an account, as themselves.
    expect(await auditTrail(service, alice.user_id)).toEqual(['sign_up', 'oauth.connected']);
    const [connected] = await auditEvents(service, { user_id: alice.user_id, type: 'oauth.connected' });
    expect(connected!.actor).toEqual({ type: 'user', id: alice.user_id });

    const mallory = await signUp(service, 'mallory@app.test');
    const stolen = await signInAs('alice-corp', { type: 'link', token: mallory.access_token });
    expect(stolen.params.get('errorCode')).toBe('OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER');

    upstream.setAccount({ sub: 'alice-second', email: 'alice2@corp.test', email_verified: true });
    const second = await signInAs('alice-second', { type: 'link', token: alice.access_token });
    expect(second.params.get('errorCode')).toBe('USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION');
  });

  it('refuses a link without a valid access token of the project', async () => {
    const result = await signInAs('ada', { type: 'link', token: 'not-a-token' });
    expect(result.params.get('errorCode')).toBe('UNPARSABLE_ACCESS_TOKEN');
  });
});

async function verifyPrimaryEmail(user: { user_id: string }) {
  const channels = await call(service, 'GET', `/contact-channels?user_id=${user.user_id}`, {
    headers: userHeaders(service, { access_token: '' }, 'server'),
  });
  const channel = channels.body.items[0];
  const answer = await call(service, 'PATCH', `/contact-channels/${user.user_id}/${channel.id}`, {
    headers: userHeaders(service, { access_token: '' }, 'server'),
    json: { is_verified: true },
  });
  expect(answer.status).toBe(200);
}
