#!/usr/bin/env node
/**
 * Team permissions: `GET /team-permissions?recursive=true` for a member
 * holding 10 permissions in a 6-level hierarchy of 200 definitions (each
 * definition contains two of the level below), beside `recursive=false` and
 * the `GET /users/me` of the same member with a team selected. Definitions
 * and grants are made through the API. Runs on PostgreSQL when one answers
 * (`DATABASE_URL`, default `postgres://postgres@127.0.0.1:5432/test`), and on
 * PGlite.
 *
 *   npm run build && node bench/permissions.mjs
 *
 * Figures, not a test: it prints a Markdown table.
 */
import { randomBytes } from 'node:crypto';
import { cpus, loadavg } from 'node:os';
import autocannon from 'autocannon';
import { forEachBackend } from './backends.mjs';

const duration = Number(process.env.BENCH_DURATION || 5);
const connections = Number(process.env.BENCH_CONNECTIONS || 10);
const databaseUrl = process.env.DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test';
const levels = 6;
const definitionsCount = 200;
const heldCount = 10;

const server = await import('../packages/server/dist/index.js').catch(() => {
  console.error('bench: packages/server is not built; run `npm run build` first.');
  process.exit(1);
});
const testing = await import('../packages/server/dist/testing/index.js');

console.log(
  `Latchkey team permissions, ${new Date().toISOString().slice(0, 10)}, Node ${process.version}, ` +
    `${cpus().length} cores, load average ${loadavg()[0].toFixed(2)}, ${definitionsCount} definitions in ${levels} levels, ` +
    `${heldCount} held, ${connections} connections, ${duration} s per scenario\n`,
);

const rows = [];
await forEachBackend(
  server,
  testing,
  { databaseUrl, prefix: 'bench_permissions' },
  async ({ backend, api, keys, schema, url }) => {
    for (const row of await measure(api, keys)) rows.push([backend, ...row]);
    if (url) await explain(url, schema);
  },
);
printTable(['backend', 'scenario', 'items', 'req/s', 'p50 ms', 'p99 ms', 'non-2xx', 'errors'], rows);

async function measure(base, keys) {
  const headersOf = (accessType) => ({
    'content-type': 'application/json',
    'x-stack-project-id': keys.projectId,
    'x-stack-access-type': accessType,
    'x-stack-publishable-client-key': keys.publishableClientKey,
    ...(accessType === 'client' ? {} : { 'x-stack-secret-server-key': keys.secretServerKey }),
    ...(accessType === 'admin' ? { 'x-stack-super-secret-admin-key': keys.superSecretAdminKey } : {}),
  });
  const send = async (method, path, accessType, body, extra = {}) => {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { ...headersOf(accessType), ...extra },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const answer = await response.json();
    if (!response.ok || response.headers.get('x-stack-known-error')) {
      throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(answer)}`);
    }
    return answer;
  };

  // 200 definitions in 6 levels; each contains two of the level below (level 0 contains a system permission).
  const perLevel = Math.ceil(definitionsCount / levels);
  const byLevel = [];
  for (let level = 0; level < levels; level++) {
    byLevel.push([]);
    for (let index = 0; index < perLevel && level * perLevel + index < definitionsCount; index++) {
      const id = `l${level}_p${index}`;
      const below =
        level === 0
          ? ['$read_members']
          : [0, 1].map((k) => byLevel[level - 1][(index + k) % byLevel[level - 1].length]);
      await send('POST', '/team-permission-definitions', 'admin', { id, contained_permission_ids: below });
      byLevel[level].push(id);
    }
  }
  const signUp = await send('POST', '/auth/password/sign-up', 'client', {
    email: `bench-${randomBytes(4).toString('hex')}@example.com`,
    password: 'bench password 1234',
  });
  const userHeaders = {
    'x-stack-access-token': signUp.access_token,
    'x-stack-refresh-token': signUp.refresh_token,
  };
  const team = await send('POST', '/teams', 'server', { display_name: 'Bench', creator_user_id: signUp.user_id });
  const top = byLevel[levels - 1];
  for (const id of top.slice(0, heldCount)) {
    await send('POST', `/team-permissions/${team.id}/${signUp.user_id}/${id}`, 'server', {});
  }
  await send('PATCH', '/users/me', 'client', { selected_team_id: team.id }, userHeaders);

  const scenarios = [
    ['GET /team-permissions recursive=true', `/team-permissions?team_id=${team.id}&user_id=me&recursive=true`],
    ['GET /team-permissions recursive=false', `/team-permissions?team_id=${team.id}&user_id=me&recursive=false`],
    ['GET /users/me (team selected)', '/users/me'],
  ];
  const results = [];
  for (const [name, path] of scenarios) {
    const headers = { ...headersOf('client'), ...userHeaders };
    const first = await send('GET', path, 'client', undefined, userHeaders);
    const items = Array.isArray(first.items) ? first.items.length : 1;
    const result = await autocannon({ url: `${base}${path}`, headers, connections, duration, workers: 1 });
    results.push([
      name,
      items,
      Math.round(result.requests.average),
      result.latency.p50,
      result.latency.p99,
      result.non2xx,
      result.errors + result.timeouts,
    ]);
    console.error(`  ${name}: ${items} items, p50 ${result.latency.p50} ms`);
  }
  // One request at a time: each request's own latency, without queueing behind other connections.
  for (const [name, path] of scenarios) {
    const times = [];
    for (let i = 0; i < 300; i++) {
      const started = performance.now();
      await send('GET', path, 'client', undefined, userHeaders);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    results.push([`${name}, one at a time`, '', '', times[149].toFixed(2), times[296].toFixed(2), 0, 0]);
  }
  return results;
}

/** The plan and own time of the recursive query on PostgreSQL, for the record (stderr). */
async function explain(url, schema) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, options: `-c search_path=${schema},public` });
  await client.connect();
  try {
    const { rows } = await client.query('SELECT project_id, team_id, user_id FROM team_member_permissions LIMIT 1');
    const { project_id, team_id, user_id } = rows[0];
    const plan = await client.query(
      `EXPLAIN (ANALYZE, COSTS OFF) WITH RECURSIVE held (id) AS (
         SELECT permission_id FROM team_member_permissions WHERE project_id = $1 AND team_id = $2 AND user_id = $3
         UNION
         SELECT i.contained_id FROM team_permission_inclusions i JOIN held h ON i.permission_id = h.id
         WHERE i.project_id = $1)
       SELECT id FROM held ORDER BY id`,
      [project_id, team_id, user_id],
    );
    console.error(plan.rows.map((row) => `    ${row['QUERY PLAN']}`).join('\n'));
  } finally {
    await client.end();
  }
}

function printTable(header, rows) {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => String(row[column]).length)),
  );
  const line = (cells) => `| ${cells.map((cell, column) => String(cell).padEnd(widths[column])).join(' | ')} |`;
  console.log(line(header));
  console.log(`| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`);
  for (const row of rows) console.log(line(row));
}
