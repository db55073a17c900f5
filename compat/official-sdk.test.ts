/**
 * Wire compatibility, proven with the real official SDK: `@stackframe/js`
 * 2.7.23 drives a real Latchkey service over HTTP on loopback. Every test
 * asserts what an SDK user sees, and the request trail that produced it.
 */
import { randomUUID } from 'node:crypto';
import { refreshRotationField } from '@latchkey/protocol';
import type { StackClientApp as ClientApp } from '@stackframe/js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { password, useCompatEnvironment, verificationCallbackUrl } from './support/harness.js';
import { codeOf, rejection } from './support/outcomes.js';
import { StackClientApp, StackServerApp } from './support/sdk.js';

type Tokens = { accessToken: string; refreshToken: string };

const elevenMinutes = 11 * 60_000;

const env = useCompatEnvironment();

afterEach(() => {
  expect(env.net.blocked, 'non-loopback fetches').toEqual([]);
  expect(env.net.trail(), 'network diagnostics ran').not.toContain('GET /health');
});

function newEmail(): string {
  return `user-${randomUUID()}@example.com`;
}

/** A client app as in the SDK's docs for Node: in-memory tokens (or given ones), no prefetch. */
function clientApp(options: { tokenStore?: 'memory' | Tokens; publishableClientKey?: string } = {}): ClientApp<true> {
  return new StackClientApp({
    baseUrl: env.svc.url,
    projectId: env.svc.projectId,
    publishableClientKey: options.publishableClientKey ?? env.svc.keys.publishableClientKey,
    tokenStore: options.tokenStore ?? 'memory',
    noAutomaticPrefetch: true,
  });
}

function serverApp(secretServerKey = env.svc.keys.secretServerKey) {
  return new StackServerApp({
    baseUrl: env.svc.url,
    projectId: env.svc.projectId,
    publishableClientKey: env.svc.keys.publishableClientKey,
    secretServerKey,
    tokenStore: null,
  });
}

/** A client app with a freshly signed-up, signed-in user. */
async function signedUp() {
  const app = clientApp();
  const email = newEmail();
  const result = await app.signUpWithCredential({ email, password, noRedirect: true, verificationCallbackUrl });
  expect(result).toEqual({ status: 'ok', data: undefined });
  const user = await app.getUser();
  if (!user) throw new Error('not signed in after sign-up');
  return { app, email, user };
}

async function tokensOf(user: { currentSession: { getTokens(): Promise<Partial<Record<keyof Tokens, unknown>>> } }) {
  const { accessToken, refreshToken } = await user.currentSession.getTokens();
  if (typeof accessToken !== 'string' || typeof refreshToken !== 'string') throw new Error('user has no tokens');
  return { accessToken, refreshToken };
}

/**
 * A token store holding only a refresh token, as after a restart: the SDK
 * must refresh before its first request. The 2.7.23 typings want both
 * strings; at runtime a null access token is accepted and means exactly that.
 */
function refreshOnly(refreshToken: string): Tokens {
  return { accessToken: null as unknown as string, refreshToken };
}

describe('project', () => {
  it('getProject() returns the display name and the client config flags', async () => {
    const project = await clientApp().getProject();

    expect(project).toEqual({
      id: env.svc.projectId,
      displayName: 'Test project',
      config: {
        signUpEnabled: true,
        credentialEnabled: true,
        magicLinkEnabled: false,
        passkeyEnabled: false,
        clientTeamCreationEnabled: false,
        clientUserDeletionEnabled: false,
        oauthProviders: [],
      },
    });
    expect(env.net.trail()).toEqual(['GET /projects/current']);
    expect(env.net.requests[0]?.headers).toMatchObject({
      'x-stack-access-type': 'client',
      'x-stack-client-version': 'js @stackframe/js@2.7.23',
      'x-stack-override-error-status': 'true',
      'x-stack-project-id': env.svc.projectId,
    });
  });

  it('getProject() follows config changes', async () => {
    await env.svc.setProjectConfig({
      client_user_deletion_enabled: true,
      oauth_providers: [{ id: 'github', enabled: true, type: 'shared' }],
    });
    try {
      const project = await clientApp().getProject();
      expect(project.config.clientUserDeletionEnabled).toBe(true);
      expect(project.config.oauthProviders).toEqual([{ id: 'github' }]);
    } finally {
      await env.svc.setProjectConfig({ client_user_deletion_enabled: false, oauth_providers: [] });
    }
  });

  it('a wrong publishable client key is thrown as INVALID_PUBLISHABLE_CLIENT_KEY, without retries', async () => {
    const app = clientApp({ publishableClientKey: `pck_${'0'.repeat(45)}` });

    expect(codeOf(await rejection(app.getProject()))).toBe('INVALID_PUBLISHABLE_CLIENT_KEY');
    const signUp = app.signUpWithCredential({ email: newEmail(), password, noRedirect: true, verificationCallbackUrl });
    expect(codeOf(await rejection(signUp))).toBe('INVALID_PUBLISHABLE_CLIENT_KEY');

    expect(env.net.trail()).toEqual([
      'GET /projects/current -> INVALID_PUBLISHABLE_CLIENT_KEY',
      'POST /auth/password/sign-up -> INVALID_PUBLISHABLE_CLIENT_KEY',
    ]);
    expect(env.net.requests.map((r) => [r.httpStatus, r.status])).toEqual([
      [200, 401],
      [200, 401],
    ]);
  });
});

