/**
 * Users as server code manages them, over HTTP: `POST /users` (passwords and
 * imported hashes), `GET`, `PATCH` and `DELETE /users/:userId`. Bad input is a
 * known error that changes nothing; clients are refused.
 */
import { constants, headers as h } from '@latchkey/protocol';
import { hash as argon2Hash } from '@node-rs/argon2';
import bcrypt from 'bcryptjs';
import { describe, expect, it } from 'vitest';
import { dbOf } from '../storage/open-storage.js';
import {
  authHeaders,
  call,
  countRows,
  expectKnownError,
  expectStatusRefusal,
  goodPassword,
  newEmail,
  refreshGrant,
  signUp,
  snapshot,
  userHeaders,
} from '../test-support/api.js';
import { testServiceForSuite } from '../test-support/backends.js';
import {
  betterAuthHash,
  betterAuthScrypt,
  firebaseHashConfig,
  firebaseScrypt,
  firebaseUserHash,
  passlibScrypt,
  pbkdf2Sha256,
} from '../test-support/imported-hashes.js';

const service = testServiceForSuite();

const server = () => authHeaders(service, 'server');

async function createUser(json: Record<string, unknown>) {
  return call(service, 'POST', '/users', { headers: server(), json });
}

async function signIn(email: string, password: string) {
  return call(service, 'POST', '/auth/password/sign-in', { headers: authHeaders(service), json: { email, password } });
}

async function storedHash(userId: string): Promise<string | null> {
  const row = await dbOf(service.storage)
    .selectFrom('users')
    .select('password_hash')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return row.password_hash;
}

