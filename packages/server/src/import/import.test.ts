/**
 * The import engine and the export as a user observes them, on PGlite and
 * PostgreSQL: imported users sign in over HTTP with their old passwords (then
 * hold an argon2id hash), with their TOTP secret, in their teams; bad records
 * are reported by line and leave nothing behind; a second run writes nothing
 * new; an export imported into a fresh service signs everyone in again.
 */
import { hash as argon2Hash } from '@node-rs/argon2';
import bcrypt from 'bcryptjs';
import { expect, it } from 'vitest';
import { exportUsers, importUsers } from '../operations.js';
import { dbOf } from '../storage/open-storage.js';
import { authHeaders, call, countRows, goodPassword } from '../test-support/api.js';
import { describeEachBackend, testServiceForSuite } from '../test-support/backends.js';
import { mfaSignIn, passwordSignIn, totpAt } from '../test-support/mfa.js';
import type { TestService } from '../testing/index.js';
import type { ImportRecord, ImportUserRecord } from './import-records.js';
import type { ImportItem, ImportNotice } from './import-users.js';

const bcryptHash = bcrypt.hashSync(goodPassword, 4);
const argonHash = await argon2Hash(goodPassword, { memoryCost: 4096, timeCost: 1, parallelism: 1 });
const totpBase32 = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';

function user(id: string, address: string, fields: Partial<ImportUserRecord> = {}): ImportUserRecord {
  return {
    type: 'user',
    id,
    emails: [{ address, verified: true, primary: true, used_for_auth: true }],
    display_name: null,
    profile_image_url: null,
    password_hash: bcryptHash,
    client_metadata: null,
    client_read_only_metadata: null,
    server_metadata: null,
    signed_up_at_millis: 1_700_000_000_000,
    oauth: [],
    totp_secret_base32: null,
    teams: [],
    ...fields,
  };
}

async function* items(records: ImportRecord[]): AsyncIterable<ImportItem> {
  let line = 0;
  for (const record of records) yield { record, line: ++line };
}

async function run(service: TestService, records: ImportRecord[], options: { dryRun?: boolean } = {}) {
  const notices: ImportNotice[] = [];
  const counts = await importUsers(service.storage, service.projectId, items(records), {
    secret: service.secret,
    batchSize: 3,
    onNotice: (notice) => notices.push(notice),
    ...options,
  });
  return { counts, notices };
}

async function storedHash(service: TestService, address: string): Promise<string | null> {
  const row = await dbOf(service.storage)
    .selectFrom('users')
    .select('password_hash')
    .where('project_id', '=', service.projectId)
    .where('primary_email', '=', address)
    .executeTakeFirstOrThrow();
  return row.password_hash;
}

/** The project's permission definitions, as the admin API lists them. */
async function definitions(service: TestService) {
  const answer = await call(service, 'GET', '/team-permission-definitions', { headers: authHeaders(service, 'admin') });
  expect(answer.status).toBe(200);
  return answer.body.items as { id: string; description?: string; contained_permission_ids: string[] }[];
}

async function teamsOf(service: TestService) {
  const rows = await dbOf(service.storage)
    .selectFrom('team_members as m')
    .innerJoin('teams as t', 't.id', 'm.team_id')
    .innerJoin('users as u', 'u.id', 'm.user_id')
    .leftJoin('team_member_permissions as p', (join) =>
      join.onRef('p.team_id', '=', 'm.team_id').onRef('p.user_id', '=', 'm.user_id'),
    )
    .select(['t.display_name as team', 'u.primary_email as email', 'p.permission_id as permission'])
    .where('m.project_id', '=', service.projectId)
    .execute();
  return rows.map((row) => `${row.team}/${row.email}/${row.permission}`).sort();
}

