/**
 * `latchkeyMiddleware` with Web requests against the real service over HTTP
 * (no Next server needed: `NextRequest` in, `NextResponse` out): redirects,
 * local verification with no call per request, refresh with cookies set on
 * the response and handed to the render (with the request's path), one
 * refresh for concurrent requests of a session, the refresh-token cookie mode
 * (a service started with `refreshTokenCookie`, its HttpOnly cookie as the
 * browser sends it to the app's pages), and a bundle of the entry for the
 * edge that fails on any Node-only import.
 */
import { fileURLToPath } from 'node:url';
import { ClientApp, type FetchFunction } from '@latchkey/js';
import { cookieNames, headers as h, refreshCookieHeader, refreshCookieName } from '@latchkey/protocol';
import { startTestService, type TestService } from '@latchkey/server/testing';
import { build } from 'esbuild';
import { NextRequest } from 'next/server.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latchkeyMiddleware } from './middleware.js';

let service: TestService;
/** In the refresh-token cookie mode, over https as deployed (its cookie `__Host-`, at `Path=/`). */
let cookieService: TestService;
const origin = 'http://app.example';
const password = 'correct-horse-battery-1';

beforeAll(async () => {
  [service, cookieService] = await Promise.all([
    startTestService(),
    startTestService({ refreshTokenCookie: { secure: true } }),
  ]);
});

afterAll(async () => {
  await Promise.all([service?.close(), cookieService?.close()]);
});

/** A middleware on the test service, and the paths of the calls it made to it. */
function middleware(target = service) {
  const calls: string[] = [];
  const fetch: FetchFunction = (url, init) => {
    calls.push(new URL(url).pathname);
    return globalThis.fetch(url, init);
  };
  const config = {
    baseUrl: target.url,
    projectId: target.projectId,
    publishableClientKey: target.keys.publishableClientKey,
  };
  return { handle: latchkeyMiddleware({ protect: ['/account', /^\/admin\b/], config, fetch }), calls };
}

/** A new user's tokens, issued at the service's current time. */
async function newSession() {
  const app = new ClientApp({
    projectId: service.projectId,
    publishableClientKey: service.keys.publishableClientKey,
    baseUrl: service.url,
    tokenStore: 'memory',
    clock: service.clock,
  });
  const email = `mw-${crypto.randomUUID().slice(0, 8)}@example.com`;
  await app.signUpWithCredential({ email, password, noRedirect: true });
  const tokens = await (await app.getUser({ or: 'throw' })).getTokens();
  return { accessToken: tokens.accessToken!, refreshToken: tokens.refreshToken! };
}

function cookiesOf(tokens: { accessToken: string | null; refreshToken: string }): string {
  const pair = tokens.accessToken ? JSON.stringify([tokens.refreshToken, tokens.accessToken]) : null;
  const refresh = `${cookieNames.refreshToken(service.projectId)}=${encodeURIComponent(tokens.refreshToken)}`;
  return pair ? `${refresh}; ${cookieNames.accessToken}=${encodeURIComponent(pair)}; theme=dark` : refresh;
}

const request = (path: string, cookie?: string) =>
  new NextRequest(`${origin}${path}`, { headers: cookie ? { cookie } : {} });

const passes = (response: Response) => response.headers.get('x-middleware-next') === '1';

/** The request headers Next hands the page's render (`NextResponse.next({ request: { headers } })`). */
const renderHeader = (response: Response, name: string) => response.headers.get(`x-middleware-request-${name}`);