describe('POST /users', () => {
  it('creates a user with every field a server may set, answering 201 with the server view', async () => {
    const email = newEmail('erin');
    const answer = await createUser({
      primary_email: email,
      password: goodPassword,
      primary_email_auth_enabled: true,
      display_name: 'Erin',
      primary_email_verified: true,
      client_metadata: { a: 1 },
      client_read_only_metadata: { b: 2 },
      server_metadata: { c: 3 },
    });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      primary_email: email,
      primary_email_verified: true,
      primary_email_auth_enabled: true,
      display_name: 'Erin',
      has_password: true,
      auth_with_email: true,
      client_metadata: { a: 1 },
      client_read_only_metadata: { b: 2 },
      server_metadata: { c: 3 },
    });
    expect((await signIn(email.toUpperCase(), goodPassword)).status).toBe(200);
  });

  it('creates a user whose metadata is null unless given, and keeps an explicit {} or null', async () => {
    const bare = await createUser({ display_name: 'Bare' });
    expect(bare.status).toBe(201);
    expect(bare.body).toMatchObject({ client_metadata: null, client_read_only_metadata: null, server_metadata: null });
    const given = await createUser({ client_metadata: {}, client_read_only_metadata: null, server_metadata: {} });
    expect(given.status).toBe(201);
    // (`toMatchObject` takes null for `{}`: compare the three fields whole.)
    const { client_metadata, client_read_only_metadata, server_metadata } = given.body;
    expect({ client_metadata, client_read_only_metadata, server_metadata }).toEqual({
      client_metadata: {},
      client_read_only_metadata: null,
      server_metadata: {},
    });
    const listed = await call(service, 'GET', `/users/${bare.body.id}`, { headers: server() });
    expect(listed.body).toMatchObject({
      client_metadata: null,
      client_read_only_metadata: null,
      server_metadata: null,
    });
  });

  it('creates a user without a password whose e-mail is not for signing in, by default', async () => {
    const email = newEmail('bulk');
    const answer = await createUser({ primary_email: email, display_name: 'Bulk' });
    expect(answer.status).toBe(201);
    expect(answer.body).toMatchObject({
      has_password: false,
      primary_email_auth_enabled: false,
      auth_with_email: false,
    });
    // Not a sign-in e-mail: the same address may be used again.
    expect((await createUser({ primary_email: email })).status).toBe(201);
  });

  it('refuses a sign-in e-mail another user signs in with, whatever its case, and creates nothing', async () => {
    const user = await signUp(service);
    const before = await countRows(service, 'users');
    const answer = await createUser({ primary_email: user.email.toUpperCase(), primary_email_auth_enabled: true });
    expectKnownError(answer, 'USER_EMAIL_ALREADY_EXISTS', 409);
    expect(await countRows(service, 'users')).toBe(before);
  });

  it('takes an address the sign-in rule refuses (no top-level domain), as the reference does', async () => {
    const answer = await createUser({ primary_email: 'imported_user@mailhost' });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body).toMatchObject({
      primary_email: 'imported_user@mailhost',
      primary_email_verified: false,
      primary_email_auth_enabled: false,
    });
    expectKnownError(await createUser({ primary_email: 'two@at@signs' }), 'SCHEMA_ERROR', 400);
  });

  it('stores an empty display name as none', async () => {
    const answer = await createUser({ display_name: '' });
    expect(answer.status).toBe(201);
    expect(answer.body.display_name).toBeNull();
  });

  const badHash = "Invalid password hash. Make sure it's a supported algorithm in Modular Crypt Format.";
  it.each([
    [
      'an e-mail sign-in without an e-mail',
      { primary_email_auth_enabled: true },
      'primary_email_auth_enabled cannot be true without primary_email',
    ],
    [
      'a verified e-mail without an e-mail',
      { primary_email_verified: true },
      'primary_email_verified cannot be true without primary_email',
    ],
    [
      'both password and password_hash',
      { password: goodPassword, password_hash: bcrypt.hashSync('x', 4) },
      'Cannot set both password and password_hash at the same time.',
    ],
    [
      'password null and a password_hash',
      { password: null, password_hash: bcrypt.hashSync('x', 4) },
      'Cannot set both password and password_hash at the same time.',
    ],
    ['a password hash in no known format', { password_hash: 'md5:5f4dcc3b5aa765d61d8327deb882cf99' }, badHash],
    ['a bcrypt hash of cost 15 (too slow to verify)', { password_hash: `$2b$15$${'a'.repeat(53)}` }, badHash],
    [
      'an argon2id hash of 1 GiB',
      { password_hash: `$argon2id$v=19$m=1048576,t=2,p=1$${'a'.repeat(22)}$${'b'.repeat(43)}` },
      badHash,
    ],
    ['a scrypt hash of 1 GiB', { password_hash: `$scrypt$ln=20,r=8,p=1$${'a'.repeat(22)}$${'b'.repeat(43)}` }, badHash],
    [
      'a PBKDF2-SHA256 hash of 10 million iterations',
      { password_hash: `$pbkdf2-sha256$i=10000000$${'a'.repeat(22)}$${'b'.repeat(43)}` },
      badHash,
    ],
    [
      'a Firebase scrypt hash of mem_cost 24',
      {
        password_hash: firebaseScrypt(
          { ...firebaseHashConfig(), memCost: 24 },
          { salt: 'c2FsdHNhbHQ=', passwordHash: `${'B'.repeat(86)}==` },
        ),
      },
      badHash,
    ],
    [
      'a Better Auth hash as Better Auth stores it (salt:key, not carried)',
      { password_hash: `${'ab'.repeat(16)}:${'cd'.repeat(64)}` },
      badHash,
    ],
    ['a malformed scrypt hash', { password_hash: `$scrypt$ln=14,r=8$${'a'.repeat(22)}$${'b'.repeat(43)}` }, badHash],
  ])("refuses %s with the reference's plain 400 and creates nothing", async (_, json, text) => {
    const before = await countRows(service, 'users');
    expectStatusRefusal(await createUser(json), 400, text);
    expect(await countRows(service, 'users')).toBe(before);
  });

  it.each([
    ['an unknown field', { primary_email: newEmail(), is_admin: true }],
    ['a numeric display name', { display_name: 42 }],
    ['metadata over 16 KiB', { server_metadata: { big: 'x'.repeat(17_000) } }],
    ['a TOTP secret of 3 bytes', { totp_secret_base64: 'AAAA' }],
  ])('refuses %s with SCHEMA_ERROR and creates nothing', async (_, json) => {
    const before = await countRows(service, 'users');
    expectKnownError(await createUser(json), 'SCHEMA_ERROR', 400);
    expect(await countRows(service, 'users')).toBe(before);
  });

  it('takes a password of any length up to the maximum, as the original backend: server code keeps its own rules', async () => {
    const email = newEmail();
    const created = await createUser({ primary_email: email, password: 'testing', primary_email_auth_enabled: true });
    expect(created.status, created.text).toBe(201);
    expect((await signIn(email, 'testing')).status).toBe(200);
    const long = 'p'.repeat(constants.passwordMaxLength + 1);
    expectKnownError(await createUser({ primary_email: newEmail(), password: long }), 'PASSWORD_TOO_LONG', 400);
  });

  it('is refused to client access', async () => {
    const answer = await call(service, 'POST', '/users', { headers: authHeaders(service), json: {} });
    expectKnownError(answer, 'INSUFFICIENT_ACCESS_TYPE', 401);
  });
});

