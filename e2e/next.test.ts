/**
 * `@latchkey/next` in a real Next.js app: `apps/next-demo` built with
 * `next build` and served by `next start`, against a real Latchkey service
 * over HTTP (its clock under the test's control), in Debian's Chromium.
 * Sign-up on the handler page, the server's HTML of a protected page, the
 * proxy's redirect to sign-in and back, an expired access token refreshed by
 * the proxy, and sign-out through a server action; on the current major
 * (`proxy.ts`) and the previous one (`middleware.ts`, on the edge runtime).
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ClientApp } from '@latchkey/js';
import { cookieNames } from '@latchkey/protocol';
import { startTestService, type TestService } from '@latchkey/server/testing';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium } from './support/stack.js';

const repoRoot = fileURLToPath(new URL('../', import.meta.url));
const demoDir = join(repoRoot, 'apps/next-demo');
const password = 'correct-horse-battery-1';

let service: TestService;
let browser: Browser;
let demoUrl: string;

beforeAll(async () => {
  service = await startTestService();
  browser = await launchChromium();
});

afterAll(async () => {
  await browser?.close();
  await service?.close();
});

/** A major of Next and the folder its build of the demo runs in. */
interface NextMajor {
  name: string;
  /** Makes the folder ready and returns it (the demo itself, or a copy of it for another major). */
  prepare(): string;
}

const next16: NextMajor = { name: 'Next 16 (proxy.ts)', prepare: () => demoDir };

/**
 * The previous major, from the `next15` alias (`npm:next@15`): the demo's app folder copied beside
 * Next 15 (hard links of `node_modules/next15` as its `node_modules/next`, since Next requires itself
 * by name), with `proxy.ts` as the `middleware.ts` Next 15 reads (its edge runtime), and the JSX
 * setting Next 15 wants.
 */
const next15: NextMajor = {
  name: 'Next 15 (middleware.ts on the edge runtime)',
  prepare() {
    const dir = join(demoDir, '.next-15-app');
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(join(dir, 'node_modules'), { recursive: true });
    cpSync(join(demoDir, 'app'), join(dir, 'app'), { recursive: true });
    cpSync(join(demoDir, 'next.config.mjs'), join(dir, 'next.config.mjs'));
    const proxy = readFileSync(join(demoDir, 'proxy.ts'), 'utf8');
    writeFileSync(join(dir, 'middleware.ts'), proxy.replace('export const proxy =', 'export const middleware ='));
    const tsconfig = readFileSync(join(demoDir, 'tsconfig.json'), 'utf8');
    writeFileSync(join(dir, 'tsconfig.json'), tsconfig.replace('"jsx": "react-jsx"', '"jsx": "preserve"'));
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'next-demo-15', private: true, type: 'module' }));
    const linked = spawnSync('cp', ['-al', join(repoRoot, 'node_modules/next15'), join(dir, 'node_modules/next')]);
    if (linked.status !== 0) throw new Error(`cp -al node_modules/next15 failed: ${linked.stderr}`);
    return dir;
  },
};

