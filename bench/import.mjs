/**
 * `latchkey import --from latchkey` at scale: generates N users of the
 * generic format (bcrypt hashes, one address each, every tenth in one of 100
 * teams, every twentieth with a GitHub account), then runs the built CLI on
 * them, into a fresh PostgreSQL schema (when one answers at DATABASE_URL or
 * postgres://postgres@127.0.0.1:5432/test) and into a fresh PGlite data
 * directory, and prints users per second and the time a million would take.
 *
 *   node bench/import.mjs [users=100000] [--postgres-only|--pglite-only]
 */
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const bin = join(root, 'packages/cli/dist/bin.js');
const server = await import(join(root, 'packages/server/dist/index.js'));
const testing = await import(join(root, 'packages/server/dist/testing/index.js'));

const count = Number(process.argv.find((arg) => /^\d+$/.test(arg)) ?? 100_000);
const databaseUrl = process.env.DATABASE_URL ?? testing.testPostgresUrl;
const scratch = mkdtempSync(join(tmpdir(), 'latchkey-bench-import-'));
const file = join(scratch, 'users.jsonl');

// One bcrypt hash (cost 10) for all: verification happens at sign-in, not at import.
const hash = '$2b$10$N9qo8uLOickgx2ZMRZoMyeIjZAgcfl7p92ldGxad68LJZdL17lhWy';
const out = createWriteStream(file);
const write = (line) => (out.write(`${line}\n`) ? null : new Promise((resolve) => out.once('drain', resolve)));
for (let t = 0; t < 100; t++) {
  await write(JSON.stringify({ type: 'team', id: `team_${t}`, display_name: `Team ${t}` }));
}
for (let i = 0; i < count; i++) {
  const user = {
    type: 'user',
    id: `user_${i}`,
    emails: [{ address: `user${i}@bench.example`, verified: i % 3 === 0, primary: true, used_for_auth: true }],
    display_name: `User ${i}`,
    password_hash: hash,
    signed_up_at_millis: 1_600_000_000_000 + i * 1000,
    ...(i % 20 === 0 ? { oauth: [{ provider: 'github', account_id: String(i), email: null }] } : {}),
    ...(i % 10 === 0 ? { teams: [{ team_id: `team_${i % 100}`, permissions: ['member'] }] } : {}),
  };
  const waiting = write(JSON.stringify(user));
  if (waiting) await waiting;
}
await new Promise((resolve) => out.end(resolve));

function runImport(args, env) {
  const started = performance.now();
  const output = execFileSync(process.execPath, [bin, 'import', '--from', 'latchkey', file, '--json', ...args], {
    env: { ...process.env, DATABASE_URL: undefined, LATCHKEY_SECRET: randomBytes(32).toString('base64url'), ...env },
    maxBuffer: 1 << 30,
  }).toString();
  const seconds = (performance.now() - started) / 1000;
  const report = JSON.parse(output.trim().split('\n').at(-1));
  if (report.users_imported !== count) throw new Error(`imported ${report.users_imported} of ${count}`);
  return seconds;
}

function print(backend, seconds) {
  const rate = count / seconds;
  console.log(
    `${backend.padEnd(10)} ${count} users in ${seconds.toFixed(1)} s: ${Math.round(rate)} users/s; 1,000,000 users: ${(1_000_000 / rate / 60).toFixed(1)} min`,
  );
}

try {
  if (!process.argv.includes('--pglite-only') && (await testing.isPostgresReachable(databaseUrl))) {
    const schema = `bench_import_${randomBytes(4).toString('hex')}`;
    const storage = await server.openStorage({ databaseUrl, schema });
    try {
      await server.bootstrap(storage, { dev: false });
      const project = await server.createProject(storage, { displayName: 'Import bench' });
      print('postgres', runImport(['--project', project.id, '--schema', schema], { DATABASE_URL: databaseUrl }));
      await storage.close();
    } finally {
      await testing.dropSchema(await server.openStorage({ databaseUrl, schema }));
    }
  }
  if (!process.argv.includes('--postgres-only')) {
    const dataDir = join(scratch, 'data');
    const storage = await server.openStorage({ dataDir });
    await server.bootstrap(storage, { dev: false });
    const project = await server.createProject(storage, { displayName: 'Import bench' });
    await storage.close();
    print('pglite', runImport(['--project', project.id, '--data-dir', dataDir], {}));
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