describeEachBackend('import and export', (backend) => {
  const service = testServiceForSuite({ databaseUrl: backend.databaseUrl });
  const source = testServiceForSuite({ databaseUrl: backend.databaseUrl });
  const bulk = testServiceForSuite({ databaseUrl: backend.databaseUrl });

  it('imports users who sign in with their old password (bcrypt and argon2id), then hold argon2id', async () => {
    const records: ImportRecord[] = [
      {
        type: 'team',
        id: 'team_1',
        display_name: 'Team one',
        profile_image_url: null,
        client_metadata: { plan: 'pro' },
        client_read_only_metadata: null,
        server_metadata: null,
        created_at_millis: 1_600_000_000_000,
      },
      user('u_bcrypt', 'bcrypt@import.test', {
        display_name: 'Bea',
        teams: [{ team_id: 'team_1', permissions: ['admin'] }],
        oauth: [{ provider: 'github', account_id: '123', email: 'bcrypt@import.test' }],
      }),
      user('u_argon', 'argon@import.test', {
        password_hash: argonHash,
        emails: [
          { address: 'argon@import.test', verified: true, primary: true, used_for_auth: true },
          { address: 'second@import.test', verified: false, primary: false, used_for_auth: false },
        ],
        teams: [{ team_id: 'team_1', permissions: ['member'] }],
      }),
      user('u_totp', 'totp@import.test', { totp_secret_base32: totpBase32 }),
    ];
    const { counts, notices } = await run(service, records);
    expect(notices).toEqual([]);
    expect(counts).toMatchObject({ users_imported: 3, teams_imported: 1, skipped: 0 });

    for (const address of ['bcrypt@import.test', 'argon@import.test']) {
      const answer = await passwordSignIn(service, { email: address, password: goodPassword });
      expect(answer.status, answer.text).toBe(200);
      expect(await storedHash(service, address)).toMatch(/^\$argon2id\$/);
    }
    const wrong = await passwordSignIn(service, { email: 'bcrypt@import.test', password: 'wrong-password' });
    expect(wrong.body.code).toBe('EMAIL_PASSWORD_MISMATCH');
    const second = await passwordSignIn(service, { email: 'totp@import.test', password: goodPassword });
    expect(second.body.code, second.text).toBe('MULTI_FACTOR_AUTHENTICATION_REQUIRED');
    const attempt = (second.body.details as { attempt_code: string }).attempt_code;
    const signedIn = await mfaSignIn(service, attempt, totpAt({ base32: totpBase32 }, service.clock.now()));
    expect(signedIn.status, signedIn.text).toBe(200);

    const listed = await call(service, 'GET', '/users?query=bcrypt@import.test', {
      headers: authHeaders(service, 'server'),
    });
    expect(listed.body.items[0]).toMatchObject({
      display_name: 'Bea',
      signed_up_at_millis: 1_700_000_000_000,
      oauth_providers: [{ id: 'github', account_id: '123', email: 'bcrypt@import.test' }],
    });
    expect(await teamsOf(service)).toEqual(['Team one/argon@import.test/member', 'Team one/bcrypt@import.test/admin']);
  });

  it('reports each bad record with its line and reason, and writes nothing of it', async () => {
    const usersBefore = await countRows(service, 'users');
    const channelsBefore = await countRows(service, 'contact_channels');
    const records: ImportRecord[] = [
      user('bad_hash', 'bad-hash@import.test', { password_hash: 'md5:5f4dcc3b5aa765d61d8327deb882cf99' }),
      user('slow_hash', 'slow-hash@import.test', { password_hash: `$2b$31$${'a'.repeat(53)}` }),
      user('huge_argon', 'huge@import.test', {
        password_hash: `$argon2id$v=19$m=4194304,t=2,p=1$${'a'.repeat(22)}$${'b'.repeat(43)}`,
      }),
      user('bad_address', 'not an address'),
      user('taken', 'BCRYPT@import.test'),
      user('big', 'big@import.test', { server_metadata: { big: 'x'.repeat(17_000) } }),
      user('twice_a', 'twice@import.test'),
      user('twice_b', 'twice@import.test'),
    ];
    const { counts, notices } = await run(service, records);
    expect(notices.map((n) => [n.line, n.kind, n.reason])).toEqual([
      [1, 'skipped', 'unsupported_hash'],
      [2, 'skipped', 'unsupported_hash'],
      [3, 'skipped', 'unsupported_hash'],
      [4, 'skipped', 'invalid_address'],
      [6, 'skipped', 'oversized_field'],
      [5, 'skipped', 'duplicate_email'],
      [8, 'skipped', 'duplicate_email'],
    ]);
    expect(JSON.stringify(notices)).not.toContain('$2b$');
    expect(counts).toMatchObject({ users_imported: 1, skipped: 7 });
    expect(await countRows(service, 'users')).toBe(usersBefore + 1);
    expect(await countRows(service, 'contact_channels')).toBe(channelsBefore + 1);
  });

  it('imports thousands in batches of the default size, sampling the tables as they grow; all are found by search', async () => {
    const usersBefore = await countRows(bulk, 'users');
    const many = Array.from({ length: 2_100 }, (_, i) => user(`bulk_${i}`, `bulk${i}@many.import.test`));
    const counts = await importUsers(bulk.storage, bulk.projectId, items(many), { secret: bulk.secret });
    expect(counts).toMatchObject({ users_imported: 2_100, skipped: 0 });
    expect(await countRows(bulk, 'users')).toBe(usersBefore + 2_100);
    const found = await call(bulk, 'GET', '/users?query=bulk2099@many', { headers: authHeaders(bulk, 'server') });
    expect(found.body.items.map((item: { primary_email: string }) => item.primary_email)).toEqual([
      'bulk2099@many.import.test',
    ]);
    const again = await importUsers(bulk.storage, bulk.projectId, items(many.slice(0, 10)), {
      secret: bulk.secret,
    });
    expect(again).toMatchObject({ users_imported: 0, users_existing: 10 });
  });

  it('a run again counts what exists and writes nothing; a dry run writes nothing', async () => {
    const before = await countRows(service, 'users');
    const again = await run(service, [user('u_bcrypt', 'bcrypt@import.test'), user('u_new', 'new@import.test')], {
      dryRun: true,
    });
    expect(again.counts).toMatchObject({ users_existing: 1, users_imported: 1 });
    expect(await countRows(service, 'users')).toBe(before);
    const real = await run(service, [user('u_bcrypt', 'bcrypt@import.test')]);
    expect(real.counts).toMatchObject({ users_existing: 1, users_imported: 0 });
    expect(await countRows(service, 'users')).toBe(before);
  });

  it('creates the custom permissions it lacks, before the users granted them; one the project has is kept', async () => {
    const records: ImportRecord[] = [
      { type: 'permission', id: 'member', description: 'Not this one', contained_permission_ids: [] },
      {
        type: 'permission',
        id: 'billing:read',
        description: 'Reads invoices',
        contained_permission_ids: ['$read_members'],
      },
      {
        type: 'permission',
        id: 'billing:manage',
        description: null,
        contained_permission_ids: ['billing:read', 'undefined_one'],
      },
      { type: 'permission', id: 'Bad Id', description: null, contained_permission_ids: [] },
      user('u_billing', 'billing@import.test', { teams: [{ team_id: 'team_1', permissions: ['billing:manage'] }] }),
    ];
    const before = await definitions(service);
    const { counts, notices } = await run(service, records);
    expect(counts).toMatchObject({ permissions_imported: 2, permissions_existing: 1, users_imported: 1, skipped: 1 });
    expect(notices.map((n) => [n.line, n.kind, n.reason ?? null])).toEqual([
      [3, 'warning', null],
      [4, 'skipped', 'invalid_field'],
    ]);
    expect(notices[0]!.message).toContain('undefined_one');
    const after = await definitions(service);
    expect(after.find((d) => d.id === 'member')).toEqual(before.find((d) => d.id === 'member'));
    expect(after.filter((d) => d.id.startsWith('billing:'))).toEqual([
      { id: 'billing:manage', contained_permission_ids: ['billing:read'] },
      { id: 'billing:read', description: 'Reads invoices', contained_permission_ids: ['$read_members'] },
    ]);
    expect(await teamsOf(service)).toContain('Team one/billing@import.test/billing:manage');
  });

  it('an export imported into a fresh service signs every user in, in the same teams with the same permissions', async () => {
    const exported: ImportRecord[] = [];
    for await (const record of exportUsers(service.storage, service.projectId, {
      includeSecrets: true,
      secret: service.secret,
    })) {
      exported.push(record);
    }
    expect(JSON.stringify(exported)).toContain(totpBase32);
    const withoutSecrets: ImportRecord[] = [];
    for await (const record of exportUsers(service.storage, service.projectId)) withoutSecrets.push(record);
    expect(withoutSecrets.filter((r) => r.type === 'user' && r.totp_secret_base32 !== null)).toEqual([]);
    const { counts, notices } = await run(source, exported);
    expect(notices).toEqual([]);
    const users = exported.filter((record) => record.type === 'user');
    expect(counts.users_imported).toBe(users.length);
    for (const record of users) {
      if (record.password_hash === null || record.totp_secret_base32 !== null) continue;
      const answer = await passwordSignIn(source, { email: record.emails[0]!.address, password: goodPassword });
      expect(answer.status, answer.text).toBe(200);
    }
    const permissionIds = exported.filter((record) => record.type === 'permission').map((record) => record.id);
    expect([...permissionIds].sort()).toEqual(['admin', 'billing:manage', 'billing:read', 'member']);
    // Each definition comes after those it contains.
    expect(permissionIds.indexOf('billing:read')).toBeLessThan(permissionIds.indexOf('billing:manage'));
    expect(await definitions(source)).toEqual(await definitions(service));
    expect(await teamsOf(source)).toEqual(await teamsOf(service));
    const ids = users.map((record) => record.id).sort();
    const copied = await dbOf(source.storage)
      .selectFrom('users')
      .select('id')
      .where('project_id', '=', source.projectId)
      .execute();
    expect(copied.map((row) => row.id).sort()).toEqual(ids);
  });
});
