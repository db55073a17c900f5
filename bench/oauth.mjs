#!/usr/bin/env node
/**
 * OAuth sign-in through the service, end to end over HTTP: the authorize
 * redirect, the development stand-in's page and form (what a `shared`
 * provider is in development), the provider callback (code exchange, account
 * rules, the app's code) and the app's code exchange for a session. Five
 * requests per sign-in, as a browser and the SDK make them. Measured one
 * sign-in at a time and with 10 at once, for returning users (the account is
 * connected) and new ones (a user is created). Runs on PostgreSQL when one
 * answers (`DATABASE_URL`, default `postgres://postgres@127.0.0.1:5432/test`),
 * and on PGlite.
 *
 *   npm run build && node bench/oauth.mjs
 *
 * Figures, not a test: it prints a Markdown table. The stand-in answers from
 * the service itself, so the figures are the service's own cost of a provider
 * sign-in, without a real provider's network time.
 */
import { createHash, randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import { forEachBackend } from './backends.mjs';

const signIns = Number(process.env.BENCH_SIGN_INS || 300);
const databaseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const server = await import('../packages/server/dist/index.js').catch(() => {
  console.error('bench: packages/server is not built; run `npm run build` first.');
  process.exit(1);
});
const testing = await import('../packages/server/dist/testing/index.js');
const callback = 'http://localhost:3000/handler/oauth-callback';

console.log(
  `Latchkey OAuth sign-in (development stand-in), ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ` +
    `${cpus().length} cores, load average ${loadavg()[0].toFixed(2)}, ${signIns} sign-ins per scenario\n`,
);

/** One whole sign-in as `email`; returns its duration in ms. */
async function signIn(api, keys, email) {
  const started = performance.now();
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(32).toString('base64url');
  const authorize = new URL(`${api}/auth/oauth/authorize/github`);
  for (const [key, value] of Object.entries({
    client_id: keys.projectId,
    client_secret: keys.publishableClientKey,
    redirect_uri: callback,
    scope: 'legacy',
    state,
    grant_type: 'authorization_code',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    response_type: 'code',
    type: 'authenticate',
    error_redirect_url: 'http://localhost:3000/handler/error',
  }))
    authorize.searchParams.set(key, value);
  const first = await fetch(authorize, { redirect: 'manual' });
  const cookie = first.headers.getSetCookie()[0].split(';')[0];
  const page = new URL(first.headers.get('location'));
  await (await fetch(page)).text();
  const chosen = await fetch(page, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ...Object.fromEntries(page.searchParams), name: 'Bench', email }),
  });
  const back = await fetch(chosen.headers.get('location'), { redirect: 'manual', headers: { cookie } });
  const landed = new URL(back.headers.get('location'));
  const code = landed.searchParams.get('code');
  if (!code) throw new Error(`sign-in failed: ${landed.href}`);
  const exchange = await fetch(`${api}/auth/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      redirect_uri: callback,
      code_verifier: verifier,
      code,
      grant_type: 'authorization_code',
      client_id: keys.projectId,
      client_secret: keys.publishableClientKey,
    }),
  });
  if (exchange.status !== 200) throw new Error(`exchange failed: ${exchange.status} ${await exchange.text()}`);
  await exchange.json();
  return performance.now() - started;
}

async function scenario(api, keys, concurrency, emailOf) {
  const durations = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < signIns) {
        const index = next++;
        durations.push(await signIn(api, keys, emailOf(index)));
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  durations.sort((a, b) => a - b);
  const at = (q) => durations[Math.min(durations.length - 1, Math.floor(q * durations.length))].toFixed(1);
  return [(signIns / seconds).toFixed(0), at(0.5), at(0.99)];
}

const rows = [];
await forEachBackend(server, testing, { databaseUrl, prefix: 'bench_oauth' }, async ({ backend, api, keys }) => {
  const returning = (index) => `returning-${index % 20}@example.com`;
  for (let i = 0; i < 20; i++) await signIn(api, keys, returning(i)); // connect them, and warm up
  const run = randomBytes(3).toString('hex');
  rows.push([backend, 'returning user, 1 at a time', ...(await scenario(api, keys, 1, returning))]);
  rows.push([backend, 'returning user, 10 at once', ...(await scenario(api, keys, 10, returning))]);
  rows.push([
    backend,
    'new user, 10 at once',
    ...(await scenario(api, keys, 10, (i) => `new-${run}-${i}@example.com`)),
  ]);
});

console.log('| backend | scenario | sign-ins/s | p50 ms | p99 ms |');
console.log('| --- | --- | --- | --- | --- |');
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
