/**
 * The refresh-token cookie mode in real Chromium: a page on the service's own
 * origin (as a host that mounts the service serves its pages) signs up with
 * `tokenStore: 'httponly-cookie'`, keeps its session across a reload, and no
 * script on it can read the refresh token. The service is the real one over
 * HTTP with `refreshTokenCookie` on; only the page and the SDK bundle are
 * answered by the test, on that origin.
 */
import { fileURLToPath } from 'node:url';
import { refreshCookieName } from '@latchkey/protocol';
import { startTestService, type TestService } from '@latchkey/server/testing';
import { build } from 'esbuild';
import { type Browser, chromium } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let service: TestService;
let browser: Browser;
let sdk: string;

beforeAll(async () => {
  service = await startTestService({ refreshTokenCookie: true });
  const bundled = await build({
    entryPoints: [fileURLToPath(new URL('../packages/js/src/index.ts', import.meta.url))],
    bundle: true,
    format: 'esm',
    platform: 'browser',
    conditions: ['source'],
    write: false,
    logLevel: 'silent',
  });
  sdk = bundled.outputFiles[0]!.text;
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking'],
  });
});

afterAll(async () => {
  await browser?.close();
  await service?.close();
});

/** The app's page: the SDK on the service's origin, in the cookie mode, as `window.app`. */
function appPage(): string {
  const options = {
    projectId: service.projectId,
    publishableClientKey: service.keys.publishableClientKey,
    tokenStore: 'httponly-cookie',
  };
  return `<!doctype html><title>app</title><script type="module">
    import { ClientApp } from '/app/sdk.js';
    window.app = new ClientApp({ ...${JSON.stringify(options)}, baseUrl: location.origin });
  </script>`;
}

describe("tokenStore: 'httponly-cookie' in Chromium", () => {
  it('keeps a signed-in page signed in across a reload, with no refresh token in document.cookie', async () => {
    const context = await browser.newContext();
    await context.route(`${service.url}/app/**`, (route) => {
      const isSdk = new URL(route.request().url()).pathname === '/app/sdk.js';
      return route.fulfill({
        contentType: isSdk ? 'text/javascript; charset=utf-8' : 'text/html; charset=utf-8',
        body: isSdk ? sdk : appPage(),
      });
    });
    const page = await context.newPage();
    const ready = () => page.waitForFunction(() => 'app' in window);
    const email = `ada-${Date.now()}@example.com`;
    try {
      await page.goto(`${service.url}/app/`);
      await ready();
      const signedUp = await page.evaluate(async (address) => {
        const { app } = window as unknown as { app: import('@latchkey/js').ClientApp };
        await app.signUpWithCredential({ email: address, password: 'correct-horse-1', noRedirect: true });
        const user = await app.getUser({ or: 'throw' });
        return { email: user.primaryEmail, tokens: await user.getTokens() };
      }, email);
      expect(signedUp.email).toBe(email);
      expect(signedUp.tokens.refreshToken).toBeNull();

      await page.reload();
      await ready();
      const afterReload = await page.evaluate(async () => {
        const { app } = window as unknown as { app: import('@latchkey/js').ClientApp };
        return { email: (await app.getUser())?.primaryEmail ?? null, cookie: document.cookie };
      });
      expect(afterReload.email).toBe(email);

      const refreshCookie = (await context.cookies(`${service.apiUrl}/auth/oauth/token`)).find(
        (cookie) => cookie.name === refreshCookieName(service.projectId),
      );
      expect(refreshCookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/v1' });
      expect(refreshCookie?.value).toMatch(/^[0-9a-z]{45}$/);
      expect(afterReload.cookie).not.toContain(refreshCookie!.value);
      expect(afterReload.cookie).not.toMatch(/refresh/i);
    } finally {
      await context.close();
    }
  });
});
