#!/usr/bin/env node
/**
 * Memory of the service under a long, realistic load: does it hold steady?
 * The service runs in a child process of its own (`--expose-gc`, request log
 * off, as in bench/run.mjs) on PostgreSQL when one answers (`DATABASE_URL`,
 * default `postgres://postgres@127.0.0.1:5432/test`, in a fresh schema dropped
 * afterwards), else on PGlite. This process creates `BENCH_USERS` users with a
 * session each, then sends 100,000 requests, `BENCH_CONCURRENCY` at a time:
 *
 *   90 %   GET /users/me with the access token of a random user
 *   9.5 %  refresh (POST /auth/oauth/token) of a random user's session; the user
 *          goes on with the new access token
 *   0.5 %  password sign-in of one of 5 users (each makes a new session)
 *
 * After 10,000, 25,000, 50,000, 75,000 and 100,000 requests the load pauses,
 * the child collects garbage twice and reports `process.memoryUsage()`. The
 * issue's target (12): RSS after 100,000 within 10 % of RSS after 10,000.
 *
 *   npm run bench:memory                          (builds first)
 *   node bench/memory.mjs --pglite                (PGlite even when PostgreSQL answers)
 *   node bench/memory.mjs --heap-snapshots <dir>  (heap snapshots at 10,000 and 100,000, to diff in DevTools;
 *                                                 writing one raises the RSS measured after it)
 *
 *   BENCH_REQUESTS     requests in all (default 100000; the pauses scale with it)
 *   BENCH_USERS        users with a session (default 1000)
 *   BENCH_CONCURRENCY  requests in flight (default 10)
 *
 * Figures, not a test.
 */
import { fork } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeHeapSnapshot } from 'node:v8';
import { markdownTable } from './table.mjs';

const serverDist = new URL('../packages/server/dist/', import.meta.url);

if (process.argv[2] === '--service') await serveForBench(JSON.parse(process.argv[3]));
else await benchMemory();

/** The parent: picks the backend, starts the child, creates the users, drives the load, prints the table. */
async function benchMemory() {
  const total = Number(process.env.BENCH_REQUESTS || 100_000);
  const userCount = Number(process.env.BENCH_USERS || 1000);
  const concurrency = Number(process.env.BENCH_CONCURRENCY || 10);
  const databaseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
  const snapshotFlag = process.argv.indexOf('--heap-snapshots');
  const snapshotDir = snapshotFlag > 0 ? resolve(process.argv[snapshotFlag + 1] ?? '.') : null;
  const server = await import(new URL('index.js', serverDist).href).catch(() => {
    console.error('bench: packages/server is not built; run `npm run build` first (or `npm run bench:memory`).');
    process.exit(1);
  });
  const testing = await import(new URL('testing/index.js', serverDist).href);
  const postgres = !process.argv.includes('--pglite') && (await testing.isPostgresReachable(databaseUrl));
  const schema = `bench_memory_${randomBytes(4).toString('hex')}`;
  const dataDir = postgres ? null : await mkdtemp(join(tmpdir(), 'latchkey-bench-memory-'));
  const checkpoints = [0.1, 0.25, 0.5, 0.75, 1].map((share) => Math.round(total * share));

  console.log(
    `Latchkey service memory, ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ` +
      `${availableParallelism()} cores (${cpus()[0]?.model.trim()}), load average ${loadavg()[0].toFixed(2)}, ` +
      `${postgres ? 'PostgreSQL' : 'PGlite'}, ${userCount} users, ${concurrency} requests in flight\n`,
  );

  const child = fork(
    fileURLToPath(import.meta.url),
    ['--service', JSON.stringify({ databaseUrl, schema, dataDir, postgres })],
    {
      execArgv: ['--expose-gc'],
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    },
  );
  const exited = new Promise((resolve) => child.on('exit', resolve));
  const answer = (type) =>
    new Promise((resolve, reject) => {
      const onMessage = (message) => {
        if (message.type !== type) return;
        child.off('message', onMessage);
        resolve(message);
      };
      child.on('message', onMessage);
      exited.then((code) => reject(new Error(`the service exited (${code})`)));
    });
  const ask = (message) => {
    const answered = answer(message.type);
    child.send(message);
    return answered;
  };
  const ready = answer('ready');
  try {
    const { url, keys } = await ready;
    const api = `${url}/api/v1`;
    const load = await prepareLoad(api, keys, userCount);
    const rows = [];
    let done = 0;
    const started = performance.now();
    for (const checkpoint of checkpoints) {
      await drive(load, done, checkpoint, concurrency);
      done = checkpoint;
      const elapsed = (performance.now() - started) / 1000;
      const snapshot = snapshotDir && (checkpoint === checkpoints[0] || checkpoint === total);
      const { memory } = await ask({ type: 'measure', snapshot: snapshot ? snapshotDir : null });
      rows.push({ requests: checkpoint, elapsed, memory });
      console.error(`  ${checkpoint} requests, RSS ${mb(memory.rss)}, heap used ${mb(memory.heapUsed)}`);
    }
    printResults(rows, load.failures);
  } finally {
    child.send({ type: 'stop' });
    await exited;
    if (postgres) await testing.dropSchema(await server.openStorage({ databaseUrl, schema }));
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  }
}