describe('latchkeyMiddleware', () => {
  it('redirects a signed-out visitor of a protected route to sign-in, with the way back', async () => {
    const { handle, calls } = middleware();
    const response = await handle(request('/account/billing?tab=2'));
    expect(response.status).toBe(307);
    expect(response.headers.get('location')).toBe(
      `${origin}/handler/sign-in?after_auth_return_to=%2Faccount%2Fbilling%3Ftab%3D2`,
    );
    expect((await handle(request('/admin'))).status).toBe(307);
    expect(passes(await handle(request('/')))).toBe(true);
    expect(passes(await handle(request('/accounting')))).toBe(true);
    expect(passes(await handle(request('/handler/sign-in')))).toBe(true);
    expect(calls).toEqual([]);
  });

  it('lets a signed-in visitor pass after verifying locally: the JWKS once, then no call per request', async () => {
    const { handle, calls } = middleware();
    const cookie = cookiesOf(await newSession());
    for (let i = 0; i < 5; i++) {
      const response = await handle(request('/account', cookie));
      expect(passes(response)).toBe(true);
      expect(response.headers.get('set-cookie')).toBeNull();
    }
    expect(calls).toEqual([`/api/v1/projects/${service.projectId}/.well-known/jwks.json`]);
  });

  it('refreshes an expired access token: new cookies on the response and in the render’s request', async () => {
    const { handle, calls } = middleware();
    service.clock.advance(-20 * 60_000); // issued 20 minutes ago: expired by real time
    const tokens = await newSession().finally(() => service.clock.set(Date.now()));
    const response = await handle(request('/account', cookiesOf(tokens)));
    expect(passes(response)).toBe(true);
    expect(calls).toContain('/api/v1/auth/oauth/token');
    const stored = response.cookies.get(cookieNames.accessToken);
    const [refreshToken, accessToken] = JSON.parse(stored!.value) as [string, string];
    expect(refreshToken).toBe(tokens.refreshToken);
    expect(accessToken).not.toBe(tokens.accessToken);
    expect(stored).toMatchObject({ path: '/', sameSite: 'lax', maxAge: 86_400 });
    // Next hands these request headers to the page's render (NextResponse.next({ request: { headers } })).
    const renderCookie = response.headers.get('x-middleware-request-cookie') ?? '';
    expect(renderCookie).toContain(encodeURIComponent(accessToken));
    expect(renderCookie).toContain('theme=dark');

    // The refreshed cookies verify locally from then on.
    calls.length = 0;
    expect(passes(await handle(request('/account', cookiesOf({ refreshToken, accessToken }))))).toBe(true);
    expect(calls).toEqual([]);
  });

  it('refreshes when only the refresh token is there, on routes it does not protect too', async () => {
    const { handle } = middleware();
    const { refreshToken } = await newSession();
    const response = await handle(request('/', cookiesOf({ refreshToken, accessToken: null })));
    expect(passes(response)).toBe(true);
    expect(response.cookies.get(cookieNames.accessToken)?.value).toContain(refreshToken);
  });

  it('signs out a session the service refused: redirect on a protected route, its cookies deleted', async () => {
    const { handle } = middleware();
    const response = await handle(request('/account', cookiesOf({ refreshToken: 'not-a-session', accessToken: null })));
    expect(response.status).toBe(307);
    expect(response.cookies.get(cookieNames.refreshToken(service.projectId))).toMatchObject({ value: '', maxAge: 0 });
    expect(response.cookies.get(cookieNames.accessToken)).toMatchObject({ value: '', maxAge: 0 });
  });

  it('hands the render the path asked for, so getUser({ or: "redirect" }) comes back to it', async () => {
    const { handle } = middleware();
    expect(renderHeader(await handle(request('/dashboard/42?tab=2')), 'x-latchkey-path')).toBe('/dashboard/42?tab=2');
    const signedIn = await handle(request('/account', cookiesOf(await newSession())));
    expect(renderHeader(signedIn, 'x-latchkey-path')).toBe('/account');
    // What a client sends under that name never reaches the render.
    const forged = new NextRequest(`${origin}/a`, { headers: { 'x-latchkey-path': '//evil.example' } });
    expect(renderHeader(await handle(forged), 'x-latchkey-path')).toBe('/a');
  });

  it('refreshes once for concurrent requests of one session (the renders of one page)', async () => {
    const { handle, calls } = middleware();
    const { refreshToken } = await newSession();
    const cookie = cookiesOf({ refreshToken, accessToken: null });
    const responses = await Promise.all([1, 2, 3].map(() => handle(request('/account', cookie))));
    expect(responses.every(passes)).toBe(true);
    expect(calls.filter((path) => path === '/api/v1/auth/oauth/token')).toHaveLength(1);
    const stored = responses.map((response) => response.cookies.get(cookieNames.accessToken)?.value);
    expect(new Set(stored).size).toBe(1);
  });

  it('refuses a forged access token (no refresh token to fall back on)', async () => {
    const { handle } = middleware();
    const { accessToken } = await newSession();
    const [header, payload] = accessToken.split('.');
    const forged = `${header}.${payload}.${'A'.repeat(86)}`;
    const response = await handle(
      new NextRequest(`${origin}/account`, { headers: { authorization: `Bearer ${forged}` } }),
    );
    expect(response.status).toBe(307);
  });
});

