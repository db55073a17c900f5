/**
 * ClientApp against the real service over real HTTP (the global `fetch` and
 * the service's loopback listener), and the wire shapes it relies on. The
 * in-process tests of `client-app.test.ts` cover the behaviour in depth; a
 * missing service fails this file, it never skips it.
 */
import { describe, expect, it } from 'vitest';
import { ClientApp, type ClientAppOptions } from './client-app.js';
import type { FetchFunction } from './options.js';
import { createTestApp, newCredentials, useTestService } from './test-support/service.js';

/** Access-token lifetime the service issues (wire-protocol.md §5.1). */
const accessTokenLifetimeMs = 600_000;

const service = useTestService();

function overHttp(options: Partial<ClientAppOptions> = {}) {
  return new ClientApp({
    projectId: service().projectId,
    publishableClientKey: service().keys.publishableClientKey,
    baseUrl: `${service().url}/`,
    tokenStore: 'memory',
    clock: service().clock,
    ...options,
  });
}

describe('ClientApp over HTTP', { timeout: 30_000 }, () => {
  it('signs up, reads, updates, refreshes, signs out and back in with the global fetch', async () => {
    const app = overHttp();
    const credentials = { ...newCredentials(), noRedirect: true };
    await app.signUpWithCredential(credentials);
    const user = await app.getUser({ or: 'throw' });
    expect(user.primaryEmail).toBe(credentials.email);
    service().clock.advance(accessTokenLifetimeMs - 10_000);
    await user.update({ displayName: 'Over HTTP' });
    expect(app.getSnapshot('user')?.displayName).toBe('Over HTTP');
    await user.signOut({ noRedirect: true });
    await expect(app.getUser()).resolves.toBeNull();
    await app.signInWithCredential(credentials);
    await expect(app.getUser()).resolves.toMatchObject({ id: user.id, displayName: 'Over HTTP' });
  });

  it('refresh tokens never rotated: the app asks for rotation, stores the new token and stays signed in', async () => {
    const app = overHttp();
    await app.signUpWithCredential({ ...newCredentials(), noRedirect: true });
    const user = await app.getUser({ or: 'throw' });
    const signedUp = (await user.getTokens()).refreshToken;
    service().clock.advance(accessTokenLifetimeMs);
    const refreshed = (await user.getTokens()).refreshToken;
    expect(refreshed).toMatch(/^[0-9a-z]{45}$/);
    expect(refreshed).not.toBe(signedUp);
    // Past the grace window the replaced token is refused (a reuse); the app uses the new one.
    service().clock.advance(accessTokenLifetimeMs);
    await expect(app.getUser({ or: 'throw' })).resolves.toMatchObject({ id: user.id });
    expect((await user.getTokens()).refreshToken).not.toBe(refreshed);
  });

  it('tokens given by the page (a server reading a request) are refreshed without rotation', async () => {
    const app = overHttp();
    await app.signUpWithCredential({ ...newCredentials(), noRedirect: true });
    const tokens = await (await app.getUser({ or: 'throw' })).getTokens();
    const fromRequest = overHttp({
      tokenStore: { accessToken: tokens.accessToken!, refreshToken: tokens.refreshToken! },
    });
    service().clock.advance(accessTokenLifetimeMs);
    const user = await fromRequest.getUser({ or: 'throw' });
    expect((await user.getTokens()).refreshToken).toBe(tokens.refreshToken);
    // The page's own copy still works, long after.
    service().clock.advance(accessTokenLifetimeMs);
    await expect(app.getUser({ or: 'throw' })).resolves.toMatchObject({ id: user.id });
  });

  it('reports refusals as KnownErrors', async () => {
    const app = overHttp();
    const credentials = { ...newCredentials(), noRedirect: true };
    await app.signUpWithCredential(credentials);
    await expect(app.signUpWithCredential(credentials)).rejects.toMatchObject({ code: 'USER_EMAIL_ALREADY_EXISTS' });
    await expect(overHttp({ publishableClientKey: 'pck_bad' }).getProject()).rejects.toMatchObject({
      code: 'INVALID_PUBLISHABLE_CLIENT_KEY',
      status: 401,
    });
  });
});

describe('the answers ClientApp relies on', { timeout: 30_000 }, () => {
  it('carry errors as 200 + x-stack-actual-status + x-stack-known-error, and a rotated refresh token', async () => {
    const answers: Array<{ path: string; status: number; headers: Headers; body: string }> = [];
    const recording: FetchFunction = async (input, init) => {
      const response = await service().fetch(new Request(input, init));
      const body = await response.clone().text();
      answers.push({ path: new URL(input).pathname, status: response.status, headers: response.headers, body });
      return response;
    };
    const { app } = createTestApp(service(), { fetch: recording });
    const credentials = { ...newCredentials(), noRedirect: true };
    await app.signUpWithCredential(credentials);
    await app.signUpWithCredential(credentials).catch(() => {});
    const conflict = answers.at(-1)!;
    expect(conflict.status).toBe(200);
    expect(conflict.headers.get('x-stack-actual-status')).toBe('409');
    expect(conflict.headers.get('x-stack-known-error')).toBe('USER_EMAIL_ALREADY_EXISTS');
    service().clock.advance(accessTokenLifetimeMs);
    await app.getUser();
    const refresh = answers.find((a) => a.path === '/api/v1/auth/oauth/token')!;
    expect(refresh.status).toBe(200);
    const refreshBody = JSON.parse(refresh.body) as Record<string, unknown>;
    expect(refreshBody).toMatchObject({ access_token: expect.any(String), token_type: 'Bearer' });
    expect(refreshBody.refresh_token).toEqual(expect.stringMatching(/^[0-9a-z]{45}$/));
  });

  it('send ACCESS_TOKEN_EXPIRED with details.expired_at_millis null (decision a)', async () => {
    const { app } = createTestApp(service());
    await app.signUpWithCredential({ ...newCredentials(), noRedirect: true });
    const { accessToken } = await (await app.getUser({ or: 'throw' })).getTokens();
    service().clock.advance(accessTokenLifetimeMs + 1_000);
    const expired = await service().fetch('/api/v1/users/me', {
      headers: {
        'x-stack-override-error-status': 'true',
        'x-stack-project-id': service().projectId,
        'x-stack-access-type': 'client',
        'x-stack-publishable-client-key': service().keys.publishableClientKey,
        'x-stack-access-token': accessToken!,
        'x-stack-refresh-token': 'any',
      },
    });
    expect(expired.headers.get('x-stack-known-error')).toBe('ACCESS_TOKEN_EXPIRED');
    expect(await expired.json()).toMatchObject({ details: { expired_at_millis: null } });
  });
});
