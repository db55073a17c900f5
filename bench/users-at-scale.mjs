#!/usr/bin/env node
/**
 * Users at scale: `GET /users` with a million users on PostgreSQL. Seeds the
 * users in bulk with SQL (not through the API), then measures the first page,
 * a page deep in the list (by its cursor), a substring search, and
 * `GET /users/{id}` with a server key beside `GET /users/me`.
 *
 *   npm run build && node bench/users-at-scale.mjs
 *   BENCH_USERS=100000 BENCH_DURATION=3 node bench/users-at-scale.mjs
 *
 * Figures, not a test: it prints a Markdown table.
 */
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import autocannon from 'autocannon';
import pg from 'pg';
import { seedUsers } from './seed-users.mjs';

const users = Number(process.env.BENCH_USERS || 1_000_000);
const duration = Number(process.env.BENCH_DURATION || 5);
const connections = Number(process.env.BENCH_CONNECTIONS || 10);
const databaseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';

const server = await import('../packages/server/dist/index.js').catch(() => {
  console.error('bench: packages/server is not built; run `npm run build` first.');
  process.exit(1);
});
const testing = await import('../packages/server/dist/testing/index.js');

if (!(await testing.isPostgresReachable(databaseUrl))) {
  console.error(`bench: no PostgreSQL answers at ${databaseUrl}; this bench needs one.`);
  process.exit(1);
}

console.log(
  `Latchkey users at scale, ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ` +
    `${cpus().length} cores, load average ${loadavg()[0].toFixed(2)}, ${users.toLocaleString('en')} users, ` +
    `${connections} connections, ${duration} s per scenario\n`,
);

const schema = `bench_users_${randomBytes(4).toString('hex')}`;
const storage = await server.openStorage({ databaseUrl, schema });
try {
  const keys = await server.bootstrap(storage, { dev: true });
  await seedUsers({ databaseUrl, schema, projectId: keys.projectId, count: users });
  const service = server.createService({
    storage,
    secret: randomBytes(32).toString('base64url'),
    logger: false,
    attemptLimits: false,
  });
  const listening = await server.startServer({ service, port: 0, host: '127.0.0.1' });
  try {
    const base = `${listening.url}/api/v1`;
    const serverHeaders = {
      'x-stack-project-id': keys.projectId,
      'x-stack-access-type': 'server',
      'x-stack-secret-server-key': keys.secretServerKey,
    };
    const get = async (path, headers = serverHeaders) => {
      const response = await fetch(`${base}${path}`, { headers });
      const body = await response.json();
      if (!response.ok) throw new Error(`${path}: ${response.status} ${JSON.stringify(body)}`);
      return body;
    };
    // A cursor deep in the list: the page that starts at the user 90% of the way in.
    const deepUser = await nthUserId(keys.projectId, Math.floor(users * 0.9));
    const deepCursor = (await get(`/users?limit=1&cursor=${deepUser}`)).pagination.next_cursor;
    const someone = await nthUserId(keys.projectId, Math.floor(users / 2));
    const signUp = await fetch(`${base}/auth/password/sign-up`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-stack-project-id': keys.projectId,
        'x-stack-access-type': 'client',
        'x-stack-publishable-client-key': keys.publishableClientKey,
      },
      body: JSON.stringify({ email: 'bench-me@example.com', password: 'bench password 1234' }),
    });
    const tokens = await signUp.json();
    const clientHeaders = {
      'x-stack-project-id': keys.projectId,
      'x-stack-access-type': 'client',
      'x-stack-publishable-client-key': keys.publishableClientKey,
    };

    const scenarios = [
      ['GET /users?limit=100 (first page)', '/users?limit=100', serverHeaders],
      ['GET /users?limit=100 (page at 90%)', `/users?limit=100&cursor=${deepCursor}`, serverHeaders],
      ['GET /users?limit=100&desc=true', '/users?limit=100&desc=true', serverHeaders],
      ['GET /users?query=user12345 (search)', '/users?limit=100&query=user12345', serverHeaders],
      ['GET /users?query=4242@exam (search)', '/users?limit=100&query=4242%40exam', serverHeaders],
      ['GET /users/{id} (server key)', `/users/${someone}`, serverHeaders],
      [
        'GET /users/me (client)',
        '/users/me',
        {
          'x-stack-project-id': keys.projectId,
          'x-stack-access-type': 'client',
          'x-stack-publishable-client-key': keys.publishableClientKey,
          'x-stack-access-token': tokens.access_token,
          'x-stack-refresh-token': tokens.refresh_token,
        },
      ],
    ];
    // Writes and password checks at scale too: the sign-in lookup goes through the channels' index.
    const posts = [
      [
        'POST /auth/password/sign-in',
        '/auth/password/sign-in',
        { ...clientHeaders, 'content-type': 'application/json' },
        JSON.stringify({ email: 'bench-me@example.com', password: 'bench password 1234' }),
      ],
      [
        'POST /auth/oauth/token (refresh)',
        '/auth/oauth/token',
        { 'content-type': 'application/x-www-form-urlencoded' },
        new URLSearchParams({
          grant_type: 'refresh_token',
          refresh_token: tokens.refresh_token,
          client_id: keys.projectId,
          client_secret: keys.publishableClientKey,
        }).toString(),
      ],
    ];
    const rows = [];
    for (const [name, path, headers, body] of [...posts, ...scenarios]) {
      // A GET is tried once first (it must answer), and its page size shown.
      const first = body ? null : await get(path, headers);
      const items = Array.isArray(first?.items) ? first.items.length : 1;
      const request = body ? { method: 'POST', body } : {};
      const result = await autocannon({
        url: `${base}${path}`,
        headers,
        ...request,
        connections,
        duration,
        workers: 1,
      });
      rows.push([
        name,
        items,
        Math.round(result.requests.average),
        result.latency.p50,
        result.latency.p99,
        result.non2xx,
        result.errors + result.timeouts,
      ]);
      console.error(`  ${name}: p50 ${result.latency.p50} ms`);
    }
    printTable(['scenario', 'items', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors'], rows);
  } finally {
    await listening.close();
  }
} finally {
  await testing.dropSchema(storage);
}

/** The id of the project's n-th user in sign-up order. */
async function nthUserId(projectId, n) {
  const client = new pg.Client({ connectionString: databaseUrl, options: `-c search_path=${schema}` });
  await client.connect();
  try {
    const { rows } = await client.query(
      'SELECT id FROM users WHERE project_id = $1 ORDER BY signed_up_at, id OFFSET $2 LIMIT 1',
      [projectId, n],
    );
    return rows[0].id;
  } finally {
    await client.end();
  }
}

function printTable(header, rows) {
  const table = [header, ...rows].map((row) => row.map(String));
  const widths = header.map((_, i) => Math.max(...table.map((row) => row[i].length)));
  const cells = (row) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i])));
  console.log(`| ${cells(table[0]).join(' | ')} |`);
  console.log(`| ${widths.map((w, i) => (i === 0 ? '-'.repeat(w) : `${'-'.repeat(w - 1)}:`)).join(' | ')} |`);
  for (const row of table.slice(1)) console.log(`| ${cells(row).join(' | ')} |`);
}