/** Builds the demo with `major` (`next build`), serves it (`next start`), and stops it after the suite. */
function servedDemo(major: NextMajor) {
  let next: ChildProcess | undefined;
  beforeAll(async () => {
    const dir = major.prepare();
    const bin = join(dir, 'node_modules/next/dist/bin/next');
    const nextBin = existsSync(bin) ? bin : join(repoRoot, 'node_modules/next/dist/bin/next');
    const env = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', LATCHKEY_REPO_ROOT: repoRoot };
    await run(nextBin, ['build'], dir, env);
    const port = await freePort();
    next = spawn(process.execPath, [nextBin, 'start', '-p', String(port)], {
      cwd: dir,
      env: {
        ...env,
        LATCHKEY_API_URL: service.url,
        LATCHKEY_PROJECT_ID: service.projectId,
        LATCHKEY_PUBLISHABLE_CLIENT_KEY: service.keys.publishableClientKey,
        LATCHKEY_SECRET_SERVER_KEY: service.keys.secretServerKey,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    await outputLine(next, /ready/i);
    // `localhost`, not 127.0.0.1: Next 15's URLs name every loopback address `localhost`, redirects too.
    demoUrl = `http://localhost:${port}`;
  }, 240_000);
  afterAll(async () => {
    if (next && next.exitCode === null) {
      const exited = new Promise((resolve) => next?.once('exit', resolve));
      next.kill('SIGTERM');
      await exited;
    }
  });
}

/** Runs the Next CLI in `cwd` to its end; rejects with its output when it fails. */
function run(bin: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<void> {
  const child = spawn(process.execPath, [bin, ...args], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr?.on('data', (chunk) => {
    output += chunk;
  });
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`next ${args[0]} failed:\n${output}`))));
  });
}

/** Resolves when the child prints a line matching `pattern`; rejects if it exits first. */
function outputLine(child: ChildProcess, pattern: RegExp): Promise<void> {
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      output += chunk;
      if (pattern.test(output)) resolve();
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk) => {
      output += chunk;
    });
    child.once('exit', (code) => reject(new Error(`next start exited with ${code}:\n${output}`)));
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const newEmail = () => `next-${crypto.randomUUID().slice(0, 8)}@example.com`;

/** A user made through the service's API, signed in by a `ClientApp` on the service's clock. */
async function signedInTokens(email: string, signUp: boolean) {
  const app = new ClientApp({
    projectId: service.projectId,
    publishableClientKey: service.keys.publishableClientKey,
    baseUrl: service.url,
    tokenStore: 'memory',
    clock: service.clock,
  });
  if (signUp) await app.signUpWithCredential({ email, password, noRedirect: true });
  else await app.signInWithCredential({ email, password, noRedirect: true });
  const user = await app.getUser({ or: 'throw' });
  return user.getTokens();
}

/** The browser's cookie header for the demo's origin. */
async function cookieHeader(context: BrowserContext): Promise<string> {
  const cookies = await context.cookies(demoUrl);
  return cookies.map(({ name, value }) => `${name}=${value}`).join('; ');
}

async function signUpOnHandlerPage(page: Page, email: string) {
  await page.getByLabel(/e-?mail/i).fill(email);
  await page.getByLabel(/^password$/i).fill(password);
  const repeat = page.getByLabel(/repeat|confirm/i);
  if ((await repeat.count()) > 0) await repeat.fill(password);
  await page.getByRole('button', { name: /sign up|create account/i }).click();
}

