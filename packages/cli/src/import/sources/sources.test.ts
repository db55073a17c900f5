import { describe, expect, it } from 'vitest';
import {
  auth0Files,
  betterAuthJson,
  clerkCsv,
  firebaseExport,
  firebaseScrypt,
  stackJson,
  supabaseCsv,
} from '../../test-support/import-fixtures.js';
import { type ImportProblem, type ImportTeam, type ImportUser, lineOf, type SourceItem } from '../types.js';
import { parseAuth0 } from './auth0.js';
import { parseBetterAuth } from './better-auth.js';
import { parseClerk } from './clerk.js';
import { parseFirebase, parseFirebaseHashConfig } from './firebase.js';
import { UnreadableInput } from './input.js';
import { parseLatchkey } from './latchkey.js';
import { parseStack } from './stack.js';
import { parseSupabase } from './supabase.js';

const people = [
  { email: 'ada@example.com', password: 'correct horse battery staple' },
  { email: 'grace@example.com', password: 'Ünïcödé pässwörd 42' },
];

async function collect(items: AsyncIterable<SourceItem>) {
  const users: ImportUser[] = [];
  const teams: ImportTeam[] = [];
  const problems: ImportProblem[] = [];
  for await (const item of items) {
    if ('problem' in item) problems.push(item);
    else if (item.type === 'user') users.push(item);
    else if (item.type === 'team') teams.push(item);
  }
  return { users, teams, problems };
}

describe('Clerk CSV', () => {
  it('turns each row into a user with its addresses, bcrypt digest, name and TOTP secret', async () => {
    const { users, problems } = await collect(parseClerk(clerkCsv(people)));
    expect(problems).toEqual([]);
    expect(users).toHaveLength(3);
    const [ada, , nopw] = users;
    expect(ada).toMatchObject({
      type: 'user',
      id: 'user_2clerk0',
      display_name: 'Ada Clerk 0',
      totp_secret_base32: 'JBSWY3DPEHPK3PXP',
      emails: [
        { address: 'ada@example.com', verified: true, primary: true, used_for_auth: true },
        { address: 'other0@example.org', verified: false, primary: false, used_for_auth: true },
      ],
    });
    expect(ada!.password_hash).toMatch(/^\$2[ab]\$10\$/);
    expect(lineOf(ada!)).toBe(2);
    expect(nopw).toMatchObject({ password_hash: null, emails: [{ address: 'nopw@clerk.test', verified: false }] });
  });

  it('reports a short row and an unknown hasher with their line numbers and keeps the rest', async () => {
    const header = 'id,primary_email_address,verified_email_addresses,password_digest,password_hasher';
    const input = [
      header,
      'user_a,a@x.test,a@x.test,,',
      'user_b,b@x.test',
      '"user_c","c@x.test","c@x.test","pbkdf2$abc","pbkdf2_sha1"',
      'user_d,"d@x.test',
      'still d",,,',
    ].join('\n');
    const { users, problems } = await collect(parseClerk(input));
    expect(users.map((u) => u.id)).toEqual(['user_a', 'user_d']);
    expect(problems).toEqual([
      { line: 3, problem: 'the row has 2 fields where the header has 5' },
      { line: 4, problem: expect.stringContaining('unsupported hash: password_hasher "pbkdf2_sha1"') },
    ]);
    expect(lineOf(users[1]!)).toBe(5);
  });

  it('keeps the username and external id in server metadata, and the sign-up date where exported', async () => {
    const input =
      'id,username,external_id,created_at,primary_email_address\r\nuser_x,ada,legacy-7,2024-05-06T07:08:09Z,ada@x.test\r\n';
    const { users } = await collect(parseClerk(input));
    expect(users[0]).toMatchObject({
      display_name: 'ada',
      server_metadata: { clerk_username: 'ada', clerk_external_id: 'legacy-7' },
      signed_up_at_millis: Date.parse('2024-05-06T07:08:09Z'),
    });
  });
});

