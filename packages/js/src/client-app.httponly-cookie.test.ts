/**
 * `ClientApp` with `tokenStore: 'httponly-cookie'` on a page of the service's
 * own origin (jsdom, see `test-support/browser.ts`), against the real service
 * in-process with `refreshTokenCookie` on. The fetch below plays the part of
 * the browser the SDK cannot see from a script: its jar of HttpOnly cookies,
 * sent and kept only with `credentials: 'include'`, and `Origin` on writes.
 */
import { refreshCookieName } from '@latchkey/protocol';
import { describe, expect, it, vi } from 'vitest';
import { ClientApp } from './client-app.js';
import { MalformedAnswerError } from './errors.js';
import { parseCookies } from './internal/session/cookie-store.js';
import type { FetchFunction } from './options.js';
import { useBrowserPage } from './test-support/browser.js';
import { newCredentials, recordingFetch, type TestService, useTestService } from './test-support/service.js';

const pageOrigin = 'http://localhost:3000';
const service = useTestService({ refreshTokenCookie: true });
const plain = useTestService();
useBrowserPage(`${pageOrigin}/`);

/** One browser: the HttpOnly cookies it holds for the service's origin, and every request the SDK made. */
function browser(on: TestService = service()) {
  const jar = new Map<string, string>();
  const recording = recordingFetch(on);
  const fetch: FetchFunction = async (input, init) => {
    const headers = new Headers(init.headers);
    const credentialed = init.credentials === 'include';
    if (credentialed && jar.size > 0)
      headers.set('cookie', [...jar].map(([name, value]) => `${name}=${value}`).join('; '));
    if (init.method !== undefined && init.method !== 'GET') headers.set('origin', pageOrigin);
    const response = await recording.fetch(input, { ...init, headers: Object.fromEntries(headers) });
    for (const line of credentialed ? response.headers.getSetCookie() : []) {
      const pair = line.slice(0, line.indexOf(';'));
      const name = pair.slice(0, pair.indexOf('='));
      if (/; Max-Age=0(;|$)/.test(line)) jar.delete(name);
      else jar.set(name, pair.slice(name.length + 1));
    }
    return response;
  };
  /** A page load: a new app on the same browser. */
  const open = () =>
    new ClientApp({
      projectId: on.projectId,
      publishableClientKey: on.keys.publishableClientKey,
      baseUrl: pageOrigin,
      tokenStore: 'httponly-cookie',
      fetch,
      clock: on.clock,
      navigate: vi.fn(),
    });
  return { jar, open, requests: recording.requests, calls: recording.calls };
}

describe("ClientApp with tokenStore: 'httponly-cookie'", () => {
  it('signs up without the refresh token ever reaching a script, and stays signed in across a reload', async () => {
    const page = browser();
    const { userId } = await page.open().signUpWithCredential({ ...newCredentials(), noRedirect: true });
    const refreshToken = page.jar.get(refreshCookieName(service().projectId));
    expect(refreshToken).toMatch(/^[0-9a-z]{45}$/);
    expect(document.cookie).not.toContain(refreshToken!);
    expect([...parseCookies(document.cookie).keys()]).toEqual([`latchkey-session-${service().projectId}`]);

    const reloaded = page.open();
    const user = await reloaded.getUser({ or: 'throw' });
    expect(user.id).toBe(userId);
    const tokens = await user.getTokens();
    expect(tokens).toEqual({ accessToken: expect.any(String), refreshToken: null });
    expect(page.calls()).toEqual(['POST /auth/password/sign-up', 'POST /auth/oauth/token', 'GET /users/me']);
    for (const request of page.requests) {
      expect(request.headers['x-latchkey-refresh-cookie']).toBe('1');
      expect(request.headers['x-stack-refresh-token']).toBeUndefined();
      expect(JSON.stringify(request.body)).not.toContain(refreshToken!);
    }
    expect(page.requests[1]!.body).toEqual({
      grant_type: 'refresh_token',
      client_id: service().projectId,
      client_secret: service().keys.publishableClientKey,
    });
  });

  it('signs out: the service ends the session and clears its cookie, and the next page load does not refresh', async () => {
    const page = browser();
    const app = page.open();
    await app.signInWithCredential(await signedUp(page));
    const name = refreshCookieName(service().projectId);
    const refreshToken = page.jar.get(name)!;
    await (await app.getUser({ or: 'throw' })).signOut({ noRedirect: true });
    expect(page.jar.size).toBe(0);
    expect(document.cookie).toBe('');
    // A browser that ignored the clearing gets nowhere: the session is over.
    const refresh = await service().fetch('/api/v1/auth/oauth/token', {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-latchkey-refresh-cookie': '1',
        cookie: `${name}=${refreshToken}`,
      },
      body: `grant_type=refresh_token&client_id=${service().projectId}&client_secret=${service().keys.publishableClientKey}`,
    });
    expect(refresh.headers.get('x-stack-known-error')).toBe('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
    const before = page.calls().length;
    await expect(page.open().getUser()).resolves.toBeNull();
    expect(page.calls().slice(before)).toEqual(['GET /users/me']);
  });

  it('is signed out on the next load when the browser lost the cookie (expired, cleared)', async () => {
    const page = browser();
    await page.open().signInWithCredential(await signedUp(page));
    page.jar.clear();
    await expect(page.open().getUser()).resolves.toBeNull();
    expect(document.cookie).toBe('');
  });

  it('refuses, at the first sign-in, a service that answers the refresh token in the body', async () => {
    const page = browser(plain());
    const signIn = page.open().signUpWithCredential({ ...newCredentials(), noRedirect: true });
    await expect(signIn).rejects.toThrow(MalformedAnswerError);
    await expect(signIn).rejects.toThrow('refresh_token must be absent: the service runs without refreshTokenCookie');
    expect(document.cookie).toBe('');
  });

  it('refuses, when built, a service on another origin than the page', () => {
    const create = () =>
      new ClientApp({
        projectId: service().projectId,
        publishableClientKey: service().keys.publishableClientKey,
        baseUrl: 'https://auth.example.com',
        tokenStore: 'httponly-cookie',
      });
    expect(create).toThrow("tokenStore 'httponly-cookie' needs the service on this origin");
  });
});

/** Credentials of a user signed up (and out again) on `page`'s service. */
async function signedUp(page: ReturnType<typeof browser>) {
  const credentials = { ...newCredentials(), noRedirect: true };
  const app = page.open();
  await app.signUpWithCredential(credentials);
  await (await app.getUser({ or: 'throw' })).signOut({ noRedirect: true });
  return credentials;
}