describe('latchkeyMiddleware with the refresh-token cookie mode (the service on the app’s origin)', () => {
  const appOrigin = 'https://app.example';
  const serviceCookieName = () => `__Host-${refreshCookieName(cookieService.projectId)}`;
  const accessCookieName = () => `latchkey-access-${cookieService.projectId}`;

  /** A sign-up as the browser SDK's `'httponly-cookie'` store makes it: the refresh token only in the service's cookie. */
  async function cookieSession(): Promise<string> {
    const response = await fetch(`${cookieService.apiUrl}/auth/password/sign-up`, {
      method: 'POST',
      headers: {
        [h.projectId]: cookieService.projectId,
        [h.accessType]: 'client',
        [h.publishableClientKey]: cookieService.keys.publishableClientKey,
        [refreshCookieHeader]: '1',
        'content-type': 'application/json',
      },
      body: JSON.stringify({ email: `mw-${crypto.randomUUID().slice(0, 8)}@example.com`, password }),
    });
    const body = (await response.json()) as Record<string, unknown>;
    expect(body.refresh_token).toBeUndefined();
    const setCookie = response.headers.getSetCookie().find((line) => line.startsWith(`${serviceCookieName()}=`));
    expect(setCookie).toMatch(/; Path=\/; HttpOnly; SameSite=Lax; Secure$/);
    return setCookie!.slice(serviceCookieName().length + 1).split(';')[0]!;
  }

  const pageRequest = (path: string, cookie: string) => new NextRequest(`${appOrigin}${path}`, { headers: { cookie } });

  /** The cookies the response sets, as `name -> Set-Cookie line`. */
  const setCookies = (response: Response) =>
    new Map(response.headers.getSetCookie().map((line) => [line.slice(0, line.indexOf('=')), line]));

  it('refreshes with the service’s cookie and keeps the access token HttpOnly; the refresh token goes nowhere else', async () => {
    const { handle, calls } = middleware(cookieService);
    const refreshToken = await cookieSession();
    const first = await handle(pageRequest('/account', `${serviceCookieName()}=${refreshToken}`));
    expect(passes(first)).toBe(true);
    expect(calls).toContain('/api/v1/auth/oauth/token');
    const set = setCookies(first);
    expect([...set.keys()]).toEqual([accessCookieName()]);
    expect(set.get(accessCookieName())).toMatch(/; HttpOnly/i);
    expect(set.get(accessCookieName())).toMatch(/; Secure/i);
    expect(first.headers.getSetCookie().join('\n')).not.toContain(refreshToken);
    expect(renderHeader(first, 'cookie')).toContain(`${accessCookieName()}=`);

    // The browser's next request carries both: verified locally, no call to the service.
    calls.length = 0;
    const access = first.cookies.get(accessCookieName())!.value;
    const cookie = `${serviceCookieName()}=${refreshToken}; ${accessCookieName()}=${encodeURIComponent(access)}`;
    const second = await handle(pageRequest('/account', cookie));
    expect(passes(second)).toBe(true);
    expect(second.headers.getSetCookie()).toEqual([]);
    expect(calls).toEqual([]);
  });

  it('counts the access cookie only beside the refresh cookie it was stored with', async () => {
    const { handle, calls } = middleware(cookieService);
    const [first, second] = await Promise.all([cookieSession(), cookieSession()]);
    const stored = await handle(pageRequest('/account', `${serviceCookieName()}=${first}`));
    const access = stored.cookies.get(accessCookieName())!.value;
    // Another session's refresh cookie now (signed out and in as someone else): refreshed, not taken for the first.
    calls.length = 0;
    const other = await handle(
      pageRequest('/account', `${serviceCookieName()}=${second}; ${accessCookieName()}=${encodeURIComponent(access)}`),
    );
    expect(calls).toContain('/api/v1/auth/oauth/token');
    expect(other.cookies.get(accessCookieName())!.value).not.toBe(access);
    // Without the refresh cookie (the service cleared it at sign-out) the access cookie alone opens nothing.
    expect((await handle(pageRequest('/account', `${accessCookieName()}=${encodeURIComponent(access)}`))).status).toBe(
      307,
    );
  });

  it('signs out a refused cookie: redirect, the access cookie, the service’s cookie and the handle expired', async () => {
    const { handle } = middleware(cookieService);
    const response = await handle(pageRequest('/account', `${serviceCookieName()}=${'x'.repeat(45)}`));
    expect(response.status).toBe(307);
    const set = setCookies(response);
    expect([...set.keys()].sort()).toEqual(
      [accessCookieName(), serviceCookieName(), `latchkey-session-${cookieService.projectId}`].sort(),
    );
    for (const line of set.values()) expect(line).toMatch(/Max-Age=0/i);
    expect(set.get(serviceCookieName())).toMatch(/Path=\/; .*Secure/i);
  });

  it('takes a cookie name sent twice (one planted by a sibling subdomain) for no session', async () => {
    const { handle, calls } = middleware(cookieService);
    const refreshToken = await cookieSession();
    const tossed = `${serviceCookieName()}=${refreshToken}; ${serviceCookieName()}=${'a'.repeat(45)}`;
    expect((await handle(pageRequest('/account', tossed))).status).toBe(307);
    expect(calls).toEqual([]);
  });
});

describe('the middleware entry on the edge', () => {
  /** Bundles `entry` as an edge runtime would: no Node platform, browser and worker conditions. */
  const bundleForEdge = (entry: string) =>
    build({
      entryPoints: [entry],
      bundle: true,
      write: false,
      metafile: true,
      format: 'esm',
      platform: 'neutral',
      mainFields: ['module', 'main'],
      conditions: ['source', 'edge-light', 'worker', 'browser'],
      external: ['next', 'next/*'],
      logLevel: 'silent',
    });

  it('bundles with Web APIs only: no node: module, no server-key code', async () => {
    const result = await bundleForEdge(fileURLToPath(new URL('./middleware.ts', import.meta.url)));
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.filter((input) => /server-app|admin|project-owner|packages\/server\//.test(input))).toEqual([]);
    expect(result.outputFiles[0]!.text).not.toMatch(/from ["']node:|ServerApp|AdminApp/);
  });

  it('fails on a Node-only import (the check has teeth)', async () => {
    const { mkdtemp, writeFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = await mkdtemp(join(tmpdir(), 'edge-'));
    const entry = join(dir, 'entry.ts');
    await writeFile(entry, "import { createHash } from 'node:crypto';\nexport const h = createHash('sha256');\n");
    await expect(bundleForEdge(entry)).rejects.toThrow(/node:crypto/);
  });
});