describe.each([next16, next15])('@latchkey/next on $name: next build, next start', (major) => {
  servedDemo(major);

  it('signs up on the handler page; the protected page’s server HTML already shows the user', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const email = newEmail();
    await page.goto(`${demoUrl}/handler/sign-up?after_auth_return_to=%2Fprotected`);
    await signUpOnHandlerPage(page, email);
    await page.waitForURL(`${demoUrl}/protected`);
    await expect(page.getByTestId('protected-user').textContent()).resolves.toBe(`Signed in as ${email}`);

    // The page as the server sends it, no script run: a plain request with the browser's cookies.
    const response = await fetch(`${demoUrl}/protected`, {
      headers: { cookie: await cookieHeader(context) },
      redirect: 'manual',
    });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain(`Signed in as <!-- -->${email}`);
    // The provider handed the server's user to @latchkey/react: the header's user button, not a sign-in link.
    expect(html).toContain(`aria-label="Account menu for ${email}"`);
    expect(html).not.toContain('href="/handler/sign-in"');
    await context.close();
  });

  it('sends a signed-out visitor to sign-in with after_auth_return_to, and back after signing in', async () => {
    const email = newEmail();
    await signedInTokens(email, true);
    const context = await browser.newContext();
    const page = await context.newPage();
    await page.goto(`${demoUrl}/protected`);
    await page.waitForURL(`${demoUrl}/handler/sign-in?after_auth_return_to=%2Fprotected`);
    await page.getByLabel(/e-?mail/i).fill(email);
    await page.getByLabel(/^password$/i).fill(password);
    await page.getByRole('button', { name: /^sign in$/i }).click();
    await page.waitForURL(`${demoUrl}/protected`);
    await expect(page.getByTestId('protected-user').textContent()).resolves.toBe(`Signed in as ${email}`);
    await context.close();
  });

  it('getUser({ or: "redirect" }) in a page the proxy does not protect comes back to the path asked for', async () => {
    const response = await fetch(`${demoUrl}/dashboard?tab=2`, { redirect: 'manual' });
    expect(response.status).toBe(307);
    expect(response.headers.get('location')).toMatch(
      /\/handler\/sign-in\?after_auth_return_to=%2Fdashboard%3Ftab%3D2$/,
    );
  });

  it('refreshes an expired access token in the proxy: new cookies set, the page renders the user', async () => {
    const email = newEmail();
    // Tokens issued 20 minutes ago by the service's clock: by real time the access token has expired.
    service.clock.advance(-20 * 60_000);
    let tokens: Awaited<ReturnType<typeof signedInTokens>>;
    try {
      tokens = await signedInTokens(email, true);
    } finally {
      service.clock.set(Date.now());
    }
    const context = await browser.newContext();
    const pair = JSON.stringify([tokens.refreshToken, tokens.accessToken]);
    await context.addCookies([
      { name: cookieNames.refreshToken(service.projectId), value: tokens.refreshToken!, url: demoUrl },
      { name: cookieNames.accessToken, value: encodeURIComponent(pair), url: demoUrl },
    ]);
    const page = await context.newPage();
    const response = await page.goto(`${demoUrl}/protected`);
    expect(page.url()).toBe(`${demoUrl}/protected`);
    expect(await response?.headerValue('set-cookie')).toContain(`${cookieNames.accessToken}=`);
    // The server's own HTML, before any script could refresh: the proxy handed the render the new token.
    expect(await response?.text()).toContain(`Signed in as <!-- -->${email}`);
    const stored = (await context.cookies(demoUrl)).find((cookie) => cookie.name === cookieNames.accessToken);
    const [refreshToken, accessToken] = JSON.parse(decodeURIComponent(stored!.value)) as [string, string];
    expect(refreshToken).toBe(tokens.refreshToken);
    expect(accessToken).not.toBe(tokens.accessToken);
    await context.close();
  });

  it('signs out through a server action: the next render sees nobody, the session is over', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const email = newEmail();
    await page.goto(`${demoUrl}/handler/sign-up?after_auth_return_to=%2Fprotected`);
    await signUpOnHandlerPage(page, email);
    await page.waitForURL(`${demoUrl}/protected`);
    const refreshCookie = cookieNames.refreshToken(service.projectId);
    const before = (await context.cookies(demoUrl)).find((cookie) => cookie.name === refreshCookie)!;

    await page.getByRole('button', { name: 'Sign out on the server' }).click();
    await page.waitForURL(`${demoUrl}/`);
    await expect(page.getByTestId('home-user').textContent()).resolves.toBe('Nobody is signed in.');
    const names = (await context.cookies(demoUrl)).map((cookie) => cookie.name);
    expect(names).not.toContain(cookieNames.accessToken);
    expect(names).not.toContain(cookieNames.refreshToken(service.projectId));

    // The old refresh token, replayed, opens nothing: the session ended on the service too.
    const replay = await fetch(`${demoUrl}/protected`, {
      headers: { cookie: `${refreshCookie}=${before.value}` },
      redirect: 'manual',
    });
    expect(replay.status).toBe(307);
    expect(replay.headers.get('location')).toContain('/handler/sign-in?after_auth_return_to=%2Fprotected');
    await context.close();
  });
});
