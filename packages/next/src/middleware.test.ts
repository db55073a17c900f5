/**
 * `latchkeyMiddleware` with Web requests against the real service over HTTP
 * (no Next server needed: `NextRequest` in, `NextResponse` out): redirects,
 * local verification with no call per request, refresh with cookies set on
 * the response and handed to the render, and a bundle of the entry for the
 * edge that fails on any Node-only import.
 */
import { fileURLToPath } from 'node:url';
import { ClientApp, type FetchFunction } from '@latchkey/js';
import { cookieNames } from '@latchkey/protocol';
import { startTestService, type TestService } from '@latchkey/server/testing';
import { build } from 'esbuild';
import { NextRequest } from 'next/server.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latchkeyMiddleware } from './middleware.js';

let service: TestService;
const origin = 'http://app.example';
const password = 'correct-horse-battery-1';

beforeAll(async () => {
  service = await startTestService();
});

afterAll(async () => {
  await service?.close();
});

/** A middleware on the test service, and the paths of the calls it made to it. */
function middleware() {
  const calls: string[] = [];
  const fetch: FetchFunction = (url, init) => {
    calls.push(new URL(url).pathname);
    return globalThis.fetch(url, init);
  };
  const config = {
    baseUrl: service.url,
    projectId: service.projectId,
    publishableClientKey: service.keys.publishableClientKey,
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