describe('Auth0 bulk export', () => {
  it('joins the password-hash export by id and turns social identities into OAuth accounts', async () => {
    const files = auth0Files(people);
    const { users, problems } = await collect(parseAuth0(files.users, { passwordHashes: files.passwordHashes }));
    expect(problems).toEqual([]);
    expect(users).toHaveLength(3);
    expect(users[0]).toMatchObject({
      id: 'auth0|5dea9f9c82dd7c0e76e4ec90',
      display_name: 'Auth0 User 0',
      profile_image_url: 'https://example.com/0.png',
      emails: [{ address: 'ada@example.com', verified: true, primary: true }],
      client_metadata: { theme: 'dark' },
      server_metadata: { plan: 'pro' },
      signed_up_at_millis: Date.parse('2023-04-05T06:07:08.000Z'),
      oauth: [],
    });
    expect(users[0]!.password_hash).toMatch(/^\$2[ab]\$10\$/);
    expect(users[2]).toMatchObject({
      id: 'github|4242',
      password_hash: null,
      oauth: [{ provider: 'github', account_id: '4242', email: 'social@auth0.test' }],
    });
  });

  it('reads the password-hash export alone, and reports a line that is not JSON', async () => {
    const files = auth0Files(people);
    const broken = `${files.passwordHashes}{"_id":\n{"_id":{"$oid":"x"},"passwordHash":"md5:abc"}\n`;
    const { users, problems } = await collect(parseAuth0(broken));
    expect(users.map((u) => u.id)).toEqual(['auth0|5dea9f9c82dd7c0e76e4ec90', 'auth0|5dea9f9c82dd7c0e76e4ec91']);
    expect(users[1]!.emails[0]!.address).toBe('grace@example.com');
    expect(problems).toEqual([
      { line: 3, problem: 'the line is not valid JSON' },
      { line: 4, problem: 'unsupported hash: the passwordHash is not bcrypt' },
    ]);
  });
});

describe('Supabase auth.users and auth.identities', () => {
  it('reads the CSV tables: bcrypt, confirmed addresses, metadata and OAuth identities', async () => {
    const files = supabaseCsv(people);
    const { users, problems } = await collect(parseSupabase(files.users, { identities: files.identities }));
    expect(problems).toEqual([]);
    expect(users).toHaveLength(3);
    expect(users[0]).toMatchObject({
      id: '00000000-0000-4000-8000-000000000000',
      display_name: 'Supa 0',
      profile_image_url: 'https://example.com/s0.png',
      emails: [{ address: 'ada@example.com', verified: true, primary: true }],
      client_metadata: { full_name: 'Supa 0' },
      client_read_only_metadata: { provider: 'email' },
      signed_up_at_millis: Date.parse('2024-01-02T03:04:05.123Z'),
      oauth: [],
    });
    expect(users[0]!.password_hash).toMatch(/^\$2[ab]\$10\$/);
    expect(users[2]).toMatchObject({
      password_hash: null,
      oauth: [{ provider: 'github', account_id: '123456', email: 'oauth@supabase.test' }],
    });
  });

  it('reads one JSON file of both tables and reports bad rows by line', async () => {
    const json = [
      '{',
      '  "users": [',
      '    {"id": "u1", "email": "u1@x.test", "encrypted_password": "$2a$10$' +
        'a'.repeat(53) +
        '", "email_confirmed_at": null},',
      '    {"id": "u2", "email": "u2@x.test", "encrypted_password": "plain"},',
      '    {"id": "u3", "email": "u3@x.test", "deleted_at": "2024-01-01"},',
      '    7',
      '  ],',
      '  "identities": [{"provider": "google", "provider_id": "g-1", "user_id": "u1", "identity_data": {"email": "u1@gmail.test"}}]',
      '}',
    ].join('\n');
    const { users, problems } = await collect(parseSupabase(json));
    expect(users).toHaveLength(1);
    expect(users[0]).toMatchObject({
      id: 'u1',
      emails: [{ verified: false }],
      oauth: [{ provider: 'google', account_id: 'g-1', email: 'u1@gmail.test' }],
    });
    expect(lineOf(users[0]!)).toBe(3);
    expect(problems).toEqual([
      { line: 4, problem: 'unsupported hash: encrypted_password is not bcrypt' },
      { line: 5, problem: 'the user is deleted (deleted_at is set)' },
      { line: 6, problem: 'the row is not a JSON object' },
    ]);
  });
});