describe('imported password hashes', () => {
  it('signs in with a bcrypt hash, then keeps an argon2id hash of the same password', async () => {
    const email = newEmail('moved');
    const created = await createUser({
      primary_email: email,
      primary_email_auth_enabled: true,
      password_hash: bcrypt.hashSync('imported-pass-1', 4),
    });
    expect(created.body.has_password).toBe(true);
    expectKnownError(await signIn(email, 'imported-pass-2'), 'EMAIL_PASSWORD_MISMATCH', 400);
    expect(await storedHash(created.body.id)).toMatch(/^\$2b\$04\$/);
    expect((await signIn(email, 'imported-pass-1')).status).toBe(200);
    const upgraded = await storedHash(created.body.id);
    expect(upgraded).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect((await signIn(email, 'imported-pass-1')).status).toBe(200);
    expect(await storedHash(created.body.id)).toBe(upgraded);
  });

  it('never lets a bcrypt hash match a longer password on its first 72 bytes', async () => {
    const email = newEmail('long');
    const password = 'p'.repeat(72);
    await createUser({
      primary_email: email,
      primary_email_auth_enabled: true,
      password_hash: bcrypt.hashSync(password, 4),
    });
    expectKnownError(await signIn(email, `${password}-and-more`), 'EMAIL_PASSWORD_MISMATCH', 400);
  });

  it('signs in with an argon2id hash of other parameters and upgrades it', async () => {
    const email = newEmail('argon');
    const hash = await argon2Hash('imported-pass-3', { algorithm: 2, memoryCost: 8192, timeCost: 3 });
    const created = await createUser({ primary_email: email, primary_email_auth_enabled: true, password_hash: hash });
    expect(created.status).toBe(201);
    expect((await signIn(email, 'imported-pass-3')).status).toBe(200);
    expect(await storedHash(created.body.id)).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });
});

describe('imported password hashes of other products', () => {
  const firebase = firebaseHashConfig();
  it.each([
    [
      'an argon2i hash',
      () => argon2Hash('moved-pass-1', { algorithm: 1, memoryCost: 4096, timeCost: 3 }),
      'moved-pass-1',
    ],
    ['a scrypt PHC hash (passlib)', () => passlibScrypt('moved-pass-2'), 'moved-pass-2'],
    ['a PBKDF2-SHA256 hash (passlib)', () => pbkdf2Sha256('moved-pass-3', 29_000, 'passlib'), 'moved-pass-3'],
    ['a PBKDF2-SHA256 PHC hash', () => pbkdf2Sha256('moved-pass-4', 600_000, 'phc'), 'moved-pass-4'],
    [
      'a Firebase scrypt hash',
      () => firebaseScrypt(firebase, firebaseUserHash('moved-pass-5', firebase)),
      'moved-pass-5',
    ],
    ['a Better Auth scrypt hash', () => betterAuthScrypt(betterAuthHash('moved-pass-6')), 'moved-pass-6'],
  ])('signs in with %s, refuses a wrong password, then keeps argon2id', async (_, makeHash, password) => {
    const email = newEmail('moved');
    const hash = await makeHash();
    const created = await createUser({ primary_email: email, primary_email_auth_enabled: true, password_hash: hash });
    expect(created.status, created.text).toBe(201);
    expect(created.body.has_password).toBe(true);
    expectKnownError(await signIn(email, `${password}-not`), 'EMAIL_PASSWORD_MISMATCH', 400);
    expect(await storedHash(created.body.id)).toBe(hash);
    expect((await signIn(email, password)).status).toBe(200);
    const upgraded = await storedHash(created.body.id);
    expect(upgraded).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect((await signIn(email, password)).status).toBe(200);
    expectKnownError(await signIn(email, `${password}-not`), 'EMAIL_PASSWORD_MISMATCH', 400);
    expect(await storedHash(created.body.id)).toBe(upgraded);
  });

  it('takes one on PATCH /users/:userId, and refuses an absurd one there, changing nothing', async () => {
    const user = await signUp(service);
    const hash = firebaseScrypt(firebase, firebaseUserHash('moved-pass-7', firebase));
    const answer = await call(service, 'PATCH', `/users/${user.user_id}`, {
      headers: server(),
      json: { password_hash: hash },
    });
    expect(answer.status, answer.text).toBe(200);
    expectKnownError(await signIn(user.email, user.password), 'EMAIL_PASSWORD_MISMATCH', 400);
    expect((await signIn(user.email, 'moved-pass-7')).status).toBe(200);
    expect(await storedHash(user.user_id)).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    const before = await snapshot(service);
    const absurd = await call(service, 'PATCH', `/users/${user.user_id}`, {
      headers: server(),
      json: { password_hash: `$scrypt$ln=16,r=8,p=64$${'a'.repeat(22)}$${'b'.repeat(43)}` },
    });
    expectStatusRefusal(
      absurd,
      400,
      "Invalid password hash. Make sure it's a supported algorithm in Modular Crypt Format.",
    );
    expect(await snapshot(service)).toEqual(before);
  });
});

