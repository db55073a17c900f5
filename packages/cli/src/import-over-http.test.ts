/**
 * `latchkey import --api-url`: a generic file imported with the built CLI
 * through a running test service's admin API (PGlite, or PostgreSQL when
 * DATABASE_URL is set); then the users sign in over HTTP with their old
 * passwords, teams, memberships and permissions are there, bad lines are
 * reported by number, and a run again counts everyone as existing.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exportUsers } from '@latchkey/server';
import { startTestService, type TestService } from '@latchkey/server/testing';
import bcrypt from 'bcryptjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuilt, runToEnd, stopAll } from './test-support/cli-process.js';

const scratch = mkdtempSync(join(tmpdir(), 'latchkey-import-http-'));
let service: TestService;

beforeAll(async () => {
  ensureBuilt();
  service = await startTestService();
}, 180_000);
afterAll(async () => {
  await stopAll();
  await service?.close();
  rmSync(scratch, { recursive: true, force: true });
});

const base = {
  display_name: null,
  profile_image_url: null,
  client_metadata: null,
  client_read_only_metadata: null,
  server_metadata: null,
  signed_up_at_millis: 1_700_000_000_000,
  oauth: [],
  totp_secret_base32: null,
  teams: [],
};
const email = (address: string, primary = true, verified = true) => ({
  address,
  verified,
  primary,
  used_for_auth: primary,
});

function generic(): string {
  const lines = [
    {
      type: 'team',
      id: 'team_1',
      display_name: 'Engineering',
      profile_image_url: null,
      client_metadata: null,
      client_read_only_metadata: null,
      server_metadata: { plan: 'pro' },
      created_at_millis: 1_700_000_000_000,
    },
    {
      type: 'user',
      ...base,
      id: 'user_ada',
      display_name: 'Ada',
      emails: [email('ada@example.com'), email('ada.old@example.com', false, false)],
      password_hash: bcrypt.hashSync('correct horse battery staple', 4),
      server_metadata: { from: 'elsewhere' },
      teams: [{ team_id: 'team_1', permissions: ['admin'] }],
    },
    {
      type: 'user',
      ...base,
      id: 'user_grace',
      emails: [email('grace@example.com')],
      password_hash: bcrypt.hashSync('Ünïcödé pässwörd 42', 5),
      totp_secret_base32: 'JBSWY3DPEHPK3PXPJBSWY3DP',
      teams: [{ team_id: 'team_1', permissions: [] }],
    },
  ].map((record) => JSON.stringify(record));
  lines.push('{"type":"user", not json');
  lines.push(
    JSON.stringify({ type: 'user', ...base, id: 'u4', emails: [email('bad@example.com')], password_hash: '$md5$abc' }),
  );
  lines.push(
    JSON.stringify({
      type: 'user',
      ...base,
      id: 'u5',
      emails: [email('octo@example.com')],
      password_hash: null,
      oauth: [{ provider: 'github', account_id: '42', email: 'octo@example.com' }],
    }),
  );
  lines.push(
    JSON.stringify({ type: 'user', ...base, id: 'u6', emails: [email('ADA@example.com')], password_hash: null }),
  );
  // A custom permission containing a system one and one the project does not have (left out, with a warning).
  lines.push(
    JSON.stringify({
      type: 'permission',
      id: 'billing_admin',
      description: 'Manages the plan',
      contained_permission_ids: ['$read_members', 'not_defined_here'],
    }),
  );
  return `${lines.join('\n')}\n`;
}

const file = join(scratch, 'users.jsonl');

function importArgs(extra: string[] = []): string[] {
  return [
    'import',
    '--from',
    'latchkey',
    file,
    '--api-url',
    service.url,
    '--project',
    service.projectId,
    '--json',
    ...extra,
  ];
}

/** The admin key from the environment, as the docs advise (it stays out of `ps`). */
const env = () => ({ LATCHKEY_ADMIN_KEY: service.keys.superSecretAdminKey, DATABASE_URL: undefined });

