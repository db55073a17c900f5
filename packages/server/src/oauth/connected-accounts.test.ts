/**
 * Connected accounts against a real OpenID provider on loopback: a provider
 * access token with the scopes a link asked for, refreshed by the service
 * once it has expired, refusals the SDK maps to "no connection", and
 * disconnecting (never a client's last way to sign in).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders, call, expectKnownError, signUp, userHeaders } from '../test-support/api.js';
import { auditEvents } from '../test-support/audit.js';
import { startTestService, type TestService } from '../testing/index.js';
import { appCallbackUrl, authorizeUrl, exchangeCode, landing, TestBrowser } from '../testing/oauth-browser.js';
import { type OidcUpstream, startUpstreamFor, type upstreamProvider } from '../testing/oidc-upstream.js';
import { SoftwareAuthenticator } from '../testing/software-authenticator.js';

let service: TestService;
let upstream: OidcUpstream;

beforeAll(async () => {
  service = await startTestService();
  let provider: ReturnType<typeof upstreamProvider>;
  ({ upstream, provider } = await startUpstreamFor(service.url, { accessTokenTtl: 600 }));
  await service.setProjectConfig({ oauth_providers: [provider] });
}, 60_000);

afterAll(async () => {
  await upstream?.close();
  await service?.close();
});

async function flow(who: string, options: Parameters<typeof authorizeUrl>[2] = {}) {
  const app = authorizeUrl(service, 'corp', options);
  upstream.nextLogin(who);
  const end = await new TestBrowser().go(app.url);
  const { page, params } = landing(end.url);
  expect(page, params.get('message') ?? '').toBe(appCallbackUrl);
  const answer = await exchangeCode(service, { code: params.get('code')!, verifier: app.verifier });
  expect(answer.status).toBe(200);
  return answer.body as { access_token: string; refresh_token: string; user_id: string };
}

function accessToken(
  tokens: { access_token: string },
  scope: string,
  user = 'me',
  access: 'client' | 'server' = 'client',
) {
  return call(service, 'POST', `/connected-accounts/${user}/corp/access-token`, {
    headers: access === 'client' ? userHeaders(service, tokens) : authHeaders(service, 'server'),
    json: { scope },
  });
}

/** Whether the upstream accepts the token (its userinfo endpoint). */
async function upstreamAccepts(token: string): Promise<boolean> {
  const answer = await fetch(`${upstream.issuer}/me`, { headers: { authorization: `Bearer ${token}` } });
  return answer.status === 200;
}

describe('provider access tokens', () => {
  it('answers a working token with the scopes the link asked for, and refuses scopes it was not granted', async () => {
    const user = await signUp(service);
    await flow('octo', { type: 'link', token: user.access_token, providerScope: 'repo' });
    const answer = await accessToken(user, 'repo');
    expect(answer.status).toBe(201);
    expect(await upstreamAccepts(answer.body.access_token)).toBe(true);
    expectKnownError(await accessToken(user, 'repo admin'), 'OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE', 400);
  });

  it('refreshes an expired token at the provider and stores the new one', async () => {
    const user = await signUp(service);
    // The link answers the session's tokens, its refresh token rotated: the app keeps those.
    const linked = await flow('refresher', { type: 'link', token: user.access_token });
    const first = (await accessToken(user, '')).body.access_token;
    service.clock.advance(11 * 60_000);
    const fresh = await call(service, 'POST', '/auth/oauth/token', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: linked.refresh_token,
        client_id: service.projectId,
        client_secret: service.keys.publishableClientKey,
      }).toString(),
    });
    const renewed = { access_token: fresh.body.access_token };
    const second = (await accessToken(renewed, '')).body.access_token;
    expect(second).not.toBe(first);
    expect(await upstreamAccepts(second)).toBe(true);
    // Stored: asked again, the same (still fresh) token comes back without another refresh.
    expect((await accessToken(renewed, '')).body.access_token).toBe(second);
  });

  it('answers OAUTH_CONNECTION_NOT_CONNECTED_TO_USER for a provider the user has not connected', async () => {
    const user = await signUp(service);
    expectKnownError(await accessToken(user, ''), 'OAUTH_CONNECTION_NOT_CONNECTED_TO_USER', 400);
  });

  it('lets server code read any user’s token, and a client only its own', async () => {
    const owner = await flow('server-read');
    const byServer = await accessToken({ access_token: '' }, '', owner.user_id, 'server');
    expect(byServer.status).toBe(201);
    const other = await signUp(service);
    expectKnownError(await accessToken(other, '', owner.user_id), 'INSUFFICIENT_ACCESS_TYPE', 401);
  });

  it('refuses malformed bodies', async () => {
    const user = await signUp(service);
    for (const json of [{ scope: 5 }, { scope: 'x'.repeat(3000) }, { other: 1 }]) {
      const answer = await call(service, 'POST', '/connected-accounts/me/corp/access-token', {
        headers: userHeaders(service, user),
        json,
      });
      expectKnownError(answer, 'SCHEMA_ERROR', 400);
    }
  });
});