describe('GET /users/:userId', () => {
  it('answers the server view of a user of the project', async () => {
    const user = await signUp(service);
    const answer = await call(service, 'GET', `/users/${user.user_id.toUpperCase()}`, { headers: server() });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({ id: user.user_id, primary_email: user.email, server_metadata: null });
  });

  it.each(['00000000-0000-4000-8000-000000000000', 'not-a-uuid', "1'%20or%20'1'='1", '%25', 'x'.repeat(100)])(
    'answers USER_NOT_FOUND for %s',
    async (id) => {
      expectKnownError(await call(service, 'GET', `/users/${id}`, { headers: server() }), 'USER_NOT_FOUND', 404);
    },
  );

  it('answers USER_NOT_FOUND for a user of another project', async () => {
    const other = await service.createOtherProject();
    const stranger = await call(service, 'POST', '/users', {
      headers: { ...server(), [h.projectId]: other.projectId, [h.secretServerKey]: other.keys.secretServerKey },
      json: { primary_email: newEmail() },
    });
    expect(stranger.status).toBe(201);
    expectKnownError(
      await call(service, 'GET', `/users/${stranger.body.id}`, { headers: server() }),
      'USER_NOT_FOUND',
      404,
    );
  });

  it('refuses a NUL in the id with SCHEMA_ERROR, never a 500', async () => {
    expectKnownError(await call(service, 'GET', '/users/a%00b', { headers: server() }), 'SCHEMA_ERROR', 400);
  });

  it('is refused to client access, signed in or not', async () => {
    const user = await signUp(service);
    const answer = await call(service, 'GET', `/users/${user.user_id}`, { headers: userHeaders(service, user) });
    expectKnownError(answer, 'INSUFFICIENT_ACCESS_TYPE', 401);
  });
});

