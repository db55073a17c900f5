/**
 * `createRequestAuth` and `sessionCookies` against the real service: the
 * session a request's cookies carry, verified with no call per request,
 * refreshed (never rotated) when the access token has expired, refused
 * sessions and forged tokens signed out; and the cookies it would write,
 * read back by the same rules the browser's cookie store reads them.
 */
import { cookieNames } from '@latchkey/protocol';
import { describe, expect, it } from 'vitest';
import { readCookieTokens } from './internal/session/cookie-store.js';
import { createRequestAuth, sessionCookies } from './request-auth.js';
import { createTestApp, newCredentials, recordingFetch, useTestService } from './test-support/service.js';

const service = useTestService();

function requestAuth() {
  const recording = recordingFetch(service());
  const auth = createRequestAuth({
    projectId: service().projectId,
    baseUrl: service().url,
    publishableClientKey: service().keys.publishableClientKey,
    fetch: recording.fetch,
    clock: service().clock,
  });
  return { auth, calls: recording.calls };
}

async function signedIn() {
  const { app } = createTestApp(service());
  await app.signUpWithCredential({ ...newCredentials(), noRedirect: true });
  const user = await app.getUser({ or: 'throw' });
  return { user, tokens: await user.getTokens() };
}

/** The cookie header a browser sends after the cookie store wrote `tokens`. */
function cookieHeader(tokens: { accessToken: string | null; refreshToken: string | null }): string {
  return sessionCookies(service().projectId, tokens)
    .filter((cookie) => cookie.value)
    .map(({ name, value }) => `${name}=${encodeURIComponent(value)}`)
    .join('; ');
}

describe('createRequestAuth', () => {
  it('verifies a valid session locally: the JWKS once, then no call per request', async () => {
    const { user, tokens } = await signedIn();
    const { auth, calls } = requestAuth();
    for (let i = 0; i < 3; i++) {
      const result = await auth.authenticate({ cookie: cookieHeader(tokens) });
      expect(result).toMatchObject({ status: 'signed-in', userId: user.id, refreshed: false, tokens });
    }
    expect(calls()).toEqual([`GET /projects/${service().projectId}/.well-known/jwks.json`]);
  });

  it('refreshes an expired access token once, keeping the refresh token', async () => {
    const { user, tokens } = await signedIn();
    service().clock.advance(11 * 60_000);
    const { auth, calls } = requestAuth();
    const result = await auth.authenticate({ cookie: cookieHeader(tokens) });
    expect(result).toMatchObject({ status: 'signed-in', userId: user.id, refreshed: true });
    if (result.status !== 'signed-in') return;
    expect(result.tokens.refreshToken).toBe(tokens.refreshToken);
    expect(result.tokens.accessToken).not.toBe(tokens.accessToken);
    expect(result.cookies).toEqual(sessionCookies(service().projectId, result.tokens));
    expect(calls()).toContain('POST /auth/oauth/token');
  });

  it('signs out a refused session (ended) and a request with nothing (not ended)', async () => {
    const { auth } = requestAuth();
    const refused = await auth.authenticate({ cookie: `${cookieNames.refreshToken(service().projectId)}=nope` });
    // The cookies to delete come with it: those the browser SDK's cookie store writes.
    expect(refused).toEqual({ status: 'signed-out', ended: true, cookies: sessionCookies(service().projectId, null) });
    await expect(auth.authenticate({ cookie: 'theme=dark' })).resolves.toEqual({
      status: 'signed-out',
      ended: false,
      cookies: [],
    });
  });

  it('refuses a forged access token', async () => {
    const { tokens } = await signedIn();
    const [header, payload] = tokens.accessToken!.split('.');
    const { auth } = requestAuth();
    const forged = { accessToken: `${header}.${payload}.${'A'.repeat(86)}`, refreshToken: null };
    await expect(auth.authenticate(forged)).resolves.toEqual({ status: 'signed-out', ended: false, cookies: [] });
  });
});

describe('sessionCookies', () => {
  it('stores tokens as the browser cookie store reads them, and deletes them all for null', () => {
    const projectId = service().projectId;
    const tokens = { accessToken: 'a.b.c', refreshToken: 'refresh' };
    expect(readCookieTokens({ cookie: cookieHeader(tokens) }, projectId)).toEqual(tokens);
    expect(sessionCookies(projectId, null)).toEqual([
      { name: cookieNames.refreshToken(projectId), value: '', maxAgeSeconds: 0 },
      { name: cookieNames.accessToken, value: '', maxAgeSeconds: 0 },
      { name: cookieNames.legacyRefreshToken, value: '', maxAgeSeconds: 0 },
    ]);
  });
});
