#!/usr/bin/env node
import { randomBytes, randomInt } from 'node:crypto';
/**
 * The dashboard's users page over many users on PostgreSQL: seeds the users
 * in bulk with SQL (as `users-at-scale.mjs` does, not through the API),
 * serves the built dashboard from the service in-process, signs its owner in
 * in Chromium, then measures
 *
 * - first paint of the table: navigation start to the first row painted
 *   (a MutationObserver sees the row, the next animation frame is the paint),
 *   the first load (nothing cached) and the following ones (assets cached),
 *   and how many `GET /users` requests each load made;
 * - the search in the browser: from writing a term into the search box to its
 *   results painted (the box waits 250 ms after the last keystroke; the
 *   figures include that wait, and are also given without it);
 * - the same searches as `GET /users?query=` straight to the API (Node's
 *   fetch, the owner's project with the server key), one at a time.
 *
 *   npm run build && node bench/dashboard-users.mjs
 *   node bench/dashboard-users.mjs --users 100000 --searches 50 --loads 7
 *
 * Figures, not a test: it prints a Markdown table. Chromium is
 * `/usr/bin/chromium` (`CHROMIUM_PATH` to change).
 */
import { existsSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { chromium } from 'playwright-core';
import { seedUsers } from './seed-users.mjs';

const { values: args } = parseArgs({
  options: {
    users: { type: 'string', default: process.env.BENCH_USERS || '1000000' },
    searches: { type: 'string', default: '50' },
    loads: { type: 'string', default: '7' },
  },
});
const users = Number(args.users);
const searches = Number(args.searches);
const loads = Number(args.loads);
const databaseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const dashboardDir = fileURLToPath(new URL('../apps/dashboard/dist/', import.meta.url));
/** The search box's wait after the last keystroke (`users-page.tsx`). */
const searchDelayMs = 250;

const server = await import('../packages/server/dist/index.js').catch(() => {
  console.error('bench: packages/server is not built; run `npm run build` first.');
  process.exit(1);
});
const testing = await import('../packages/server/dist/testing/index.js');
if (!existsSync(`${dashboardDir}index.html`)) {
  console.error('bench: the dashboard is not built; run `npm run build` first.');
  process.exit(1);
}
if (!(await testing.isPostgresReachable(databaseUrl))) {
  console.error(`bench: no PostgreSQL answers at ${databaseUrl}; this bench needs one.`);
  process.exit(1);
}

console.log(
  `Latchkey dashboard users page, ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ` +
    `${cpus().length} cores, load average ${loadavg()[0].toFixed(2)}, ${users.toLocaleString('en')} users, ` +
    `${loads} page loads, ${searches} searches\n`,
);

const schema = `bench_dash_${randomBytes(4).toString('hex')}`;
const storage = await server.openStorage({ databaseUrl, schema });
const secret = randomBytes(32).toString('base64url');
try {
  const keys = await server.bootstrap(storage, { dev: true });
  await seedUsers({ databaseUrl, schema, projectId: keys.projectId, count: users });
  const { internalPublishableClientKey } = await server.prepareDashboard(storage, { secret });
  const owner = { email: 'bench-owner@latchkey.localhost', password: randomBytes(18).toString('base64url') };
  const ownerUser = await server.createOwner(storage, owner);
  await server.addProjectOwner(storage, keys.projectId, ownerUser.id);
  const service = server.createService({
    storage,
    secret,
    logger: false,
    attemptLimits: false,
    development: true,
    dashboard: { dir: dashboardDir, config: () => ({ internalPublishableClientKey, devOwner: owner }) },
  });
  const listening = await server.startServer({ service, port: 0, host: '127.0.0.1' });
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-sync'],
  });
  try {
    const dashboard = `${listening.url}/dashboard/`;
    const usersUrl = `${dashboard}projects/${keys.projectId}/users`;
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    // Before any script of the page: note when the first row of the users table is painted.
    await context.addInitScript(() => {
      const seen = () => document.querySelector('.ld-table tbody tr');
      const observer = new MutationObserver(() => {
        if (!seen()) return;
        observer.disconnect();
        requestAnimationFrame(() => {
          globalThis.__firstRowPaintedAt = performance.now();
        });
      });
      observer.observe(document, { childList: true, subtree: true });
    });
    const page = await context.newPage();
    page.on('pageerror', (error) => console.error(`  page error: ${error.message}`));
    await page.goto(dashboard);
    await page.getByRole('button', { name: /^Continue as / }).click();
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor({ timeout: 60_000 });

    const paints = [];
    const userRequests = [];
    for (let run = 0; run < loads; run++) {
      const tab = run === 0 ? page : await context.newPage();
      let requests = 0;
      const count = (request) => {
        if (new URL(request.url()).pathname.endsWith('/api/v1/users')) requests++;
      };
      tab.on('request', count);
      await tab.goto(usersUrl);
      await tab.waitForFunction(() => typeof globalThis.__firstRowPaintedAt === 'number', null, { timeout: 60_000 });
      paints.push(await tab.evaluate(() => globalThis.__firstRowPaintedAt));
      userRequests.push(requests);
      tab.off('request', count);
      if (run > 0) await tab.close();
    }
    console.error(`  first paint of the table: ${paints.map((ms) => ms.toFixed(0)).join(', ')} ms`);

    // The searches, in the page: a term, then its results painted.
    const terms = searchTerms(searches);
    const browserTimes = [];
    const box = page.getByLabel('Search users');
    await box.waitFor();
    for (const term of terms) {
      await box.focus();
      browserTimes.push(await page.evaluate(timeSearch, term));
    }
    console.error(`  browser searches done (${browserTimes.length})`);

    // The same searches straight to the API.
    const headers = {
      'x-stack-project-id': keys.projectId,
      'x-stack-access-type': 'server',
      'x-stack-secret-server-key': keys.secretServerKey,
    };
    const apiTimes = [];
    for (const term of terms) {
      const started = performance.now();
      const response = await fetch(
        `${listening.url}/api/v1/users?limit=25&order_by=signed_up_at&desc=true&query=${encodeURIComponent(term)}`,
        { headers },
      );
      const body = await response.json();
      if (!response.ok || body.items.length === 0) throw new Error(`GET /users?query=${term}: ${response.status}`);
      apiTimes.push(performance.now() - started);
    }

    const rows = [
      ['table first paint, first load after sign-in', 1, paints[0], paints[0], paints[0]],
      ['table first paint, later loads', paints.length - 1, ...stats(paints.slice(1))],
      ['search in the browser, typing to results painted', browserTimes.length, ...stats(browserTimes)],
      [
        `  the same without the search box's ${searchDelayMs} ms wait`,
        browserTimes.length,
        ...stats(browserTimes.map((ms) => ms - searchDelayMs)),
      ],
      ['GET /users?query= (API, one at a time)', apiTimes.length, ...stats(apiTimes)],
    ].map(([name, n, ...figures]) => [name, n, ...figures.map((ms) => ms.toFixed(0))]);
    printTable(['measure', 'n', 'p50 ms', 'p99 ms', 'max ms'], rows);
    console.log(`\nGET /users requests per page load: ${[...new Set(userRequests)].join(', ')}`);
    await context.close();
  } finally {
    await browser.close();
    await listening.close();
  }
} finally {
  await testing.dropSchema(storage);
}

