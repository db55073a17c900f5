/**
 * The refresh-token cookie mode over HTTP: every route that issues a refresh
 * token sets it as an HttpOnly cookie instead of answering it, the token
 * endpoint and sign-out read it, sign-out clears it, a request from a foreign
 * origin is refused and changes nothing, and without the mode (or without the
 * request asking) nothing differs from the wire protocol.
 */
import { createHash } from 'node:crypto';
import { headers as h, refreshCookieHeader, refreshCookieName } from '@latchkey/protocol';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { issueCode } from '../codes/codes.js';
import { rotationGraceMs } from '../sessions/refresh-rotation.js';
import { dbOf } from '../storage/open-storage.js';
import {
  type Answer,
  authHeaders,
  call,
  expectKnownError,
  goodPassword,
  newEmail,
  refreshGrant,
  signUp,
  snapshot,
} from '../test-support/api.js';
import { codeFromMail, lastMailTo } from '../test-support/mail.js';
import { startTestService, type TestService } from '../testing/index.js';
import { refreshCookieSettings } from './refresh-cookie.js';

let service: TestService;
let plain: TestService;
beforeAll(async () => {
  [service, plain] = await Promise.all([
    startTestService({
      refreshTokenCookie: true,
      projectConfig: { magic_link_enabled: true },
      // Reached as a deployment would be, at names of its own.
      allowedHosts: ['auth.example.test', 'app.example.test'],
    }),
    startTestService(),
  ]);
});
afterAll(() => Promise.all([service?.close(), plain?.close()]));
// Fresh rate-limit windows for every test (the limits have tests of their own).
beforeEach(() => service.clock.startWindow(10 * 60_000));

const foreignOrigin = 'https://evil.example';
const cookieName = () => refreshCookieName(service.projectId);

/** What the SDK's `tokenStore: 'httponly-cookie'` sends from a page of the service's origin. */
function pageHeaders(extra: Record<string, string> = {}, origin = service.url): Record<string, string> {
  return { ...authHeaders(service), [refreshCookieHeader]: '1', origin, ...extra };
}

/** What the SDK sends to the token endpoint in that mode: no `x-stack-*` headers (wire-protocol §5.3). */
function tokenHeaders(origin = service.url): Record<string, string> {
  return { [refreshCookieHeader]: '1', origin };
}

/** The `Cookie` header a browser sends back for `token`. */
const cookieOf = (token: string) => ({ cookie: `${cookieName()}=${token}` });

interface SetCookie {
  name: string;
  value: string;
  attributes: Record<string, string | true>;
}

/** The answer's `Set-Cookie` headers, parsed. */
function setCookies(answer: Answer): SetCookie[] {
  return answer.headers.getSetCookie().map((line) => {
    const [pair = '', ...parts] = line.split(';').map((part) => part.trim());
    const index = pair.indexOf('=');
    const attributes: Record<string, string | true> = {};
    for (const part of parts) {
      const [key = '', value] = part.split('=');
      attributes[key.toLowerCase()] = value ?? true;
    }
    return { name: pair.slice(0, index), value: pair.slice(index + 1), attributes };
  });
}

/** The one refresh cookie of `answer`, with the attributes every one carries checked. */
function refreshCookie(answer: Answer): SetCookie {
  const cookies = setCookies(answer);
  expect(cookies.map((c) => c.name)).toEqual([cookieName()]);
  const cookie = cookies[0]!;
  expect(cookie.attributes).toMatchObject({ httponly: true, samesite: 'Lax', path: '/api/v1' });
  expect(cookie.attributes.secure).toBeUndefined(); // the test service is plain http
  return cookie;
}

/** Signs a user up in the cookie mode; returns the answer and the cookie's refresh token. */
async function cookieSignUp(email = newEmail()) {
  const answer = await call(service, 'POST', '/auth/password/sign-up', {
    headers: pageHeaders(),
    json: { email, password: goodPassword },
  });
  expect(answer.status, answer.text).toBe(200);
  return { answer, email, refreshToken: refreshCookie(answer).value };
}

function refreshFromCookie(token: string | null, headers = tokenHeaders()): Promise<Answer> {
  return call(service, 'POST', '/auth/oauth/token', {
    headers: { ...headers, ...(token ? cookieOf(token) : {}), 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      grant_type: 'refresh_token',
      client_id: service.projectId,
      client_secret: service.keys.publishableClientKey,
    }).toString(),
  });
}