describe('sign-up', () => {
  it('signUpWithCredential() signs the new user in; getUser() returns them', async () => {
    const { email, user } = await signedUp();

    expect(user).toMatchObject({
      primaryEmail: email,
      primaryEmailVerified: false,
      displayName: null,
      hasPassword: true,
      emailAuthEnabled: true,
      otpAuthEnabled: false,
      passkeyAuthEnabled: false,
      isMultiFactorRequired: false,
      oauthProviders: [],
      clientMetadata: null,
      clientReadOnlyMetadata: null,
      selectedTeam: null,
    });
    expect(user.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(Math.abs(user.signedUpAt.getTime() - env.svc.clock.now())).toBeLessThan(60_000);
    expect(env.net.trail()).toEqual(['POST /auth/password/sign-up', 'GET /users/me']);
  });

  it('without verificationCallbackUrl the SDK throws in Node before sending anything', async () => {
    const app = clientApp();
    const error = await rejection(app.signUpWithCredential({ email: newEmail(), password, noRedirect: true }));

    expect(String(error)).toContain('constructRedirectUrl in a non-browser environment');
    expect(env.net.trail()).toEqual([]);
  });

  it('a taken e-mail is returned (not thrown) as USER_EMAIL_ALREADY_EXISTS', async () => {
    const { email } = await signedUp();
    env.net.reset();
    const other = clientApp();

    const result = await other.signUpWithCredential({ email, password, noRedirect: true, verificationCallbackUrl });

    expect(result.status).toBe('error');
    expect(codeOf(result.status === 'error' ? result.error : null)).toBe('USER_EMAIL_ALREADY_EXISTS');
    expect(await other.getUser()).toBeNull();
    expect(env.net.requests.map((r) => [r.path, r.status, r.knownError])).toEqual([
      ['/auth/password/sign-up', 409, 'USER_EMAIL_ALREADY_EXISTS'],
    ]);
  });

  it('a short password is returned as PASSWORD_TOO_SHORT with its minimum length', async () => {
    const app = clientApp();

    const result = await app.signUpWithCredential({
      email: newEmail(),
      password: 'short',
      noRedirect: true,
      verificationCallbackUrl,
    });

    if (result.status !== 'error') throw new Error('expected an error result');
    expect(codeOf(result.error)).toBe('PASSWORD_TOO_SHORT');
    expect((result.error as { details?: unknown }).details).toEqual({ min_length: 8 });
    expect(await app.getUser()).toBeNull();
  });
});

describe('the signed-in user', () => {
  it('user.update() changes displayName and clientMetadata; getUser() shows them', async () => {
    const { app, user } = await signedUp();
    env.net.reset();

    await user.update({ displayName: 'Ada Lovelace', clientMetadata: { theme: 'dark', tabs: [1, 2] } });

    expect(env.net.trail()).toEqual(['PATCH /users/me', 'GET /users/me']);
    expect(await app.getUser()).toMatchObject({
      id: user.id,
      displayName: 'Ada Lovelace',
      clientMetadata: { theme: 'dark', tabs: [1, 2] },
    });
    // Stored by the service, not only cached by the SDK: another client with the same tokens sees it.
    const elsewhere = await clientApp({ tokenStore: await tokensOf(user) }).getUser();
    expect(elsewhere).toMatchObject({ displayName: 'Ada Lovelace', clientMetadata: { theme: 'dark', tabs: [1, 2] } });
  });

  it('user.signOut() revokes the session; getUser() then returns null and the refresh token is dead', async () => {
    const { app, user } = await signedUp();
    const tokens = await tokensOf(user);
    env.net.reset();

    await user.signOut();

    expect(env.net.requests.map((r) => [r.method, r.path, r.status])).toEqual([
      ['DELETE', '/auth/sessions/current', 200],
    ]);
    env.net.reset();
    expect(await app.getUser()).toBeNull();
    expect(env.net.trail()).toEqual([]); // known signed out: no request

    expect(await clientApp({ tokenStore: refreshOnly(tokens.refreshToken) }).getUser()).toBeNull();
    expect(env.net.trail()).toEqual([
      'POST /auth/oauth/token -> REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED',
      'GET /users/me -> CANNOT_GET_OWN_USER_WITHOUT_USER',
    ]);
    // The token endpoint answers with its real status (the SDK sends no override header there).
    expect(env.net.requests[0]).toMatchObject({ httpStatus: 401, status: 401, grantType: 'refresh_token' });
  });

  it('signInWithCredential(): a wrong password is EMAIL_PASSWORD_MISMATCH, the right one signs in', async () => {
    const { email, user } = await signedUp();
    const app = clientApp();
    env.net.reset();

    const wrong = await app.signInWithCredential({ email, password: 'not the password', noRedirect: true });
    if (wrong.status !== 'error') throw new Error('expected an error result');
    expect(codeOf(wrong.error)).toBe('EMAIL_PASSWORD_MISMATCH');
    const unknown = await app.signInWithCredential({ email: newEmail(), password, noRedirect: true });
    expect(codeOf(unknown.status === 'error' ? unknown.error : null)).toBe('EMAIL_PASSWORD_MISMATCH');
    expect(await app.getUser()).toBeNull();

    const right = await app.signInWithCredential({ email, password, noRedirect: true });
    expect(right).toEqual({ status: 'ok', data: undefined });
    expect(await app.getUser()).toMatchObject({ id: user.id, primaryEmail: email });
    expect(env.net.trail()).toEqual([
      'POST /auth/password/sign-in -> EMAIL_PASSWORD_MISMATCH',
      'POST /auth/password/sign-in -> EMAIL_PASSWORD_MISMATCH',
      'POST /auth/password/sign-in',
      'GET /users/me',
    ]);
  });

  it('sign-in without noRedirect also works in Node (the SDK posts /check-feature-support)', async () => {
    const { email, user } = await signedUp();
    const app = clientApp();
    env.net.reset();

    expect(await app.signInWithCredential({ email, password })).toEqual({ status: 'ok', data: undefined });

    expect((await app.getUser())?.id).toBe(user.id);
    expect(env.net.requests.map((r) => [r.method, r.path, r.status])).toEqual([
      ['POST', '/auth/password/sign-in', 200],
      ['POST', '/check-feature-support', 200],
      ['GET', '/users/me', 200],
    ]);
  });
});

describe('token refresh', () => {
  it('an access token the service calls expired is refreshed at /auth/oauth/token and the call retried', async () => {
    const { app, user } = await signedUp();
    env.net.reset();

    env.svc.clock.advance(elevenMinutes); // the service's clock only: the SDK still trusts its token
    await user.update({ displayName: 'Still here' });

    expect(env.net.trail()).toEqual([
      'PATCH /users/me -> ACCESS_TOKEN_EXPIRED',
      'POST /auth/oauth/token',
      'PATCH /users/me',
      'GET /users/me',
    ]);
    const [expired, refresh] = env.net.requests;
    expect(expired).toMatchObject({ httpStatus: 200, status: 401, body: { details: { expired_at_millis: null } } });
    expect(refresh).toMatchObject({ httpStatus: 200, grantType: 'refresh_token' });
    expect(refresh?.body).toMatchObject({ access_token: expect.any(String), token_type: expect.any(String) });
    expect(refresh?.body).not.toHaveProperty('refresh_token');
    expect(await app.getUser()).toMatchObject({ id: user.id, displayName: 'Still here' });
  });

  it('keeps the refresh token it has when a refresh answers a rotated one, so rotating would sign it out', async () => {
    const { app, user } = await signedUp();
    const before = await tokensOf(user);
    // The SDK's refreshes ask for rotation, as only Latchkey's own SDK does: the service rotates and answers a new token.
    env.net.rewrite(async (request) => {
      const form = request.headers.get('content-type')?.startsWith('application/x-www-form-urlencoded')
        ? new URLSearchParams(await request.clone().text())
        : null;
      if (form?.get('grant_type') !== 'refresh_token') return request;
      form.set(refreshRotationField, '1');
      return new Request(request, { body: form.toString() });
    });
    env.svc.clock.advance(elevenMinutes);
    await user.update({ displayName: 'Refreshed once' });
    const refresh = env.net.requests.find((r) => r.grantType === 'refresh_token');
    const answered = refresh?.body as { refresh_token?: string } | undefined;
    expect(answered?.refresh_token).toMatch(/^[0-9a-z]{45}$/);
    expect(answered?.refresh_token).not.toBe(before.refreshToken);
    // The SDK stored the new access token but kept the refresh token it had.
    expect((await tokensOf(user)).refreshToken).toBe(before.refreshToken);

    // At its next refresh (after the grace window) it sends the replaced token: a reuse, and it is signed out.
    env.net.reset();
    env.svc.clock.advance(elevenMinutes);
    expect(await app.getUser()).toBeNull();
    expect(env.net.trail()).toEqual([
      'GET /users/me -> ACCESS_TOKEN_EXPIRED',
      'POST /auth/oauth/token -> REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED',
      'GET /users/me -> CANNOT_GET_OWN_USER_WITHOUT_USER',
    ]);
  });

  it('after signInWithCredential(), getUser() across a lapsed access token still returns the user', async () => {
    const { email, user } = await signedUp();
    const app = clientApp();
    expect((await app.signInWithCredential({ email, password, noRedirect: true })).status).toBe('ok');
    env.svc.clock.advance(elevenMinutes);
    env.net.reset();

    expect(await app.getUser()).toMatchObject({ id: user.id, primaryEmail: email });
    expect(env.net.trail()).toEqual([
      'GET /users/me -> ACCESS_TOKEN_EXPIRED',
      'POST /auth/oauth/token',
      'GET /users/me',
    ]);
  });

  it('getUser() on a restored session with a lapsed access token refreshes and returns the user', async () => {
    const { user } = await signedUp();
    const tokens = await tokensOf(user);
    env.svc.clock.advance(elevenMinutes);
    env.net.reset();

    expect(await clientApp({ tokenStore: tokens }).getUser()).toMatchObject({ id: user.id });
    expect(env.net.trail()).toEqual([
      'GET /users/me -> ACCESS_TOKEN_EXPIRED',
      'POST /auth/oauth/token',
      'GET /users/me',
    ]);
  });

  it('when its own clock says the token is about to lapse, the SDK refreshes before sending', async () => {
    const { app, user } = await signedUp();
    env.net.reset();

    // One process: faking Date moves both the SDK's clock and the service's.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(Date.now() + elevenMinutes);
      await user.update({ displayName: 'Refreshed early' });
    } finally {
      vi.useRealTimers();
    }

    expect(env.net.trail()).toEqual(['POST /auth/oauth/token', 'PATCH /users/me', 'GET /users/me']);
    expect((await app.getUser())?.displayName).toBe('Refreshed early');
  });

  it('a session revoked from another client ends here too once the access token lapses', async () => {
    const { app, user } = await signedUp();
    const tokens = await tokensOf(user);
    const otherDevice = clientApp({ tokenStore: tokens });
    env.net.reset();

    await (await otherDevice.getUser())?.signOut();
    expect(env.net.trail()).toEqual(['GET /users/me', 'DELETE /auth/sessions/current']);

    // Restarted with the stored refresh token: signed out straight away.
    expect(await clientApp({ tokenStore: refreshOnly(tokens.refreshToken) }).getUser()).toBeNull();

    // The client that stayed up holds an access token, which the SDK keeps using while it lasts; once it
    // lapses, the refresh is refused and the SDK drops the session.
    env.svc.clock.advance(elevenMinutes);
    env.net.reset();
    expect(await app.getUser()).toBeNull();
    expect(env.net.trail()).toEqual([
      'GET /users/me -> ACCESS_TOKEN_EXPIRED',
      'POST /auth/oauth/token -> REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED',
      'GET /users/me -> CANNOT_GET_OWN_USER_WITHOUT_USER',
    ]);
  });
});