describe('Firebase auth:export', () => {
  it('computes the documented modified scrypt (firebase/scrypt test vector)', async () => {
    const hash = await firebaseScrypt('user1password', '42xEC+ixf3L2lw==', {
      signerKey: 'jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA==',
      saltSeparator: 'Bw==',
      rounds: 8,
      memCost: 14,
    });
    expect(hash).toBe('lSrfV15cpx95/sZS2W9c9Kp6i/LVgQNDNC/qzrCnh1SAyZvqmZqAjTdn3aoItz+VHjoZilo78198JAdRuid5lQ==');
  });

  it('carries the hash, salt and project parameters in one $firebase-scrypt$ string', async () => {
    const { json, config } = await firebaseExport(people);
    const { users, problems } = await collect(parseFirebase(json, { hashConfig: JSON.stringify(config) }));
    expect(problems).toEqual([]);
    const exported = JSON.parse(json).users[0];
    expect(users[0]).toMatchObject({
      id: 'fbuid0',
      display_name: 'Fire 0',
      profile_image_url: 'https://example.com/f0.png',
      emails: [{ address: 'ada@example.com', verified: true }],
      client_read_only_metadata: { role: 'editor' },
      signed_up_at_millis: 1_700_000_000_000,
      oauth: [{ provider: 'google', account_id: '10980', email: 'ada@example.com' }],
      password_hash:
        `$firebase-scrypt$rounds=8,mem_cost=14,signer_key=${config.signerKey},salt_separator=Bw==` +
        `$${exported.salt}$${exported.passwordHash}`,
    });
    expect(lineOf(users[1]!)).toBeGreaterThan(lineOf(users[0]!)!);
  });

  it('reads the console hash_config block and refuses absurd parameters', () => {
    const block =
      'hash_config {\n  algorithm: SCRYPT,\n  base64_signer_key: c2lnbmVy,\n  base64_salt_separator: Bw==,\n  rounds: 8,\n  mem_cost: 14,\n}';
    expect(parseFirebaseHashConfig(block)).toEqual({
      signerKey: 'c2lnbmVy',
      saltSeparator: 'Bw==',
      rounds: 8,
      memCost: 14,
    });
    expect(() => parseFirebaseHashConfig(block.replace('mem_cost: 14', 'mem_cost: 40'))).toThrow(UnreadableInput);
  });

  it('reports a password user without hash parameters by line, and refuses a file that is not JSON', async () => {
    const { json } = await firebaseExport(people.slice(0, 1));
    const { users, problems } = await collect(parseFirebase(json));
    expect(users).toEqual([]);
    expect(problems).toEqual([
      {
        line: 3,
        problem: 'unsupported hash: the user has a password but no Firebase hash parameters were given (--hash-config)',
      },
    ]);
    await expect(collect(parseFirebase('{"users": ['))).rejects.toThrow(UnreadableInput);
  });
});