describe('disconnecting', () => {
  it('refuses a client its last way to sign in, lets server code do it, and lets a user with a password do it', async () => {
    const only = await flow('only-way');
    const refused = await call(service, 'DELETE', '/connected-accounts/me/corp', {
      headers: userHeaders(service, only),
    });
    expectKnownError(refused, 'SCHEMA_ERROR', 400);
    expect(refused.body.details.message).toMatch(/only way to sign in/);
    expect(refused.body.error).toMatch(/^This account is your only way to sign in\./);

    const byServer = await call(service, 'DELETE', `/connected-accounts/${only.user_id}/corp`, {
      headers: authHeaders(service, 'server'),
    });
    expect(byServer.body).toEqual({ success: true });
    const after = await call(service, 'GET', `/users/${only.user_id}`, { headers: authHeaders(service, 'server') });
    expect(after.body.oauth_providers).toEqual([]);
    const [disconnected] = await auditEvents(service, { user_id: only.user_id, type: 'oauth.disconnected' });
    expect(disconnected).toMatchObject({ actor: { type: 'server' }, data: { provider: 'corp' } });

    const withPassword = await signUp(service);
    await flow('spare', { type: 'link', token: withPassword.access_token });
    const done = await call(service, 'DELETE', '/connected-accounts/me/corp', {
      headers: userHeaders(service, withPassword),
    });
    expect(done.body).toEqual({ success: true });
    const again = await call(service, 'DELETE', '/connected-accounts/me/corp', {
      headers: userHeaders(service, withPassword),
    });
    expectKnownError(again, 'OAUTH_CONNECTION_NOT_CONNECTED_TO_USER', 400);
  });

  it('counts a passkey as a way in only when one signs in, not the flag a client may set', async () => {
    const only = await flow('passkey-way');
    const disconnect = () =>
      call(service, 'DELETE', '/connected-accounts/me/corp', { headers: userHeaders(service, only) });
    const flagged = await call(service, 'PATCH', '/users/me', {
      headers: userHeaders(service, only),
      json: { passkey_auth_enabled: true },
    });
    expect(flagged.body.passkey_auth_enabled).toBe(true);
    expectKnownError(await disconnect(), 'SCHEMA_ERROR', 400);

    // Registering needs passkeys on in the project; then they are turned off again.
    await service.setProjectConfig({ passkey_enabled: true });
    try {
      const started = await call(service, 'POST', '/auth/passkey/initiate-passkey-registration', {
        headers: userHeaders(service, only),
        json: {},
      });
      const credential = new SoftwareAuthenticator().register(started.body.options_json, {
        origin: 'http://localhost:3000',
      });
      const registered = await call(service, 'POST', '/auth/passkey/register', {
        headers: userHeaders(service, only),
        json: { credential, code: started.body.code },
      });
      expect(registered.status, registered.text).toBe(200);
    } finally {
      await service.setProjectConfig({ passkey_enabled: false });
    }
    // With passkey sign-in off in the project the passkey signs nobody in.
    expectKnownError(await disconnect(), 'SCHEMA_ERROR', 400);
    await service.setProjectConfig({ passkey_enabled: true });
    try {
      expect((await disconnect()).body).toEqual({ success: true });
    } finally {
      await service.setProjectConfig({ passkey_enabled: false });
    }
  });

  it('removes the accounts with the user', async () => {
    const gone = await flow('deleted-user');
    await call(service, 'DELETE', `/users/${gone.user_id}`, { headers: authHeaders(service, 'server') });
    const relinked = await flow('deleted-user');
    expect(relinked.user_id).not.toBe(gone.user_id);
  });
});
