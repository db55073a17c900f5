/**
 * `latchkey import --from <source>` end to end, as a team moving from another
 * product runs it: each source's export (generated with known passwords,
 * hashed as that product hashes; test-support/import-fixtures.ts) imported
 * with the built CLI into a running test service's PostgreSQL schema (and
 * into the data directory of a stopped `latchkey dev`, PGlite), then
 * every user signs in over HTTP with their old password, and `latchkey
 * export` shows their stored hash is argon2id afterwards.
 */
import { createHmac } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isPostgresReachable, startTestService, type TestService, testPostgresUrl } from '@latchkey/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DevInfo } from './internal/format.js';
import { ensureBuilt, runCli, runToEnd, stopAll } from './test-support/cli-process.js';
import {
  auth0Files,
  betterAuthJson,
  clerkCsv,
  type FixtureUser,
  firebaseExport,
  stackJson,
  supabaseCsv,
} from './test-support/import-fixtures.js';

const postgresUp = await isPostgresReachable(testPostgresUrl);
if (!postgresUp)
  console.warn(`import end-to-end tests skipped: nothing answers at ${testPostgresUrl} (set DATABASE_URL)`);

const scratch = mkdtempSync(join(tmpdir(), 'latchkey-import-sources-'));
let service: TestService;

beforeAll(async () => {
  ensureBuilt();
  if (postgresUp) service = await startTestService({ databaseUrl: testPostgresUrl });
}, 180_000);
afterAll(async () => {
  await stopAll();
  await service?.close();
  rmSync(scratch, { recursive: true, force: true });
});

let files = 0;
function file(name: string, content: string): string {
  const path = join(scratch, `${++files}-${name}`);
  writeFileSync(path, content);
  return path;
}

function people(source: string): FixtureUser[] {
  return [
    { email: `ada.${source}@example.com`, password: `correct horse battery staple ${source}` },
    { email: `grace.${source}@example.com`, password: `Ünïcödé pässwörd 42 ${source}` },
  ];
}

async function importFile(source: string, path: string, extra: string[] = []) {
  const env = { DATABASE_URL: testPostgresUrl, LATCHKEY_SECRET: service.secret };
  const args = ['import', '--from', source, path, '--project', service.projectId, '--schema', service.storage.schema];
  return runToEnd([...args, ...extra, '--json'], env);
}

/** Where users sign in: the test service on PostgreSQL, or `latchkey dev` on a data directory. */
interface Target {
  apiUrl: string;
  projectId: string;
  publishableClientKey: string;
  now(): number;
}

const serviceTarget = (): Target => ({
  apiUrl: service.apiUrl,
  projectId: service.projectId,
  publishableClientKey: service.keys.publishableClientKey,
  now: () => service.clock.now(),
});

function post(target: Target, path: string, json: unknown) {
  return fetch(`${target.apiUrl}${path}`, {
    method: 'POST',
    headers: {
      'x-stack-project-id': target.projectId,
      'x-stack-access-type': 'client',
      'x-stack-publishable-client-key': target.publishableClientKey,
      'content-type': 'application/json',
    },
    body: JSON.stringify(json),
  });
}

/** The six digits an authenticator app holding the base32 secret shows now (RFC 6238, SHA-1, 30 s). */
function totp(base32: string, at: number): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const c of base32) bits += alphabet.indexOf(c).toString(2).padStart(5, '0');
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((b) => Number.parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(at / 30_000)));
  const mac = createHmac('sha1', key).update(counter).digest();
  const offset = mac[19]! & 15;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

/**
 * A password sign-in: the HTTP status, completing the second step with the
 * TOTP code when the user has an imported TOTP secret and the service asks for it.
 */
async function signIn(email: string, password: string, totpSecret?: string, target = serviceTarget()): Promise<number> {
  const response = await post(target, '/auth/password/sign-in', { email, password });
  const body = (await response.json()) as { details?: { attempt_code?: string } };
  if (response.headers.get('x-stack-known-error') !== 'MULTI_FACTOR_AUTHENTICATION_REQUIRED') return response.status;
  if (!totpSecret) return response.status;
  const second = await post(target, '/auth/mfa/sign-in', {
    code: body.details?.attempt_code,
    type: 'totp',
    totp: totp(totpSecret, target.now()),
  });
  await second.body?.cancel();
  return second.status;
}

/** The stored hashes by primary address, as `latchkey export` writes them. */
async function exportedHashes(): Promise<Map<string, string | null>> {
  const env = { DATABASE_URL: testPostgresUrl, LATCHKEY_SECRET: service.secret };
  const { code, stdout, stderr } = await runToEnd(
    ['export', '--project', service.projectId, '--schema', service.storage.schema],
    env,
  );
  expect(code, stderr).toBe(0);
  const hashes = new Map<string, string | null>();
  for (const line of stdout.split('\n').filter(Boolean)) {
    const record = JSON.parse(line) as { type: string; emails?: { address: string }[]; password_hash?: string | null };
    if (record.type === 'user')
      for (const e of record.emails ?? []) hashes.set(e.address, record.password_hash ?? null);
  }
  return hashes;
}

function report(stdout: string): { users_imported: number; skipped: number } {
  const last = stdout.trim().split('\n').at(-1)!;
  return JSON.parse(last) as { users_imported: number; skipped: number };
}

