#!/usr/bin/env node
/**
 * Webhook delivery, end to end over HTTP: endpoints registered through the
 * admin routes, users created with `POST /users` (server key), each one a
 * `user.created` message per subscribed endpoint, POSTed by the service's
 * own worker to a receiver on loopback (node:http) that answers 204 at once.
 *
 * - Delivered per s: a backlog of `BENCH_MESSAGES` messages per endpoint is
 *   queued while the receiver holds the first request of each endpoint
 *   unanswered (an endpoint gets one message at a time, so the rest wait);
 *   the clock runs from releasing it to the last receipt.
 * - Commit to receipt: one user at a time, from the event's `timestamp`
 *   (taken in the transaction, just before it commits; same process, same
 *   clock) to the receiver reading the request.
 * - `POST /users` one at a time, with no endpoint and with three subscribed
 *   (their deliveries running meanwhile).
 *
 * Runs on PGlite and, when one answers (`DATABASE_URL`, default
 * `postgres://postgres@127.0.0.1:5432/test`), on PostgreSQL.
 *
 *   npm run bench:webhooks
 *
 * Figures, not a test: it prints a Markdown table.
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { forEachBackend } from './backends.mjs';

const backlog = Number(process.env.BENCH_MESSAGES || 300);
const samples = Number(process.env.BENCH_SAMPLES || 200);
const databaseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const server = await import('../packages/server/dist/index.js').catch(() => {
  console.error('bench: packages/server is not built; run `npm run build` first (or `npm run bench:webhooks`).');
  process.exit(1);
});
const testing = await import('../packages/server/dist/testing/index.js');

console.log(
  `Latchkey webhook delivery, ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ` +
    `${cpus().length} cores, load average ${loadavg()[0].toFixed(2)}, a backlog of ${backlog} messages per ` +
    `endpoint, ${samples} samples per latency\n`,
);

/** Sends `body` as JSON; answers the parsed body, throwing on any status but `expected`. */
async function send(method, url, headers, body, expected = 200) {
  const answer = await fetch(url, {
    method,
    headers: { 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await answer.text();
  if (answer.status !== expected) throw new Error(`${method} ${url}: ${answer.status} ${text}`);
  return text ? JSON.parse(text) : null;
}

/** p50 and p99 of `durations` (ms). */
function quantiles(durations) {
  const sorted = [...durations].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))].toFixed(1);
  return [at(0.5), at(0.99)];
}

/**
 * A receiver on loopback: counts requests, notes each one's arrival (epoch
 * ms) with its body, and answers 204; while `hold` is on, it keeps the first
 * request of each path unanswered until `release`.
 */
async function startReceiver() {
  const arrivals = [];
  const waiters = [];
  const held = new Map();
  let holding = false;
  const http = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const at = Date.now();
      const answer = () => response.writeHead(204).end();
      if (holding && !held.has(request.url)) held.set(request.url, answer);
      else answer();
      arrivals.push({ at, path: request.url, body: Buffer.concat(chunks).toString('utf8') });
      for (const waiter of [...waiters]) {
        if (arrivals.length >= waiter.count) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve();
        }
      }
    });
  });
  http.keepAliveTimeout = 30_000;
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${http.address().port}`,
    arrivals,
    hold() {
      holding = true;
    },
    release() {
      holding = false;
      for (const answer of held.values()) answer();
      held.clear();
    },
    /** Resolves once `count` requests have arrived in all. */
    until(count) {
      if (arrivals.length >= count) return Promise.resolve();
      return new Promise((resolve) => waiters.push({ count, resolve }));
    },
    close: () =>
      new Promise((resolve) => {
        http.closeAllConnections();
        http.close(resolve);
      }),
  };
}

const receiver = await startReceiver();
const rows = [];
await forEachBackend(
  server,
  testing,
  { databaseUrl, prefix: 'bench_webhooks', serviceOptions: { allowPrivateNetwork: true } },
  async ({ backend, api, keys }) => {
    const serverKey = {
      'x-stack-project-id': keys.projectId,
      'x-stack-access-type': 'server',
      'x-stack-secret-server-key': keys.secretServerKey,
    };
    const admin = {
      'x-stack-project-id': keys.projectId,
      'x-stack-access-type': 'admin',
      'x-stack-super-secret-admin-key': keys.superSecretAdminKey,
    };
    const run = randomBytes(3).toString('hex');
    let made = 0;
    const newUser = () =>
      send('POST', `${api}/users`, serverKey, { primary_email: `hook-${run}-${made++}@example.com` }, 201);
    /** `count` endpoints subscribed to `user.created`, each on its own path; answers their ids. */
    const addEndpoints = async (count) => {
      const ids = [];
      for (let i = 0; i < count; i++) {
        const path = `/${backend}-${run}-${randomBytes(3).toString('hex')}`;
        const body = { url: `${receiver.url}${path}`, event_types: ['user.created'] };
        ids.push((await send('POST', `${api}/webhooks/endpoints`, admin, body)).id);
      }
      return ids;
    };
    const removeEndpoints = async (ids) => {
      for (const id of ids) await send('DELETE', `${api}/webhooks/endpoints/${id}`, admin);
    };

    // Warm up: the routes, the worker's statements, the receiver's connections.
    const warm = await addEndpoints(1);
    for (let i = 0; i < 20; i++) await newUser();
    await receiver.until(20);
    await removeEndpoints(warm);

    for (const count of [1, 3]) {
      const ids = await addEndpoints(count);
      const before = receiver.arrivals.length;
      receiver.hold();
      let next = 0;
      await Promise.all(
        Array.from({ length: 10 }, async () => {
          while (next++ < backlog) await newUser();
        }),
      );
      const total = backlog * count;
      const started = performance.now();
      receiver.release();
      await receiver.until(before + total);
      const seconds = (performance.now() - started) / 1000;
      rows.push([
        backend,
        `delivered, ${count} endpoint${count > 1 ? 's' : ''}, ${total} messages`,
        (total / seconds).toFixed(0),
        '',
        '',
      ]);
      await removeEndpoints(ids);
    }

    const latency = await addEndpoints(1);
    const delays = [];
    for (let i = 0; i < samples; i++) {
      const seen = receiver.arrivals.length;
      await newUser();
      await receiver.until(seen + 1);
      const got = receiver.arrivals[seen];
      delays.push(got.at - Date.parse(JSON.parse(got.body).timestamp));
    }
    rows.push([backend, 'commit to receipt, 1 endpoint', '', ...quantiles(delays)]);
    await removeEndpoints(latency);

    for (const count of [0, 3]) {
      const ids = await addEndpoints(count);
      const before = receiver.arrivals.length;
      const durations = [];
      for (let i = 0; i < samples; i++) {
        const began = performance.now();
        await newUser();
        durations.push(performance.now() - began);
      }
      await receiver.until(before + samples * count);
      rows.push([backend, `POST /users, ${count} endpoints subscribed`, '', ...quantiles(durations)]);
      await removeEndpoints(ids);
    }
  },
);
await receiver.close();

console.log('| backend | scenario | messages/s | p50 ms | p99 ms |');
console.log('| --- | --- | --- | --- | --- |');
for (const row of rows) console.log(`| ${row.join(' | ')} |`);
