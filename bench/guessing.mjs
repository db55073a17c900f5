#!/usr/bin/env node
/**
 * Password guessing against `POST /auth/password/sign-in`, and what it costs
 * everybody else:
 *
 * - one client guessing one account's password as fast as it can: answers per
 *   second, and how many were guesses the service checked (an
 *   `EMAIL_PASSWORD_MISMATCH`) rather than refused at once (429);
 * - 32 clients guessing 32 accounts, from as many addresses (the bench sets a
 *   trusted proxy header so each client has its own), while a legitimate user
 *   signs in one time after another: that user's p50 and p99.
 *
 *   npm run build && node bench/guessing.mjs
 *
 * Figures, not a test. `BENCH_DURATION` (s per scenario, default 5);
 * `BENCH_HASHING_SLOTS` sets `hashingSlots` (default: the service's).
 */
import { cpus, loadavg } from 'node:os';
import autocannon from 'autocannon';
import { forEachBackend } from './backends.mjs';

const duration = Number(process.env.BENCH_DURATION || 5);
const databaseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const server = await import('../packages/server/dist/index.js').catch(() => {
  console.error('bench: packages/server is not built; run `npm run build` first.');
  process.exit(1);
});
const testing = await import('../packages/server/dist/testing/index.js');

console.log(
  `Latchkey password guessing, ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ` +
    `${cpus().length} cores, load average ${loadavg()[0].toFixed(2)}, ${duration} s per scenario\n`,
);

const headersOf = (keys, ip) => ({
  'content-type': 'application/json',
  'x-stack-project-id': keys.projectId,
  'x-stack-access-type': 'client',
  'x-stack-publishable-client-key': keys.publishableClientKey,
  'x-forwarded-for': ip,
});

async function signUp(api, keys, email) {
  const answer = await fetch(`${api}/auth/password/sign-up`, {
    method: 'POST',
    headers: headersOf(keys, '10.9.9.9'),
    body: JSON.stringify({ email, password: 'correct-horse-1' }),
  });
  if (answer.status !== 200) throw new Error(`sign-up failed: ${answer.status} ${await answer.text()}`);
}

function guess(api, keys, { connections, accounts }) {
  return new Promise((resolve, reject) => {
    let n = 0;
    const instance = autocannon(
      {
        url: `${api}/auth/password/sign-in`,
        connections,
        duration,
        requests: [
          {
            method: 'POST',
            setupRequest: (request) => {
              const i = n++ % accounts.length;
              return {
                ...request,
                headers: headersOf(keys, `10.0.${Math.floor(i / 250)}.${i % 250}`),
                body: JSON.stringify({ email: accounts[i], password: `wrong-${n}` }),
              };
            },
          },
        ],
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
    autocannon.track(instance, { renderProgressBar: false, renderResultsTable: false });
  });
}

const rows = [];
const serviceOptions = {
  trustedProxyHeader: 'x-forwarded-for',
  ...(process.env.BENCH_HASHING_SLOTS ? { hashingSlots: Number(process.env.BENCH_HASHING_SLOTS) } : {}),
};
await forEachBackend(
  server,
  testing,
  { databaseUrl, prefix: 'bench_guess', serviceOptions },
  async ({ backend, api, keys }) => {
    const accounts = Array.from({ length: 32 }, (_, i) => `victim-${i}-${Date.now()}@example.com`);
    for (const email of accounts) await signUp(api, keys, email);
    const legit = `legit-${Date.now()}@example.com`;
    await signUp(api, keys, legit);

    const single = await guess(api, keys, { connections: 1, accounts: accounts.slice(0, 1) });
    const checked = single['2xx'] + single.non2xx - (single.statusCodeStats?.['429']?.count ?? 0);
    rows.push([
      backend,
      'one client, one account',
      (single.requests.total / duration).toFixed(0),
      (checked / duration).toFixed(0),
      '',
      '',
    ]);

    const latencies = [];
    let stop = false;
    const legitLoop = (async () => {
      while (!stop) {
        const started = performance.now();
        const answer = await fetch(`${api}/auth/password/sign-in`, {
          method: 'POST',
          headers: headersOf(keys, '10.8.8.8'),
          body: JSON.stringify({ email: legit, password: 'correct-horse-1' }),
        });
        await answer.text();
        if (answer.status === 200) latencies.push(performance.now() - started);
      }
    })();
    const crowd = await guess(api, keys, { connections: 32, accounts });
    stop = true;
    await legitLoop;
    latencies.sort((a, b) => a - b);
    const at = (q) =>
      latencies.length ? latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))].toFixed(0) : '-';
    const crowdChecked = crowd['2xx'] + crowd.non2xx - (crowd.statusCodeStats?.['429']?.count ?? 0);
    rows.push([
      backend,
      '32 clients, 32 accounts; a legitimate sign-in beside',
      (crowd.requests.total / duration).toFixed(0),
      (crowdChecked / duration).toFixed(0),
      at(0.5),
      at(0.99),
    ]);
  },
);

console.log('| backend | scenario | answers/s | guesses checked/s | legitimate p50 ms | legitimate p99 ms |');
console.log('| --- | --- | --- | --- | --- | --- |');
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