/**
 * In the page: writes `term` into the focused search box as one input event
 * and resolves with the ms until every row shown contains it, painted.
 */
function timeSearch(term) {
  const input = document.activeElement;
  const setValue = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
  const shown = () => {
    const results = document.querySelector('.ld-users-list-results');
    const rows = [...document.querySelectorAll('.ld-table tbody tr')];
    return (
      results?.getAttribute('aria-busy') !== 'true' &&
      rows.length > 0 &&
      rows.every((row) => row.textContent.toLowerCase().includes(term))
    );
  };
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const timeout = setTimeout(() => reject(new Error(`no results for ${term} after 30 s`)), 30_000);
    const observer = new MutationObserver(() => {
      if (!shown()) return;
      observer.disconnect();
      clearTimeout(timeout);
      requestAnimationFrame(() => resolve(performance.now() - started));
    });
    observer.observe(document.querySelector('main') ?? document.body, {
      childList: true,
      subtree: true,
      attributes: true,
      characterData: true,
    });
    setValue.call(input, term);
    input.dispatchEvent(new Event('input', { bubbles: true }));
  });
}

/** Terms that each find users (`user<n>` of the seeded ones), none a part of the one before. */
function searchTerms(count) {
  const terms = [];
  while (terms.length < count) {
    const term = `user${randomInt(1, users + 1)}`;
    const previous = terms.at(-1);
    if (previous && (previous.includes(term) || term.includes(previous))) continue;
    terms.push(term);
  }
  return terms;
}

function stats(values) {
  if (values.length === 0) return [Number.NaN, Number.NaN, Number.NaN];
  const sorted = [...values].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return [at(0.5), at(0.99), sorted.at(-1)];
}

function printTable(header, rows) {
  const table = [header, ...rows].map((row) => row.map(String));
  const widths = header.map((_, i) => Math.max(...table.map((row) => row[i].length)));
  const cells = (row) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i])));
  console.log(`| ${cells(table[0]).join(' | ')} |`);
  console.log(`| ${widths.map((w, i) => (i === 0 ? '-'.repeat(w) : `${'-'.repeat(w - 1)}:`)).join(' | ')} |`);
  for (const row of table.slice(1)) console.log(`| ${cells(row).join(' | ')} |`);
}
