// Latchkey benchmarks: HTTP throughput and latency of the hot auth paths on each
// storage backend, and the min+gzip size of the browser entries. Not a test:
// it reports figures. Run `npm run bench` (builds first) or `node bench/run.mjs`.
// With `--peers` (`npm run bench -- --peers`) it runs bench/side-by-side.mjs instead:
// Latchkey and Better Auth under the same load, with the machine's floors.
//
//   BENCH_DURATION     seconds per scenario (default 5)
//   BENCH_CONNECTIONS  concurrent connections (default 10)
//   BENCH_ROUNDS       --peers: interleaved rounds per scenario (default 2)
//   BENCH_SIGN_OUTS    --peers: requests per sign-out run, each ending a session of its own (default 3000)
//   BENCH_REQUEST_LOG  0 runs the service without its request log (default: on, to /dev/null)
//   DATABASE_URL       PostgreSQL to use (default postgres://postgres@127.0.0.1:5432/test,
//                      skipped when unreachable; required by --peers)
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { availableParallelism, cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import autocannon from 'autocannon';
import { build } from 'esbuild';
import { benchLogger } from './request-log.mjs';
import { markdownTable } from './table.mjs';

const duration = Number(process.env.BENCH_DURATION || 5);
const connections = Number(process.env.BENCH_CONNECTIONS || 10);
const databaseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const root = fileURLToPath(new URL('..', import.meta.url));
const server = await import('../packages/server/dist/index.js').catch(() => {
  console.error('bench: packages/server is not built; run `npm run build` first (or `npm run bench`).');
  process.exit(1);
});
const testing = await import('../packages/server/dist/testing/index.js');

if (process.argv.includes('--peers')) {
  const { sideBySide } = await import('./side-by-side.mjs');
  await sideBySide({
    server,
    testing,
    databaseUrl,
    duration,
    connections,
    rounds: Number(process.env.BENCH_ROUNDS || 2),
    signOuts: Number(process.env.BENCH_SIGN_OUTS || 3000),
  });
} else {
  await benchBackendsAndBundles();
}

async function benchBackendsAndBundles() {
  const { caption } = await benchLogger();
  console.log(
    `Latchkey bench, ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ` +
      `${availableParallelism()} cores (${cpus()[0]?.model.trim()}), load average ${loadavg()[0].toFixed(2)}, ` +
      `${connections} connections, ${duration} s per scenario, ${caption}\n`,
  );
  const rows = [];
  for (const backend of await backends()) {
    try {
      rows.push(...(await benchBackend(backend)));
    } catch (error) {
      console.error(`bench: ${backend.name} failed:`, error);
      process.exitCode = 1;
    } finally {
      await backend.dispose?.();
    }
  }
  printTable(
    ['backend', 'scenario', 'req/s', 'p50 ms', 'p99 ms', 'event-loop delay p99 ms', 'non-2xx', 'errors'],
    rows.map((r) => [r.backend, r.scenario, r.rps, r.p50, r.p99, r.loopP99, r.non2xx, r.errors]),
  );
  console.log('\nBrowser bundles (esbuild: bundle, minify, platform browser, esm, conditions [source]; gzip -9)\n');
  printTable(['entry', 'min', 'min+gzip'], await bundleSizes(), 1);
}

/** PGlite always; PostgreSQL when reachable, in a fresh schema dropped afterwards. */
async function backends() {
  const list = [];
  const dir = await mkdtemp(join(tmpdir(), 'latchkey-bench-'));
  list.push({
    name: 'pglite',
    open: () => server.openStorage({ dataDir: dir }),
    dispose: () => rm(dir, { recursive: true, force: true }),
  });
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  try {
    const probe = await server.openStorage({ databaseUrl, schema });
    list.push({ name: 'postgres', open: async () => probe, dispose: () => dropSchema(schema) });
  } catch (error) {
    console.error(
      `bench: PostgreSQL at ${redact(databaseUrl)} not reachable, skipped (${error.code ?? error.message})\n`,
    );
  }
  return list;
}

async function dropSchema(schema) {
  await testing.dropSchema(await server.openStorage({ databaseUrl, schema }));
}

async function benchBackend(backend) {
  const storage = await backend.open();
  const keys = await server.bootstrap(storage, { dev: true });
  const { logger } = await benchLogger();
  const service = server.createService({ storage, secret: randomBytes(32).toString('base64url'), logger });
  const listening = await server.startServer({ service, port: 0, host: '127.0.0.1' });
  try {
    const url = new URL(listening.url).origin;
    const client = {
      'x-stack-project-id': keys.projectId,
      'x-stack-access-type': 'client',
      'x-stack-publishable-client-key': keys.publishableClientKey,
    };
    const email = 'bench@example.com';
    const password = 'bench password 1234';
    const signUp = await post(`${url}/api/v1/auth/password/sign-up`, client, { email, password });
    const tokens = await signUp.json();
    if (!signUp.ok) throw new Error(`sign-up failed: ${signUp.status} ${JSON.stringify(tokens)}`);

    const json = { ...client, 'content-type': 'application/json' };
    const scenarios = [
      {
        scenario: 'sign-in',
        method: 'POST',
        path: '/api/v1/auth/password/sign-in',
        headers: json,
        body: JSON.stringify({ email, password }),
      },
      {
        scenario: 'refresh',
        method: 'POST',
        path: '/api/v1/auth/oauth/token',
        headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' },
        body: new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token,
          client_id: keys.projectId,
          client_secret: keys.publishableClientKey,
        }).toString(),
      },
      {
        scenario: 'GET users/me',
        method: 'GET',
        path: '/api/v1/users/me',
        headers: {
          ...client,
          'x-stack-access-token': tokens.access_token,
          'x-stack-refresh-token': tokens.refresh_token,
        },
      },
    ];
    const results = [];
    for (const { scenario, path, ...request } of scenarios) {
      // The service shares this thread (autocannon runs in a worker): its event-loop delay is the service's.
      const loop = monitorEventLoopDelay({ resolution: 10 });
      loop.enable();
      const result = await autocannon({ url: `${url}${path}`, ...request, connections, duration, workers: 1 });
      loop.disable();
      results.push({
        loopP99: Math.round(loop.percentile(99) / 1e5) / 10,
        backend: backend.name,
        scenario,
        rps: Math.round(result.requests.average),
        p50: result.latency.p50,
        p99: result.latency.p99,
        non2xx: result.non2xx,
        errors: result.errors + result.timeouts,
      });
      console.error(`  ${backend.name} ${scenario}: ${Math.round(result.requests.average)} req/s`);
    }
    return results;
  } finally {
    await listening.close();
    await storage.close();
  }
}

