/**
 * What the dashboard's browser tests share: `latchkey dev` (which serves the
 * dashboard at `/dashboard/`) on a fresh data directory, one Chromium, an
 * `AdminApp` with the dev project's admin key to seed and check data through
 * the API, a page signed in as the dev owner, axe, and screenshots.
 *
 * Screenshots go to `e2e/screenshots/dashboard/<name>-<light|dark>.png`
 * (ignored by git) for a reviewer to look at.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { AdminApp } from '@latchkey/js/server';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import { seriousAxeViolations } from './axe.js';
import { type DevInfo, launchChromium, startDev } from './stack.js';

const screenshotDir = fileURLToPath(new URL('../screenshots/dashboard/', import.meta.url));

export interface DashboardStack {
  dev: DevInfo;
  browser: Browser;
  /** The dev project's `AdminApp` (super secret admin key), to seed and to check what the pages did. */
  admin: AdminApp;
  /** The URL of a dashboard path: `url('/projects/p1/users')`; `projectUrl('/users')` for the dev project. */
  url(path: string): string;
  projectUrl(path?: string): string;
  close(): Promise<void>;
}

/**
 * Rows written straight into the dev service's embedded database before the
 * service that the tests use starts: `latchkey dev` makes the data directory
 * and the dev project, stops, and `seed` runs on its PGlite (many users in
 * one statement, where the API would take a minute).
 */
export type Seed = (db: PGlite, projectId: string) => Promise<void>;

export async function startDashboard(options: { seed?: Seed } = {}): Promise<DashboardStack> {
  const dataDir = await mkdtemp(join(tmpdir(), 'latchkey-dashboard-'));
  if (options.seed) {
    const first = await startDev(dataDir);
    first.child.kill('SIGTERM');
    await new Promise((resolve) => first.child.once('exit', resolve));
    const db = new PGlite({ dataDir: join(dataDir, 'pglite'), extensions: { pg_trgm } });
    try {
      await options.seed(db, first.info.projectId);
    } finally {
      await db.close();
    }
  }
  const { info, child } = await startDev(dataDir);
  const browser = await launchChromium();
  const admin = new AdminApp({
    projectId: info.projectId,
    baseUrl: info.apiUrl,
    superSecretAdminKey: info.superSecretAdminKey,
  });
  const url = (path: string) => `${info.dashboardUrl}${path.replace(/^\//, '')}`;
  return {
    dev: info,
    browser,
    admin,
    url,
    projectUrl: (path = '') => url(`/projects/${info.projectId}${path}`),
    async close() {
      await browser.close().catch(() => {});
      child.kill('SIGTERM');
      await new Promise((resolve) => child.once('exit', resolve));
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface SignedInPage {
  context: BrowserContext;
  page: Page;
}

/**
 * A new browser context signed in as the dev owner (the one-click sign-in),
 * then at `path` (a full URL from `stack.url`/`stack.projectUrl`), with its
 * main heading shown.
 */
export async function signedInPage(
  stack: DashboardStack,
  path: string,
  options: { colorScheme?: 'light' | 'dark'; viewport?: { width: number; height: number } } = {},
): Promise<SignedInPage> {
  const context = await stack.browser.newContext({
    colorScheme: options.colorScheme ?? 'light',
    viewport: options.viewport ?? { width: 1280, height: 860 },
  });
  const page = await context.newPage();
  page.on('pageerror', (error) => console.error(`dashboard page error: ${error.message}`));
  await page.goto(stack.url('/'));
  await page.getByRole('button', { name: /^Continue as / }).click();
  await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
  if (path !== stack.url('/')) await page.goto(path);
  await page.getByRole('heading', { level: 1 }).first().waitFor();
  return { context, page };
}

/** Runs axe-core on the page as it is; fails on any serious or critical violation. */
async function expectNoSeriousAxeViolations(page: Page): Promise<void> {
  expect(await seriousAxeViolations(page)).toEqual([]);
}

/**
 * Checks the page with axe and takes its screenshot in the light and the dark
 * theme (the dashboard follows the system's by default): `name` is the file's.
 */
export async function checkPageInBothThemes(page: Page, name: string): Promise<void> {
  await mkdir(screenshotDir, { recursive: true });
  for (const colorScheme of ['light', 'dark'] as const) {
    // Reduced motion: no colour transition is half-way when axe measures contrast.
    await page.emulateMedia({ colorScheme, reducedMotion: 'reduce' });
    await expectNoSeriousAxeViolations(page);
    await page.screenshot({ path: join(screenshotDir, `${name}-${colorScheme}.png`), fullPage: true });
  }
  await page.emulateMedia({ colorScheme: 'light', reducedMotion: 'no-preference' });
}