function signOut(accessToken: string, token: string, headers = pageHeaders()): Promise<Answer> {
  return call(service, 'DELETE', '/auth/sessions/current', {
    headers: { ...headers, ...cookieOf(token), [h.accessToken]: accessToken },
  });
}

async function me(accessToken: string): Promise<Answer> {
  return call(service, 'GET', '/users/me', { headers: { ...authHeaders(service), [h.accessToken]: accessToken } });
}

describe('answers that issue a refresh token, in the cookie mode', () => {
  it('password sign-up: the token is in an HttpOnly cookie for a year, not in the body', async () => {
    const { answer, refreshToken } = await cookieSignUp();
    expect(Object.keys(answer.body).sort()).toEqual(['access_token', 'user_id']);
    expect(refreshToken).toMatch(/^[0-9a-z]{45}$/);
    expect(refreshCookie(answer).attributes['max-age']).toBe('31536000');
    expect((await me(answer.body.access_token)).body.id).toBe(answer.body.user_id);
  });

  it('password sign-in', async () => {
    const { email } = await cookieSignUp();
    const answer = await call(service, 'POST', '/auth/password/sign-in', {
      headers: pageHeaders(),
      json: { email, password: goodPassword },
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.refresh_token).toBeUndefined();
    expect((await refreshFromCookie(refreshCookie(answer).value)).status).toBe(200);
  });

  it('magic-link sign-in', async () => {
    const email = newEmail();
    const callbackUrl = 'http://localhost:3000/handler/magic-link-callback';
    const sent = await call(service, 'POST', '/auth/otp/send-sign-in-code', {
      headers: pageHeaders(),
      json: { email, callback_url: callbackUrl },
    });
    expect(sent.status, sent.text).toBe(200);
    expect(setCookies(sent)).toEqual([]);
    const code = codeFromMail(await lastMailTo(service, email));
    const answer = await call(service, 'POST', '/auth/otp/sign-in', { headers: pageHeaders(), json: { code } });
    expect(answer.status, answer.text).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(['access_token', 'is_new_user', 'user_id']);
    expect((await refreshFromCookie(refreshCookie(answer).value)).status).toBe(200);
  });

  it('the OAuth code exchange', async () => {
    const { answer: signedUp } = await cookieSignUp();
    const verifier = 'v'.repeat(43);
    const redirectUri = `${service.url}/handler/oauth-callback`;
    const { code } = await issueCode(dbOf(service.storage), {
      projectId: service.projectId,
      purpose: 'oauth_authorization_code',
      data: {
        user_id: signedUp.body.user_id,
        is_new_user: false,
        redirect_uri: redirectUri,
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        after_callback_redirect_url: null,
      },
      now: service.clock.now(),
    });
    const answer = await call(service, 'POST', '/auth/oauth/token', {
      headers: { ...tokenHeaders(), 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code,
        code_verifier: verifier,
        redirect_uri: redirectUri,
        client_id: service.projectId,
        client_secret: service.keys.publishableClientKey,
      }).toString(),
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.refresh_token).toBeUndefined();
    expect(answer.body).toMatchObject({ user_id: signedUp.body.user_id, is_new_user: false });
    expect((await refreshFromCookie(refreshCookie(answer).value)).status).toBe(200);
  });

  it('takes SameSite, Secure and Path from the options', () => {
    expect(refreshCookieSettings({})).toEqual({ sameSite: 'Lax', secure: null, path: null });
    expect(refreshCookieSettings({ sameSite: 'Strict', secure: true, path: '/auth/api/v1' })).toEqual({
      sameSite: 'Strict',
      secure: true,
      path: '/auth/api/v1',
    });
    expect(() => refreshCookieSettings({ path: '/api; Domain=evil.example' })).toThrow(TypeError);
    expect(() => refreshCookieSettings({ path: 'api' })).toThrow(TypeError);
    expect(() => refreshCookieSettings({ sameSite: 'None' as 'Lax' })).toThrow(TypeError);
  });
});

describe('the cookie in place of a refresh token', () => {
  it('refresh tokens in the cookie never rotated: each refresh sets a new one, the old one lasts the grace window', async () => {
    const { answer: signedUp, refreshToken } = await cookieSignUp();
    const answer = await refreshFromCookie(refreshToken);
    expect(answer.status, answer.text).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(['access_token', 'expires_in', 'scope', 'token_type']);
    const rotated = refreshCookie(answer);
    expect(rotated.value).toMatch(/^[0-9a-z]{45}$/);
    expect(rotated.value).not.toBe(refreshToken);
    expect(rotated.attributes['max-age']).toBe('31536000');
    expect((await me(answer.body.access_token)).body.id).toBe(signedUp.body.user_id);
    // Another tab's refresh that left with the old cookie at the same moment: the same new cookie.
    expect(refreshCookie(await refreshFromCookie(refreshToken)).value).toBe(rotated.value);
    // The old cookie replayed after the window (a copy taken before the rotation) ends the session.
    service.clock.advance(rotationGraceMs + 1_000);
    const replayed = await refreshFromCookie(refreshToken);
    expectKnownError(replayed, 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401, false);
    expect(refreshCookie(replayed).attributes['max-age']).toBe('0');
    expectKnownError(await refreshFromCookie(rotated.value), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401, false);
  });

  it('signs out: the session ends and the answer clears the cookie', async () => {
    const { answer: signedUp, refreshToken } = await cookieSignUp();
    const answer = await signOut(signedUp.body.access_token, refreshToken);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({ success: true });
    const cleared = refreshCookie(answer);
    expect(cleared.value).toBe('');
    expect(cleared.attributes['max-age']).toBe('0');
    // A browser that kept it anyway is refused, and told again to drop it.
    const refused = await refreshFromCookie(refreshToken);
    expectKnownError(refused, 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401, false);
    expect(refreshCookie(refused).attributes['max-age']).toBe('0');
    expectKnownError(await me(signedUp.body.access_token), 'ACCESS_TOKEN_EXPIRED', 401);
  });

  it('a password change keeps the session of the cookie, as it keeps that of the header', async () => {
    const { answer: signedUp, refreshToken } = await cookieSignUp();
    const other = await call(service, 'POST', '/auth/password/sign-in', {
      headers: authHeaders(service),
      json: { email: (await me(signedUp.body.access_token)).body.primary_email, password: goodPassword },
    });
    const changed = await call(service, 'POST', '/auth/password/update', {
      headers: { ...pageHeaders(), ...cookieOf(refreshToken), [h.accessToken]: signedUp.body.access_token },
      json: { old_password: goodPassword, new_password: 'another-horse-2' },
    });
    expect(changed.status, changed.text).toBe(200);
    expect((await refreshFromCookie(refreshToken)).status).toBe(200);
    expect((await refreshGrant(service, other.body.refresh_token)).status).toBe(401);
  });

  it("marks the cookie's session as the current one in the session list", async () => {
    const { answer: signedUp, refreshToken } = await cookieSignUp();
    const list = await call(service, 'GET', '/auth/sessions', {
      headers: { ...pageHeaders(), ...cookieOf(refreshToken), [h.accessToken]: signedUp.body.access_token },
    });
    expect(list.body.items.map((item: { is_current: boolean }) => item.is_current)).toEqual([true]);
  });

  it('signs a page whose cookie is gone out, as it does with a refused one (not an OAuth error)', async () => {
    expectKnownError(await refreshFromCookie(null), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401, false);
    expectKnownError(await refreshFromCookie('x'.repeat(45)), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401, false);
  });

  it('an explicit refresh token wins over the cookie', async () => {
    const first = await cookieSignUp();
    const second = await signUp(service);
    const answer = await call(service, 'POST', '/auth/oauth/token', {
      headers: {
        ...tokenHeaders(),
        ...cookieOf(first.refreshToken),
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams({
        grant_type: 'refresh_token',
        refresh_token: second.refresh_token,
        client_id: service.projectId,
        client_secret: service.keys.publishableClientKey,
      }).toString(),
    });
    expect((await me(answer.body.access_token)).body.id).toBe(second.user_id);
  });
});

describe('requests from another site', () => {
  it('a sign-out from a foreign origin is refused with ORIGIN_NOT_TRUSTED and changes nothing', async () => {
    const { answer: signedUp, refreshToken } = await cookieSignUp();
    const before = await snapshot(service);
    const answer = await signOut(signedUp.body.access_token, refreshToken, pageHeaders({}, foreignOrigin));
    expectKnownError(answer, 'ORIGIN_NOT_TRUSTED', 403);
    expect(setCookies(answer)).toEqual([]);
    expect(await snapshot(service)).toEqual(before);
    expect((await refreshFromCookie(refreshToken)).status).toBe(200);
  });

  it('a refresh from a foreign origin is refused too (its real status: the token endpoint has no override)', async () => {
    const { refreshToken } = await cookieSignUp();
    const answer = await refreshFromCookie(refreshToken, tokenHeaders(foreignOrigin));
    expectKnownError(answer, 'ORIGIN_NOT_TRUSTED', 403, false);
    expect(answer.text).not.toContain('access_token');
  });

  it('a sign-in from a foreign origin sets no cookie and opens no session', async () => {
    const { email } = await cookieSignUp();
    const before = await snapshot(service);
    const answer = await call(service, 'POST', '/auth/password/sign-in', {
      headers: pageHeaders({}, foreignOrigin),
      json: { email, password: goodPassword },
    });
    expectKnownError(answer, 'ORIGIN_NOT_TRUSTED', 403);
    expect(setCookies(answer)).toEqual([]);
    expect(await snapshot(service)).toEqual(before);
  });

  it('without the header (what a cross-site form sends) the cookie is not read at all', async () => {
    const { answer: signedUp, refreshToken } = await cookieSignUp();
    const formHeaders = { ...authHeaders(service), origin: foreignOrigin };
    const before = await snapshot(service);
    expectKnownError(
      await signOut(signedUp.body.access_token, refreshToken, formHeaders),
      'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED',
      401,
    );
    const refresh = await refreshFromCookie(refreshToken, { origin: foreignOrigin });
    expect(refresh.status).toBe(400);
    expect(refresh.body).toMatchObject({ error: 'invalid_request' });
    expect(await snapshot(service)).toEqual(before);
  });

  it("accepts the project's trusted domains, and requests without Origin (not a page's)", async () => {
    await service.setProjectConfig({ domains: [{ domain: 'https://app.example.com', handler_path: '/handler' }] });
    try {
      const { refreshToken } = await cookieSignUp();
      expect((await refreshFromCookie(refreshToken, tokenHeaders('https://app.example.com'))).status).toBe(200);
      expect((await refreshFromCookie(refreshToken, { [refreshCookieHeader]: '1' })).status).toBe(200);
      const sibling = await refreshFromCookie(refreshToken, tokenHeaders('https://evil.app.example.com'));
      expectKnownError(sibling, 'ORIGIN_NOT_TRUSTED', 403, false);
    } finally {
      await service.setProjectConfig({ domains: [] });
    }
  });
});

describe('cookies planted by a sibling subdomain (cookie tossing)', () => {
  /** A request to the service in-process, as a browser on `origin` sends it (the service answers any host). */
  function at(
    origin: string,
    path: string,
    init: { headers?: Record<string, string>; body?: string; method?: string },
  ) {
    return service
      .fetch(
        new Request(`${origin}/api/v1${path}`, {
          method: init.method ?? 'GET',
          headers: init.headers,
          body: init.body,
        }),
      )
      .then(async (response) => {
        const text = await response.text();
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {}
        return { status: response.status, headers: response.headers, body, text } as Answer;
      });
  }

  const refreshForm = () =>
    new URLSearchParams({
      grant_type: 'refresh_token',
      client_id: service.projectId,
      client_secret: service.keys.publishableClientKey,
    }).toString();

  it('a request carrying the cookie twice is refused and both copies are cleared, in every place a sibling can set them', async () => {
    const victim = await cookieSignUp();
    const attacker = await cookieSignUp();
    // The browser sends the more specific path first: the sibling's copy (Path=/api/v1/auth) comes before the victim's.
    const twice = { cookie: `${cookieName()}=${attacker.refreshToken}; ${cookieName()}=${victim.refreshToken}` };
    const origin = 'http://app.example.test';
    const refreshed = await at(origin, '/auth/oauth/token', {
      method: 'POST',
      headers: { ...tokenHeaders(origin), ...twice, 'content-type': 'application/x-www-form-urlencoded' },
      body: refreshForm(),
    });
    expectKnownError(refreshed, 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401, false);
    expect(refreshed.text).not.toContain('access_token');
    const cleared = setCookies(refreshed);
    expect(cleared.every((c) => c.name === cookieName() && c.value === '' && c.attributes['max-age'] === '0')).toBe(
      true,
    );
    const places = cleared.map((c) => `${c.attributes.domain ?? '(host)'} ${c.attributes.path}`);
    for (const path of ['/', '/api', '/api/v1', '/api/v1/auth', '/api/v1/auth/oauth', '/api/v1/auth/oauth/token']) {
      for (const domain of ['(host)', 'app.example.test', 'example.test'])
        expect(places).toContain(`${domain} ${path}`);
    }
    // Any other request of the mode too, and neither session is used or ended.
    const read = await at(origin, '/auth/sessions', {
      headers: { ...pageHeaders({}, origin), ...twice, [h.accessToken]: victim.answer.body.access_token },
    });
    expectKnownError(read, 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401);
    expect(setCookies(read).length).toBeGreaterThan(0);
    expect((await refreshFromCookie(victim.refreshToken)).status).toBe(200);
  });

  it('over https the cookie is __Host- (no Domain, Path=/, Secure): a sibling cannot set one of that name', async () => {
    const origin = 'https://auth.example.test';
    const signedUp = await at(origin, '/auth/password/sign-up', {
      method: 'POST',
      headers: { ...pageHeaders({}, origin), 'content-type': 'application/json' },
      body: JSON.stringify({ email: newEmail(), password: goodPassword }),
    });
    expect(signedUp.status, signedUp.text).toBe(200);
    const [cookie, ...others] = setCookies(signedUp);
    expect(others).toEqual([]);
    expect(cookie).toMatchObject({
      name: `__Host-${cookieName()}`,
      attributes: { path: '/', secure: true, httponly: true, samesite: 'Lax' },
    });
    expect(cookie!.attributes.domain).toBeUndefined();
    const refreshed = await at(origin, '/auth/oauth/token', {
      method: 'POST',
      headers: {
        ...tokenHeaders(origin),
        cookie: `__Host-${cookieName()}=${cookie!.value}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: refreshForm(),
    });
    expect(refreshed.status, refreshed.text).toBe(200);
    expect(setCookies(refreshed).map((c) => c.name)).toEqual([`__Host-${cookieName()}`]);
  });

  it('over https a cookie of the old name still signs in once, and moves to the __Host- name', async () => {
    const origin = 'https://auth.example.test';
    const { refreshToken } = await cookieSignUp(); // set as before, under the old name
    const refreshed = await at(origin, '/auth/oauth/token', {
      method: 'POST',
      headers: {
        ...tokenHeaders(origin),
        cookie: `${cookieName()}=${refreshToken}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: refreshForm(),
    });
    expect(refreshed.status, refreshed.text).toBe(200);
    const cookies = setCookies(refreshed);
    expect(cookies.find((c) => c.name === `__Host-${cookieName()}`)?.value).toMatch(/^[0-9a-z]{45}$/);
    expect(cookies.find((c) => c.name === cookieName())).toMatchObject({
      value: '',
      attributes: { 'max-age': '0', path: '/api/v1' },
    });
  });
});

describe('the wire protocol, unchanged', () => {
  it('answers the refresh token in the body and sets no cookie to a request that does not ask', async () => {
    const answer = await call(service, 'POST', '/auth/password/sign-up', {
      headers: { ...authHeaders(service), origin: foreignOrigin },
      json: { email: newEmail(), password: goodPassword },
    });
    expect(Object.keys(answer.body).sort()).toEqual(['access_token', 'refresh_token', 'user_id']);
    expect(setCookies(answer)).toEqual([]);
    const signedOut = await call(service, 'DELETE', '/auth/sessions/current', {
      headers: { ...authHeaders(service), [h.refreshToken]: answer.body.refresh_token },
    });
    expect(signedOut.status).toBe(200);
    expect(setCookies(signedOut)).toEqual([]);
  });

  it('ignores the header and any such cookie when the service does not run the mode', async () => {
    const ask = { [refreshCookieHeader]: '1', origin: foreignOrigin };
    const user = await call(plain, 'POST', '/auth/password/sign-up', {
      headers: { ...authHeaders(plain), ...ask },
      json: { email: newEmail(), password: goodPassword },
    });
    expect(Object.keys(user.body).sort()).toEqual(['access_token', 'refresh_token', 'user_id']);
    expect(setCookies(user)).toEqual([]);
    const cookie = { cookie: `${refreshCookieName(plain.projectId)}=${user.body.refresh_token}` };
    const signedOut = await call(plain, 'DELETE', '/auth/sessions/current', {
      headers: { ...authHeaders(plain), ...ask, ...cookie },
    });
    expectKnownError(signedOut, 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401);
    expect((await refreshGrant(plain, user.body.refresh_token)).status).toBe(200);
  });
});