/** Users with a session each, 5 of them with a password; the request mix over them. */
async function prepareLoad(api, keys, userCount) {
  const client = {
    'x-stack-project-id': keys.projectId,
    'x-stack-access-type': 'client',
    'x-stack-publishable-client-key': keys.publishableClientKey,
  };
  const serverHeaders = {
    'x-stack-project-id': keys.projectId,
    'x-stack-access-type': 'server',
    'x-stack-secret-server-key': keys.secretServerKey,
    'content-type': 'application/json',
  };
  const password = 'memory bench password 1234';
  const users = [];
  const signInEmails = [];
  const run = `${randomBytes(3).toString('hex')}`;
  await inParallel(userCount, 10, async (i) => {
    const email = `memory-${run}-${i}@example.com`;
    const withPassword = i < 5;
    const user = await expectJson(
      fetch(`${api}/users`, {
        method: 'POST',
        headers: serverHeaders,
        body: JSON.stringify({
          primary_email: email,
          primary_email_auth_enabled: withPassword,
          ...(withPassword ? { password } : {}),
        }),
      }),
      'create a user',
    );
    const tokens = await expectJson(
      fetch(`${api}/auth/sessions`, {
        method: 'POST',
        headers: serverHeaders,
        body: JSON.stringify({ user_id: user.id }),
      }),
      'open a session',
    );
    users[i] = { accessToken: tokens.access_token, refreshToken: tokens.refresh_token };
    if (withPassword) signInEmails.push(email);
  });
  let seed = 0x2545f491;
  const random = () => {
    // xorshift32: the same mix on every run.
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    return (seed >>> 0) / 2 ** 32;
  };
  const failures = { 'users/me': 0, refresh: 0, 'sign-in': 0 };
  const request = async () => {
    const dice = random();
    const user = users[Math.floor(random() * users.length)];
    if (dice < 0.9) {
      const response = await fetch(`${api}/users/me`, {
        headers: { ...client, 'x-stack-access-token': user.accessToken },
      });
      await response.arrayBuffer();
      if (response.status !== 200) failures['users/me']++;
    } else if (dice < 0.995) {
      const response = await fetch(`${api}/auth/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: user.refreshToken,
          client_id: keys.projectId,
          client_secret: keys.publishableClientKey,
        }).toString(),
      });
      const body = await response.json().catch(() => null);
      if (response.status === 200 && body?.access_token) user.accessToken = body.access_token;
      else failures.refresh++;
    } else {
      const email = signInEmails[Math.floor(random() * signInEmails.length)];
      const response = await fetch(`${api}/auth/password/sign-in`, {
        method: 'POST',
        headers: { ...client, 'content-type': 'application/json' },
        body: JSON.stringify({ email, password }),
      });
      await response.arrayBuffer();
      if (response.status !== 200) failures['sign-in']++;
    }
  };
  return { request, failures };
}

/** Requests `from` up to `to`, `concurrency` at a time. */
async function drive(load, from, to, concurrency) {
  await inParallel(to - from, concurrency, () => load.request());
}

async function inParallel(count, width, task) {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) await task(i);
  };
  await Promise.all(Array.from({ length: Math.min(width, count) }, worker));
}

async function expectJson(pending, what) {
  const response = await pending;
  const body = await response.json().catch(() => null);
  if (!response.ok) throw new Error(`bench: cannot ${what}: ${response.status} ${JSON.stringify(body)}`);
  return body;
}

function printResults(rows, failures) {
  const [first] = rows;
  const growth = (row, key) => `${(((row.memory[key] - first.memory[key]) / first.memory[key]) * 100).toFixed(1)} %`;
  console.log(
    markdownTable(
      ['requests', 'RSS', 'vs first', 'heap used', 'vs first', 'external', 'array buffers', 'req/s so far'],
      rows.map((row) => [
        row.requests.toLocaleString('en-US'),
        mb(row.memory.rss),
        growth(row, 'rss'),
        mb(row.memory.heapUsed),
        growth(row, 'heapUsed'),
        mb(row.memory.external),
        mb(row.memory.arrayBuffers),
        Math.round(row.requests / row.elapsed),
      ]),
      1,
    ).join('\n'),
  );
  const failed = Object.entries(failures).filter(([, count]) => count > 0);
  console.log(
    `\nFailed requests: ${failed.length === 0 ? 'none' : failed.map(([kind, count]) => `${kind} ${count}`).join(', ')}. ` +
      'Memory after two full garbage collections in the service process.',
  );
}

function mb(bytes) {
  return `${(bytes / 2 ** 20).toFixed(1)} MB`;
}

/** The child: the service alone in its process, answering `ready`, `measure` and `stop` over IPC. */
async function serveForBench({ databaseUrl, schema, dataDir, postgres }) {
  const server = await import(new URL('index.js', serverDist).href);
  const storage = await server.openStorage(postgres ? { databaseUrl, schema } : { dataDir });
  const keys = await server.bootstrap(storage, { dev: true });
  const service = server.createService({ storage, secret: randomBytes(32).toString('base64url'), logger: false });
  const listening = await server.startServer({ service, port: 0, host: '127.0.0.1' });
  process.on('message', async (message) => {
    if (message.type === 'measure') {
      for (let i = 0; i < 2; i++) {
        globalThis.gc?.();
        await new Promise((resolve) => setImmediate(resolve));
      }
      if (message.snapshot) {
        const file = writeHeapSnapshot(join(message.snapshot, `latchkey-memory-${Date.now()}.heapsnapshot`));
        console.error(`  heap snapshot: ${file}`);
      }
      process.send({ type: 'measure', memory: process.memoryUsage() });
    }
    if (message.type === 'stop') {
      await listening.close();
      await storage.close();
      process.disconnect();
    }
  });
  process.send({ type: 'ready', url: listening.url, keys });
}