function lines(stdout: string): Record<string, unknown>[] {
  return stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

async function admin<T>(path: string): Promise<T> {
  const response = await fetch(`${service.apiUrl}${path}`, {
    headers: {
      'x-stack-project-id': service.projectId,
      'x-stack-access-type': 'admin',
      'x-stack-super-secret-admin-key': service.keys.superSecretAdminKey,
    },
  });
  expect(response.status).toBe(200);
  return (await response.json()) as T;
}

async function signIn(address: string, password: string) {
  const response = await fetch(`${service.apiUrl}/auth/password/sign-in`, {
    method: 'POST',
    headers: {
      'x-stack-project-id': service.projectId,
      'x-stack-access-type': 'client',
      'x-stack-publishable-client-key': service.keys.publishableClientKey,
      'content-type': 'application/json',
    },
    body: JSON.stringify({ email: address, password }),
  });
  await response.body?.cancel();
  return { status: response.status, code: response.headers.get('x-stack-known-error') };
}

describe('latchkey import --api-url', () => {
  it('a dry run reports what it would import and writes nothing', async () => {
    writeFileSync(file, generic());
    const run = await runToEnd(importArgs(['--dry-run']), env());
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const report = lines(run.stdout).at(-1);
    expect(report).toMatchObject({ type: 'report', dry_run: true, users_imported: 2, teams_imported: 1, skipped: 4 });
    expect((await admin<{ items: unknown[] }>('/users')).items).toEqual([]);
    expect((await admin<{ items: unknown[] }>('/teams')).items).toEqual([]);
  }, 60_000);

  it('imports teams, users, addresses, TOTP and memberships; users sign in with their old passwords', async () => {
    const run = await runToEnd(importArgs(), env());
    expect(run.code).toBe(0);
    const out = lines(run.stdout);
    expect(out.at(-1)).toMatchObject({
      type: 'report',
      dry_run: false,
      users_imported: 2,
      teams_imported: 1,
      permissions_imported: 1,
      skipped: 4,
      skipped_by_reason: { malformed: 1, unsupported_hash: 1, needs_local_import: 1, duplicate_email: 1 },
    });
    const skipped = out.filter((line) => line.type === 'skipped').map((line) => [line.line, line.reason]);
    expect(skipped).toEqual([
      [4, 'malformed'],
      [5, 'unsupported_hash'],
      [6, 'needs_local_import'],
      [7, 'duplicate_email'],
    ]);
    // No secret in the output: neither hashes nor the TOTP secret.
    expect(run.stdout + run.stderr).not.toMatch(/\$2[aby]\$|JBSWY3DP/);

    expect(await signIn('ada@example.com', 'correct horse battery staple')).toEqual({ status: 200, code: null });
    expect(await signIn('ada@example.com', 'wrong password')).toMatchObject({ status: 400 });
    // Grace's imported TOTP secret asks for the second factor after her old password.
    expect((await signIn('grace@example.com', 'Ünïcödé pässwörd 42')).code).toBe(
      'MULTI_FACTOR_AUTHENTICATION_REQUIRED',
    );

    const users = (
      await admin<{ items: { id: string; primary_email: string; display_name: string | null }[] }>('/users')
    ).items;
    expect(users.map((user) => user.primary_email).sort()).toEqual(['ada@example.com', 'grace@example.com']);
    const ada = users.find((user) => user.primary_email === 'ada@example.com')!;
    const grace = users.find((user) => user.primary_email === 'grace@example.com')!;
    expect(ada.display_name).toBe('Ada');
    const channels = await admin<{ items: { value: string; is_verified: boolean; is_primary: boolean }[] }>(
      `/contact-channels?user_id=${ada.id}`,
    );
    expect(channels.items.map((c) => [c.value, c.is_verified, c.is_primary]).sort()).toEqual([
      ['ada.old@example.com', false, false],
      ['ada@example.com', true, true],
    ]);
    const teams = (await admin<{ items: { id: string; display_name: string; server_metadata: unknown }[] }>('/teams'))
      .items;
    expect(teams).toMatchObject([{ display_name: 'Engineering', server_metadata: { plan: 'pro' } }]);
    const members = await admin<{ items: { id: string }[] }>(`/users?team_id=${teams[0]!.id}`);
    expect(members.items.map((user) => user.id).sort()).toEqual([ada.id, grace.id].sort());
    // Exactly the source's permissions: the API's member default is taken back.
    const granted = async (userId: string) =>
      (
        await admin<{ items: { id: string }[] }>(`/team-permissions?team_id=${teams[0]!.id}&user_id=${userId}`)
      ).items.map((grant) => grant.id);
    expect(await granted(ada.id)).toEqual(['admin']);
    expect(await granted(grace.id)).toEqual([]);
    // The permission definition, with the contained permission the project has.
    const definitions = await admin<{ items: { id: string; contained_permission_ids: string[] }[] }>(
      '/team-permission-definitions',
    );
    expect(definitions.items.find((definition) => definition.id === 'billing_admin')).toMatchObject({
      contained_permission_ids: ['$read_members'],
    });
    expect(out.filter((line) => line.type === 'warning').map((line) => line.line)).toEqual([8]);

    // The first sign-in re-hashed Ada's bcrypt hash to argon2id.
    for await (const record of exportUsers(service.storage, service.projectId)) {
      if (record.type === 'user' && record.emails[0]?.address === 'ada@example.com') {
        expect(record.password_hash).toMatch(/^\$argon2id\$/);
      }
    }
  }, 60_000);

  it('a run again counts what is there as existing and writes nothing twice', async () => {
    const run = await runToEnd(importArgs(), env());
    expect(run.code).toBe(0);
    expect(lines(run.stdout).at(-1)).toMatchObject({
      users_imported: 0,
      users_existing: 2,
      teams_imported: 0,
      teams_existing: 1,
      skipped_by_reason: { malformed: 1, unsupported_hash: 1, needs_local_import: 1, duplicate_email: 1 },
    });
    expect((await admin<{ items: unknown[] }>('/users')).items).toHaveLength(2);
    expect((await admin<{ items: unknown[] }>('/teams')).items).toHaveLength(1);
  }, 60_000);

  it('refuses --admin-key without --api-url, and --api-url without a key', async () => {
    const noKey = await runToEnd(importArgs(), { LATCHKEY_ADMIN_KEY: undefined });
    expect(noKey.code).toBe(2);
    expect(noKey.stderr).toMatch(/--api-url needs --admin-key/);
    const wrongKey = await runToEnd(importArgs(), { LATCHKEY_ADMIN_KEY: 'sak_wrong' });
    expect(wrongKey.code).not.toBe(0);
    expect(wrongKey.stderr).not.toContain('sak_wrong');
  }, 60_000);
});