function post(url, headers, body) {
  return fetch(url, {
    method: 'POST',
    headers: { ...headers, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
}

async function bundleSizes() {
  const external = ['react', 'react-dom', 'react/jsx-runtime'];
  const entries = [
    ['@latchkey/js', 'packages/js/src/index.ts', []],
    [
      '@latchkey/react (js, protocol external)',
      'packages/react/src/index.ts',
      [...external, '@latchkey/js', '@latchkey/protocol'],
    ],
    ['@latchkey/react + js + protocol', 'packages/react/src/index.ts', external],
  ];
  const rows = [];
  for (const [name, entry, externals] of entries) {
    try {
      const out = await build({
        entryPoints: [join(root, entry)],
        bundle: true,
        minify: true,
        platform: 'browser',
        format: 'esm',
        conditions: ['source'],
        external: externals,
        outdir: 'out',
        write: false,
        logLevel: 'silent',
      });
      const code = out.outputFiles.find((file) => file.path.endsWith('.js')).contents;
      rows.push([name, kb(code.length), kb(gzipSync(code, { level: 9 }).length)]);
    } catch (error) {
      rows.push([name, 'n/a', `(${error.errors?.[0]?.text ?? error.message})`]);
    }
  }
  return rows;
}

function kb(bytes) {
  return `${(bytes / 1024).toFixed(1)} kB`;
}

function printTable(header, rows, labels = 2) {
  console.log(markdownTable(header, rows, labels).join('\n'));
}

function redact(url) {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return url;
  }
}