describe('Better Auth user and account tables', () => {
  it('turns the credential account into $better-auth-scrypt$ and other accounts into OAuth', async () => {
    const tables = await betterAuthJson(people);
    const { users, problems } = await collect(parseBetterAuth(tables.user, { accounts: tables.account }));
    expect(problems).toEqual([]);
    const [salt, key] = (JSON.parse(tables.account)[0].password as string).split(':');
    expect(users[0]).toMatchObject({
      display_name: 'Better 0',
      emails: [{ address: 'ada@example.com', verified: true }],
      password_hash: `$better-auth-scrypt$${salt}$${key}`,
      signed_up_at_millis: Date.parse('2025-02-03T04:05:06.000Z'),
      oauth: [{ provider: 'github', account_id: '7770', email: null }],
    });
  });

  it('reads snake_case CSV tables and reports a malformed password by the account line', async () => {
    const user =
      'id,name,email,email_verified,created_at\nu1,One,one@x.test,true,2025-01-01T00:00:00Z\nu2,Two,two@x.test,false,\n';
    const account = `id,account_id,provider_id,user_id,password\na1,u1,credential,u1,${'ab'.repeat(16)}:${'cd'.repeat(64)}\na2,u2,credential,u2,notahash\n`;
    const { users, problems } = await collect(parseBetterAuth(user, { accounts: account }));
    expect(users.map((u) => u.id)).toEqual(['u1']);
    expect(users[0]!.password_hash).toBe(`$better-auth-scrypt$${'ab'.repeat(16)}$${'cd'.repeat(64)}`);
    expect(problems).toEqual([
      {
        line: 3,
        problem: "unsupported hash: the credential account's password is not Better Auth scrypt (salt:key in hex)",
      },
    ]);
  });
});

describe('Stack Auth REST API shapes', () => {
  it('yields teams first, then users with contact channels, OAuth accounts and memberships', async () => {
    const { users, teams, problems } = await collect(parseStack(stackJson(people)));
    expect(problems).toEqual([]);
    expect(teams).toEqual([
      expect.objectContaining({
        type: 'team',
        id: '7e1d0000-0000-4000-8000-000000000001',
        display_name: 'Fixture Team',
      }),
    ]);
    expect(users[0]).toMatchObject({
      display_name: 'Stack 0',
      emails: [
        { address: 'ada@example.com', verified: true, primary: true, used_for_auth: true },
        { address: 'second0@stack.test', verified: false, primary: false, used_for_auth: false },
      ],
      oauth: [{ provider: 'github', account_id: 'gh-0', email: 'ada@example.com' }],
      client_metadata: { a: 0 },
      server_metadata: { s: 0 },
      signed_up_at_millis: 1_700_000_000_000,
      teams: [{ team_id: '7e1d0000-0000-4000-8000-000000000001', permissions: ['$update_team'] }],
    });
    expect(users[1]!.teams).toEqual([{ team_id: '7e1d0000-0000-4000-8000-000000000001', permissions: [] }]);
  });

  it('reports an item without id by its line and converts a base64 TOTP secret to base32', async () => {
    const json = [
      '{"users": [',
      '  {"id": "u1", "primary_email": "u1@x.test", "primary_email_verified": true, "totp_secret_base64": "SGVsbG8h3q2+7w=="},',
      '  {"display_name": "no id"}',
      ']}',
    ].join('\n');
    const { users, problems } = await collect(parseStack(json));
    expect(users[0]!.totp_secret_base32).toBe('JBSWY3DPEHPK3PXP');
    expect(problems).toEqual([{ line: 3, problem: 'the user has no id' }]);
  });
});

describe('the generic format: permission records', () => {
  it('reads a permission definition, and refuses one with an unknown field by its line', async () => {
    const input = [
      '{"type":"permission","id":"billing:read","description":"Reads invoices","contained_permission_ids":["$read_members"]}',
      '{"type":"permission","id":"billing:manage"}',
      '{"type":"permission","id":"x","colour":"blue"}',
      '{"type":"permission","id":"y","contained_permission_ids":[1]}',
    ].join('\n');
    const items = [];
    for await (const item of parseLatchkey(input)) items.push(item);
    expect(items.slice(0, 2)).toEqual([
      {
        type: 'permission',
        id: 'billing:read',
        description: 'Reads invoices',
        contained_permission_ids: ['$read_members'],
      },
      { type: 'permission', id: 'billing:manage', description: null, contained_permission_ids: [] },
    ]);
    expect(items.slice(2)).toEqual([
      { line: 3, problem: 'malformed line: unknown field "colour"' },
      { line: 4, problem: 'malformed line: "contained_permission_ids" must be a list of permission ids' },
    ]);
  });
});