/** Each source: its files, written from fixtures of that source's users, and the extra flags naming side files. */
const sources: [string, (users: FixtureUser[]) => Promise<{ main: string; extra: string[]; expected: number }>][] = [
  ['clerk', async (users) => ({ main: file('clerk.csv', clerkCsv(users)), extra: [], expected: users.length + 1 })],
  [
    'auth0',
    async (users) => {
      const files = auth0Files(users);
      return {
        main: file('auth0.ndjson', files.users),
        extra: ['--password-hashes', file('auth0-hashes.ndjson', files.passwordHashes)],
        expected: users.length + 1,
      };
    },
  ],
  [
    'supabase',
    async (users) => {
      const files = supabaseCsv(users);
      return {
        main: file('supabase-users.csv', files.users),
        extra: ['--identities', file('supabase-identities.csv', files.identities)],
        expected: users.length + 1,
      };
    },
  ],
  [
    'firebase',
    async (users) => {
      const { json, config } = await firebaseExport(users);
      return {
        main: file('firebase.json', json),
        extra: ['--hash-config', file('firebase-hash-config.json', JSON.stringify(config))],
        expected: users.length,
      };
    },
  ],
  [
    'better-auth',
    async (users) => {
      const tables = await betterAuthJson(users);
      return {
        main: file('better-auth-user.json', tables.user),
        extra: ['--accounts', file('better-auth-account.json', tables.account)],
        expected: users.length,
      };
    },
  ],
  ['stack', async (users) => ({ main: file('stack.json', stackJson(users)), extra: [], expected: users.length })],
];

describe.skipIf(!postgresUp)('latchkey import from each source, then sign-in with the old password', () => {
  it.each(sources)(
    '%s: every password user signs in with the old password, then holds argon2id',
    async (source, make) => {
      const users = people(source);
      const { main, extra, expected } = await make(users);
      const run = await importFile(source, main, extra);
      expect(run.code, run.stderr + run.stdout).toBe(0);
      expect(report(run.stdout)).toMatchObject({ users_imported: expected, skipped: 0 });

      for (const user of users) {
        expect(await signIn(user.email, `${user.password}!`), `${source}: a wrong password`).toBe(400);
        // Clerk's first user has a TOTP secret in the export: the sign-in asks for a code from it.
        const secret = source === 'clerk' && user === users[0] ? 'JBSWY3DPEHPK3PXP' : undefined;
        expect(await signIn(user.email, user.password, secret), `${source}: ${user.email}`).toBe(200);
      }
      const hashes = await exportedHashes();
      for (const user of users) expect(hashes.get(user.email), user.email).toMatch(/^\$argon2id\$/);
    },
    120_000,
  );

  it('reports a malformed row and an unsupported hasher by their lines and imports the rest', async () => {
    const users = people('clerk-bad');
    const lines = clerkCsv(users)
      .replaceAll('user_2clerk', 'user_2bad')
      .replaceAll('@clerk.test', '@bad.test')
      .replaceAll('@example.org', '@bad.example.org')
      .trimEnd()
      .split('\n');
    lines.splice(
      2,
      0,
      'user_broken,only-two-fields',
      'user_2badpbkdf,P,B,,pb@bad.test,,pb@bad.test,,,,,pbkdf2$abc,pbkdf2_sha1',
    );
    const run = await importFile('clerk', file('clerk-bad.csv', `${lines.join('\n')}\n`));
    expect(run.code, run.stderr).toBe(0);
    const notices = run.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; line?: number; message?: string });
    expect(notices).toContainEqual(
      expect.objectContaining({ type: 'skipped', line: 3, message: 'the row has 2 fields where the header has 13' }),
    );
    expect(notices).toContainEqual(expect.objectContaining({ type: 'skipped', line: 4, reason: 'unsupported_hash' }));
    expect(report(run.stdout)).toMatchObject({
      users_imported: users.length + 1,
      skipped: 2,
      skipped_by_reason: { malformed: 1, unsupported_hash: 1 },
    });
    expect(await signIn(users[1]!.email, users[1]!.password)).toBe(200);
  }, 120_000);

  it('refuses a file that cannot be read as the source, writing nothing', async () => {
    const run = await importFile('firebase', file('not-firebase.json', '{"users": [ {"localId": '));
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('the file is not valid JSON');
  }, 60_000);
});

describe('on the data directory of a stopped latchkey dev (PGlite)', () => {
  it('imports every source, then every password user signs in over HTTP with the old password', async () => {
    const dataDir = join(scratch, 'pglite');
    const first = runCli(['dev', '--json', '--port', '0', '--data-dir', dataDir]);
    await first.firstLine();
    await first.stop();

    const everyone: (FixtureUser & { source: string })[] = [];
    for (const [source, make] of sources) {
      const users = people(`${source}.pglite`);
      const { main, extra, expected } = await make(users);
      const run = await runToEnd(['import', '--from', source, main, ...extra, '--data-dir', dataDir, '--json']);
      expect(run.code, run.stderr + run.stdout).toBe(0);
      expect(report(run.stdout), source).toMatchObject({ users_imported: expected, skipped: 0 });
      everyone.push(...users.map((u) => ({ ...u, source })));
    }

    const dev = runCli(['dev', '--json', '--port', '0', '--data-dir', dataDir]);
    const info = JSON.parse((await dev.firstLine()).line) as DevInfo;
    const target: Target = { ...info, apiUrl: `${info.apiUrl}/api/v1`, now: () => Date.now() };
    for (const user of everyone) {
      const secret = user.source === 'clerk' && user.email.startsWith('ada.') ? 'JBSWY3DPEHPK3PXP' : undefined;
      expect(await signIn(user.email, user.password, secret, target), `${user.source}: ${user.email}`).toBe(200);
    }
  }, 300_000);
});
