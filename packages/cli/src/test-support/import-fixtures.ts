/**
 * Export files in each source's documented format, generated at test time with
 * known passwords, each hashed the way that product hashes: bcrypt (Clerk,
 * Auth0, Supabase, Stack Auth) with bcryptjs; Firebase's modified scrypt and
 * Better Auth's scrypt written here from their documented algorithms on Node's
 * `crypto.scrypt`. No data from anywhere else.
 */
import { createCipheriv, randomBytes, scrypt as scryptCallback } from 'node:crypto';
import { promisify } from 'node:util';
import bcrypt from 'bcryptjs';

const scrypt = promisify(scryptCallback) as (
  password: string | Buffer,
  salt: string | Buffer,
  keylen: number,
  options: { N: number; r: number; p: number; maxmem: number },
) => Promise<Buffer>;

/** A user every fixture carries: the address and the password they sign in with. */
export interface FixtureUser {
  email: string;
  password: string;
}

/** bcrypt at cost 10, as Clerk, Auth0 and Supabase (GoTrue) store passwords. */
function bcryptHash(password: string): string {
  return bcrypt.hashSync(password, 10);
}

/**
 * Firebase's modified scrypt (firebase/scrypt): scrypt(password, salt ‖
 * salt separator, N = 2^mem_cost, r = rounds, p = 1, 32 bytes) keys AES-256-CTR
 * (zero IV), which encrypts the project's signer key; the base64 of that is
 * the user's `passwordHash`.
 */
export async function firebaseScrypt(
  password: string,
  saltB64: string,
  config: { signerKey: string; saltSeparator: string; rounds: number; memCost: number },
): Promise<string> {
  const salt = Buffer.concat([Buffer.from(saltB64, 'base64'), Buffer.from(config.saltSeparator, 'base64')]);
  const key = await scrypt(password, salt, 32, {
    N: 2 ** config.memCost,
    r: config.rounds,
    p: 1,
    maxmem: 64 * 1024 * 1024,
  });
  const cipher = createCipheriv('aes-256-ctr', key, Buffer.alloc(16));
  return Buffer.concat([cipher.update(Buffer.from(config.signerKey, 'base64')), cipher.final()]).toString('base64');
}

/**
 * Better Auth's default password hash: a 16-byte random salt as hex, the key
 * scrypt(NFKC password, the salt's hex text, N = 16384, r = 16, p = 1, 64
 * bytes), stored as `salt:key` in hex.
 */
async function betterAuthHash(password: string): Promise<string> {
  const salt = randomBytes(16).toString('hex');
  const key = await scrypt(password.normalize('NFKC'), salt, 64, { N: 16384, r: 16, p: 1, maxmem: 128 * 1024 * 1024 });
  return `${salt}:${key.toString('hex')}`;
}

/** A project's Firebase hash parameters, made up for the fixture. */
export function firebaseHashConfig() {
  return { signerKey: randomBytes(64).toString('base64'), saltSeparator: 'Bw==', rounds: 8, memCost: 14 };
}