describe('account deletion', () => {
  it('user.delete() is refused by default and deletes the account once the project allows it', async () => {
    const { app, email, user } = await signedUp();
    env.net.reset();

    // Stack's backend answers this with a plain-text 400, which the SDK throws as an error of that text.
    const refused = await rejection(user.delete());
    expect(codeOf(refused)).toBeUndefined();
    expect(String((refused as Error).message)).toContain('Client user deletion is not enabled for this project');

    await env.svc.setProjectConfig({ client_user_deletion_enabled: true });
    try {
      env.net.reset();
      await user.delete();
      expect(env.net.requests.map((r) => [r.method, r.path, r.status])).toEqual([['DELETE', '/users/me', 200]]);
      expect(await app.getUser()).toBeNull();

      const again = await app.signInWithCredential({ email, password, noRedirect: true });
      expect(codeOf(again.status === 'error' ? again.error : null)).toBe('EMAIL_PASSWORD_MISMATCH');
      const reuse = await app.signUpWithCredential({ email, password, noRedirect: true, verificationCallbackUrl });
      expect(reuse.status).toBe('ok');
      expect((await app.getUser())?.id).not.toBe(user.id);
    } finally {
      await env.svc.setProjectConfig({ client_user_deletion_enabled: false });
    }
  });
});