describe('PATCH /users/:userId', () => {
  it('changes what a server may set and answers the server view', async () => {
    const user = await signUp(service);
    const answer = await call(service, 'PATCH', `/users/${user.user_id}`, {
      headers: server(),
      json: {
        display_name: 'Erin E.',
        client_read_only_metadata: { b: 5 },
        server_metadata: { c: 4 },
        primary_email_verified: true,
      },
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      display_name: 'Erin E.',
      client_read_only_metadata: { b: 5 },
      server_metadata: { c: 4 },
      primary_email_verified: true,
    });
  });

  // The reference keeps a verified e-mail verified when it changes: a deliberate difference (docs).
  it('makes a new e-mail unverified unless told otherwise, and keeps sign-in e-mails unique', async () => {
    const user = await signUp(service);
    const other = await signUp(service);
    await call(service, 'PATCH', `/users/${user.user_id}`, {
      headers: server(),
      json: { primary_email_verified: true },
    });
    const moved = newEmail('moved');
    const answer = await call(service, 'PATCH', `/users/${user.user_id}`, {
      headers: server(),
      json: { primary_email: moved },
    });
    expect(answer.body).toMatchObject({ primary_email: moved, primary_email_verified: false });
    expect((await signIn(moved, user.password)).status).toBe(200);
    const before = await snapshot(service);
    const clash = await call(service, 'PATCH', `/users/${user.user_id}`, {
      headers: server(),
      json: { primary_email: other.email.toUpperCase() },
    });
    expectKnownError(clash, 'USER_EMAIL_ALREADY_EXISTS', 409);
    expect(await snapshot(service)).toEqual(before);
  });

  it('removes the e-mail with null, ending signing in with it, even while it was the sign-in e-mail', async () => {
    const user = await signUp(service);
    await call(service, 'PATCH', `/users/${user.user_id}`, {
      headers: server(),
      json: { primary_email_verified: true },
    });
    const answer = await call(service, 'PATCH', `/users/${user.user_id}`, {
      headers: server(),
      json: { primary_email: null },
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({
      primary_email: null,
      primary_email_verified: false,
      primary_email_auth_enabled: false,
    });
    const channels = await call(service, 'GET', `/contact-channels?user_id=${user.user_id}`, { headers: server() });
    expect(channels.body.items).toEqual([]);
    expectKnownError(await signIn(user.email, user.password), 'EMAIL_PASSWORD_MISMATCH', 400);
    // The address is free again for another user to sign in with.
    const again = await createUser({ primary_email: user.email, primary_email_auth_enabled: true });
    expect(again.status, again.text).toBe(201);
  });

  it('refuses null with e-mail sign-in or a verified e-mail asked in the same change, changing nothing', async () => {
    const user = await signUp(service);
    const before = await snapshot(service);
    for (const [json, text] of [
      [
        { primary_email: null, primary_email_auth_enabled: true },
        'primary_email_auth_enabled cannot be true without primary_email',
      ],
      [
        { primary_email: null, primary_email_verified: true },
        'primary_email_verified cannot be true without primary_email',
      ],
    ] as const) {
      const answer = await call(service, 'PATCH', `/users/${user.user_id}`, { headers: server(), json });
      expectStatusRefusal(answer, 400, text);
    }
    expect(await snapshot(service)).toEqual(before);
  });

  it('sets a password, signing the user out of every session; null removes it', async () => {
    const user = await signUp(service);
    const answer = await call(service, 'PATCH', `/users/${user.user_id}`, {
      headers: server(),
      json: { password: 'server-set-pw-1' },
    });
    expect(answer.status).toBe(200);
    expectKnownError(await refreshGrant(service, user.refresh_token), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401, false);
    expectKnownError(await signIn(user.email, user.password), 'EMAIL_PASSWORD_MISMATCH', 400);
    expect((await signIn(user.email, 'server-set-pw-1')).status).toBe(200);
    // No minimum length for a password server code sets, as the original backend.
    const short = await call(service, 'PATCH', `/users/${user.user_id}`, {
      headers: server(),
      json: { password: 'short' },
    });
    expect(short.status, short.text).toBe(200);
    expect((await signIn(user.email, 'short')).status).toBe(200);
    const removed = await call(service, 'PATCH', `/users/${user.user_id}`, {
      headers: server(),
      json: { password: null },
    });
    expect(removed.body).toMatchObject({ has_password: false, auth_with_email: false });
    expectKnownError(await signIn(user.email, 'short'), 'EMAIL_PASSWORD_MISMATCH', 400);
  });

  it('refuses bad input and unknown users, changing nothing', async () => {
    const user = await signUp(service);
    const before = await snapshot(service);
    for (const json of [
      { primary_email: 'not an e-mail' },
      { server_metadata: { big: 'x'.repeat(17_000) } },
      { nope: 1 },
      [],
    ]) {
      expectKnownError(
        await call(service, 'PATCH', `/users/${user.user_id}`, { headers: server(), json }),
        'SCHEMA_ERROR',
        400,
      );
    }
    const long = 'p'.repeat(constants.passwordMaxLength + 1);
    expectKnownError(
      await call(service, 'PATCH', `/users/${user.user_id}`, { headers: server(), json: { password: long } }),
      'PASSWORD_TOO_LONG',
      400,
    );
    expectKnownError(
      await call(service, 'PATCH', '/users/00000000-0000-4000-8000-000000000000', {
        headers: server(),
        json: { display_name: 'x' },
      }),
      'USER_NOT_FOUND',
      404,
    );
    expect(await snapshot(service)).toEqual(before);
  });
});

describe('DELETE /users/:userId', () => {
  it('deletes the user and their sessions; their access tokens stop working at once', async () => {
    const user = await signUp(service);
    const answer = await call(service, 'DELETE', `/users/${user.user_id}`, { headers: server() });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ success: true });
    expectKnownError(
      await call(service, 'GET', `/users/${user.user_id}`, { headers: server() }),
      'USER_NOT_FOUND',
      404,
    );
    expectKnownError(await refreshGrant(service, user.refresh_token), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401, false);
    const me = await call(service, 'GET', '/users/me', { headers: userHeaders(service, user, 'server') });
    expectKnownError(me, 'ACCESS_TOKEN_EXPIRED', 401);
    expectKnownError(
      await call(service, 'DELETE', `/users/${user.user_id}`, { headers: server() }),
      'USER_NOT_FOUND',
      404,
    );
  });

  it('is refused to client access', async () => {
    const user = await signUp(service);
    const answer = await call(service, 'DELETE', `/users/${user.user_id}`, { headers: userHeaders(service, user) });
    expectKnownError(answer, 'INSUFFICIENT_ACCESS_TYPE', 401);
    expect((await call(service, 'GET', `/users/${user.user_id}`, { headers: server() })).status).toBe(200);
  });
});