function csvCell(value: string): string {
  return /[",\n\r]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

function csv(header: string[], rows: string[][]): string {
  return `${[header, ...rows].map((r) => r.map(csvCell).join(',')).join('\n')}\n`;
}

/** Clerk's Dashboard CSV export: a password user with a second, unverified address and a TOTP secret, and one without password. */
export function clerkCsv(users: FixtureUser[]): string {
  const header = [
    'id',
    'first_name',
    'last_name',
    'username',
    'primary_email_address',
    'primary_phone_number',
    'verified_email_addresses',
    'unverified_email_addresses',
    'verified_phone_numbers',
    'unverified_phone_numbers',
    'totp_secret',
    'password_digest',
    'password_hasher',
  ];
  const rows = users.map((u, i) => [
    `user_2clerk${i}`,
    'Ada',
    `Clerk ${i}`,
    '',
    u.email,
    '',
    u.email,
    `other${i}@example.org`,
    '',
    '',
    i === 0 ? 'JBSWY3DPEHPK3PXP' : '',
    bcryptHash(u.password),
    'bcrypt',
  ]);
  rows.push([
    'user_2clerknopw',
    'No',
    'Password',
    '',
    'nopw@clerk.test',
    '',
    '',
    'nopw@clerk.test',
    '',
    '',
    '',
    '',
    '',
  ]);
  return csv(header, rows);
}

/** Auth0's bulk export (NDJSON) and its password-hash export (NDJSON). */
export function auth0Files(users: FixtureUser[]): { users: string; passwordHashes: string } {
  const lines: string[] = [];
  const hashes: string[] = [];
  users.forEach((u, i) => {
    const oid = `5dea9f9c82dd7c0e76e4ec9${i}`;
    lines.push(
      JSON.stringify({
        user_id: `auth0|${oid}`,
        email: u.email,
        email_verified: true,
        name: `Auth0 User ${i}`,
        picture: `https://example.com/${i}.png`,
        created_at: '2023-04-05T06:07:08.000Z',
        identities: [
          { connection: 'Username-Password-Authentication', provider: 'auth0', user_id: oid, isSocial: false },
        ],
        user_metadata: { theme: 'dark' },
        app_metadata: { plan: 'pro' },
      }),
    );
    hashes.push(
      JSON.stringify({
        _id: { $oid: oid },
        email_verified: true,
        email: u.email,
        passwordHash: bcryptHash(u.password),
        password_set_date: { $date: '2023-04-05T06:07:08.000Z' },
        tenant: 'fixture',
        connection: 'Username-Password-Authentication',
        _tmp_is_unique: true,
      }),
    );
  });
  lines.push(
    JSON.stringify({
      user_id: 'github|4242',
      email: 'social@auth0.test',
      email_verified: true,
      name: 'Social',
      created_at: '2023-04-05T06:07:08.000Z',
      identities: [{ connection: 'github', provider: 'github', user_id: 4242, isSocial: true }],
    }),
  );
  return { users: `${lines.join('\n')}\n`, passwordHashes: `${hashes.join('\n')}\n` };
}

/** Supabase's `auth.users` and `auth.identities` as CSV (psql `\copy ... csv header`). */
export function supabaseCsv(users: FixtureUser[]): { users: string; identities: string } {
  const userRows = users.map((u, i) => [
    `00000000-0000-4000-8000-00000000000${i}`,
    u.email,
    bcryptHash(u.password),
    '2024-01-02 03:04:05.123456+00',
    JSON.stringify({ full_name: `Supa ${i}`, avatar_url: `https://example.com/s${i}.png` }),
    JSON.stringify({ provider: 'email', providers: ['email'] }),
    '2024-01-02 03:04:05.123456+00',
    '',
    'false',
  ]);
  userRows.push([
    '00000000-0000-4000-8000-0000000000aa',
    'oauth@supabase.test',
    '',
    '2024-01-02 03:04:05+00',
    JSON.stringify({ full_name: 'OAuth Only' }),
    JSON.stringify({ provider: 'github', providers: ['github'] }),
    '2024-01-02 03:04:05+00',
    '',
    'false',
  ]);
  const identityRows = [
    [
      '10000000-0000-4000-8000-000000000001',
      '123456',
      '00000000-0000-4000-8000-0000000000aa',
      JSON.stringify({ sub: '123456', email: 'oauth@supabase.test' }),
      'github',
      'oauth@supabase.test',
    ],
    ...users.map((u, i) => [
      `20000000-0000-4000-8000-00000000000${i}`,
      `00000000-0000-4000-8000-00000000000${i}`,
      `00000000-0000-4000-8000-00000000000${i}`,
      JSON.stringify({ sub: `00000000-0000-4000-8000-00000000000${i}`, email: u.email }),
      'email',
      u.email,
    ]),
  ];
  return {
    users: csv(
      [
        'id',
        'email',
        'encrypted_password',
        'email_confirmed_at',
        'raw_user_meta_data',
        'raw_app_meta_data',
        'created_at',
        'deleted_at',
        'is_anonymous',
      ],
      userRows,
    ),
    identities: csv(['id', 'provider_id', 'user_id', 'identity_data', 'provider', 'email'], identityRows),
  };
}

/** `firebase auth:export --format=json` and the project's hash parameters. */
export async function firebaseExport(
  users: FixtureUser[],
  config = firebaseHashConfig(),
): Promise<{ json: string; config: ReturnType<typeof firebaseHashConfig> }> {
  const exported = [];
  for (const [i, u] of users.entries()) {
    const salt = randomBytes(14).toString('base64');
    exported.push({
      localId: `fbuid${i}`,
      email: u.email,
      emailVerified: true,
      passwordHash: await firebaseScrypt(u.password, salt, config),
      salt,
      displayName: `Fire ${i}`,
      photoUrl: `https://example.com/f${i}.png`,
      lastSignedInAt: '1700000100000',
      createdAt: '1700000000000',
      customAttributes: '{"role":"editor"}',
      providerUserInfo: [
        { providerId: 'password', rawId: u.email, email: u.email, federatedId: u.email },
        { providerId: 'google.com', rawId: `1098${i}`, email: u.email, displayName: `Fire ${i}` },
      ],
    });
  }
  return { json: JSON.stringify({ users: exported }, null, 2), config };
}

/** Better Auth's `user` and `account` tables as JSON rows (camelCase, its default). */
export async function betterAuthJson(users: FixtureUser[]): Promise<{ user: string; account: string }> {
  const userRows = [];
  const accountRows = [];
  for (const [i, u] of users.entries()) {
    const id = `ba${i}xxxxxxxxxxxxxxxxxxxxxxxx`.slice(0, 32);
    userRows.push({
      id,
      name: `Better ${i}`,
      email: u.email,
      emailVerified: true,
      image: null,
      createdAt: '2025-02-03T04:05:06.000Z',
      updatedAt: '2025-02-03T04:05:06.000Z',
    });
    accountRows.push({
      id: `acc${i}`,
      accountId: id,
      providerId: 'credential',
      userId: id,
      password: await betterAuthHash(u.password),
      createdAt: '2025-02-03T04:05:06.000Z',
      updatedAt: '2025-02-03T04:05:06.000Z',
    });
    accountRows.push({ id: `gh${i}`, accountId: `777${i}`, providerId: 'github', userId: id, password: null });
  }
  return { user: JSON.stringify(userRows, null, 2), account: JSON.stringify(accountRows, null, 2) };
}

/** Stack Auth's REST API list answers gathered in one JSON file, with a team and memberships. */
export function stackJson(users: FixtureUser[]): string {
  const ids = users.map((_, i) => `5f2a9c1e-0000-4000-8000-00000000000${i}`);
  const team = '7e1d0000-0000-4000-8000-000000000001';
  return JSON.stringify(
    {
      users: {
        items: users.map((u, i) => ({
          id: ids[i],
          primary_email: u.email,
          primary_email_verified: true,
          primary_email_auth_enabled: true,
          display_name: `Stack ${i}`,
          profile_image_url: null,
          signed_up_at_millis: 1_700_000_000_000,
          has_password: true,
          client_metadata: { a: i },
          client_read_only_metadata: null,
          server_metadata: { s: i },
          oauth_providers: [{ id: 'github', account_id: `gh-${i}`, email: u.email }],
          password_hash: bcryptHash(u.password),
        })),
        pagination: { next_cursor: null },
      },
      contact_channels: {
        items: users.map((_, i) => ({
          id: `cc${i}`,
          user_id: ids[i],
          type: 'email',
          value: `second${i}@stack.test`,
          is_primary: false,
          is_verified: false,
          used_for_auth: false,
        })),
      },
      teams: {
        items: [
          {
            id: team,
            display_name: 'Fixture Team',
            profile_image_url: null,
            created_at_millis: 1_700_000_000_000,
            client_metadata: null,
            client_read_only_metadata: null,
            server_metadata: null,
          },
        ],
      },
      team_memberships: { items: ids.map((id) => ({ team_id: team, user_id: id })) },
      team_permissions: { items: [{ id: '$update_team', user_id: ids[0], team_id: team }] },
    },
    null,
    2,
  );
}