describe('StackServerApp (secret server key)', () => {
  it('getUser({ tokenStore }) returns the server view of a user', async () => {
    const { email, user } = await signedUp();
    env.net.reset();

    const serverUser = await serverApp().getUser({ tokenStore: await tokensOf(user) });

    expect(serverUser).toMatchObject({
      id: user.id,
      primaryEmail: email,
      serverMetadata: null,
      clientReadOnlyMetadata: null,
    });
    expect(serverUser?.lastActiveAt).toBeInstanceOf(Date);
    expect(env.net.trail()).toEqual(['GET /users/me']);
    expect(env.net.requests[0]?.headers).toMatchObject({
      'x-stack-access-type': 'server',
      'x-stack-secret-server-key': env.svc.keys.secretServerKey,
      'x-stack-publishable-client-key': env.svc.keys.publishableClientKey,
    });
  });

  it('serverUser.createSession() issues tokens a client can use and refresh', async () => {
    const { user } = await signedUp();
    const serverUser = await serverApp().getUser({ tokenStore: await tokensOf(user) });
    if (!serverUser) throw new Error('server app did not see the user');
    env.net.reset();

    const session = await serverUser.createSession({ expiresInMillis: 60 * 60_000 });
    const tokens = await session.getTokens();

    expect(env.net.requests.map((r) => [r.method, r.path, r.status])).toEqual([['POST', '/auth/sessions', 200]]);
    expect(tokens).toEqual({ accessToken: expect.any(String), refreshToken: expect.any(String) });
    const created = tokens as Tokens;
    expect(created.refreshToken).not.toBe((await tokensOf(user)).refreshToken);
    expect((await clientApp({ tokenStore: created }).getUser())?.id).toBe(user.id);
    expect((await clientApp({ tokenStore: refreshOnly(created.refreshToken) }).getUser())?.id).toBe(user.id);
  });

  it('getUser() with a request: x-stack-auth header, and the raw cookies a browser sends', async () => {
    const { user } = await signedUp();
    const tokens = await tokensOf(user);
    const server = serverApp();
    env.net.reset();

    // What a browser forwards from user.getAuthHeaders().
    const withHeader = { headers: new Headers(await user.getAuthHeaders()) };
    expect((await server.getUser({ tokenStore: withHeader }))?.id).toBe(user.id);
    expect(env.net.trail()).toEqual(['GET /users/me']);

    // Cookies as the SDK's browser store writes them. The SDK sends the raw `stack-access` value (a JSON array
    // holding the JWT) as the access token (wire-protocol §8); the service must call it UNPARSABLE_ACCESS_TOKEN
    // so the SDK refreshes and retries.
    const cookie = [
      `stack-refresh-${env.svc.projectId}=${tokens.refreshToken}`,
      `stack-access=${encodeURIComponent(JSON.stringify([tokens.refreshToken, tokens.accessToken]))}`,
    ].join('; ');
    env.net.reset();
    expect((await server.getUser({ tokenStore: { headers: new Headers({ cookie }) } }))?.id).toBe(user.id);
    expect(env.net.trail()).toEqual([
      'GET /users/me -> UNPARSABLE_ACCESS_TOKEN',
      'POST /auth/oauth/token',
      'GET /users/me',
    ]);
  });

  it('a wrong secret server key is thrown as INVALID_SECRET_SERVER_KEY', async () => {
    const { user } = await signedUp();
    env.net.reset();

    const app = serverApp(`ssk_${'0'.repeat(45)}`);
    const error = await rejection(app.getUser({ tokenStore: await tokensOf(user) }));

    expect(codeOf(error)).toBe('INVALID_SECRET_SERVER_KEY');
    expect(env.net.trail()).toEqual(['GET /users/me -> INVALID_SECRET_SERVER_KEY']);
  });

  it('createUser() creates a user who signs in with the password; the answer is the server view', async () => {
    const email = newEmail();
    env.net.reset();

    const created = await serverApp().createUser({
      primaryEmail: email,
      primaryEmailAuthEnabled: true,
      password,
      displayName: 'Made by the server',
      serverMetadata: { plan: 'pro' },
      clientReadOnlyMetadata: { role: 'staff' },
    });

    expect(created).toMatchObject({
      primaryEmail: email,
      displayName: 'Made by the server',
      hasPassword: true,
      serverMetadata: { plan: 'pro' },
      clientReadOnlyMetadata: { role: 'staff' },
    });
    expect(env.net.requests.map((r) => [r.method, r.path, r.status])).toEqual([['POST', '/users', 201]]);
    const client = clientApp();
    expect(await client.signInWithCredential({ email, password, noRedirect: true })).toEqual({
      status: 'ok',
      data: undefined,
    });
    expect((await client.getUser())?.id).toBe(created.id);
  });

  it('getUser(id) reads a user; update() changes server fields; delete() removes the user', async () => {
    const { user } = await signedUp();
    const server = serverApp();
    env.net.reset();

    const serverUser = await server.getUser(user.id);
    if (!serverUser) throw new Error('the server app did not find the user');
    expect(serverUser).toMatchObject({ id: user.id, serverMetadata: null, primaryEmail: user.primaryEmail });
    expect(env.net.trail()).toEqual([`GET /users/${user.id}`]);
    expect(env.net.requests[0]?.headers).toMatchObject({ 'x-stack-access-type': 'server' });

    await serverUser.update({
      displayName: 'Renamed by the server',
      serverMetadata: { stripe: 'cus_1' },
      clientReadOnlyMetadata: { level: 2 },
      primaryEmailVerified: true,
    });
    expect(env.net.trail()).toContain(`PATCH /users/${user.id}`);
    expect(await server.getUser(user.id)).toMatchObject({
      displayName: 'Renamed by the server',
      serverMetadata: { stripe: 'cus_1' },
      clientReadOnlyMetadata: { level: 2 },
      primaryEmailVerified: true,
    });

    env.net.reset();
    await serverUser.delete();
    expect(env.net.requests.find((r) => r.method === 'DELETE')).toMatchObject({
      path: `/users/${user.id}`,
      status: 200,
    });
    // 2.7.23 throws USER_NOT_FOUND for an unknown id instead of returning null (wire-protocol §17.7).
    expect(codeOf(await rejection(serverApp().getUser(user.id)))).toBe('USER_NOT_FOUND');
  });

  it('listUsers() pages with limit and cursor, reverses with desc, and searches with query', async () => {
    const tag = `list${randomUUID().slice(0, 8)}`;
    const server = serverApp();
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      ids.push((await server.createUser({ primaryEmail: `${tag}-${i}@example.com`, displayName: `${tag} ${i}` })).id);
      env.svc.clock.advance(1_000);
    }
    env.net.reset();

    const first = await server.listUsers({ query: tag, limit: 2 });
    expect(first.map((u) => u.id)).toEqual(ids.slice(0, 2));
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await server.listUsers({ query: tag, limit: 2, cursor: first.nextCursor! });
    expect(second.map((u) => u.id)).toEqual(ids.slice(2));
    expect(second.nextCursor).toBeNull();
    const reversed = await server.listUsers({ query: tag, orderBy: 'signedUpAt', desc: true });
    expect(reversed.map((u) => u.id)).toEqual([...ids].reverse());
    expect((await server.listUsers({ query: `${tag}-1@example.com` })).map((u) => u.id)).toEqual([ids[1]]);
    expect(env.net.trail().every((call) => call === 'GET /users')).toBe(true);
    expect(new URL(env.net.requests[1]!.url).searchParams.get('cursor')).toBe(first.nextCursor);
  });
});

it('no request left loopback and the SDK never ran its network diagnostics', () => {
  expect(env.net.blocked).toEqual([]);
  expect(env.net.history.length).toBeGreaterThan(0); // the guard did see the SDK's traffic
  expect(env.net.history.filter((r) => r.path === '/health')).toEqual([]);
});
