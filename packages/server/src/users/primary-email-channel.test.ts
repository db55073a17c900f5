/**
 * The primary e-mail of a user and their contact channels never disagree:
 * every user write that names the primary e-mail (sign-up, `POST /users`,
 * `PATCH /users/{id}`, `PATCH /users/me` does not touch it) leaves exactly the
 * matching primary channel, and sign-in follows the channels.
 */
import { describe, expect, it } from 'vitest';
import { dbOf } from '../storage/open-storage.js';
import {
  authHeaders,
  call,
  expectKnownError,
  goodPassword,
  newEmail,
  signUp,
  userHeaders,
} from '../test-support/api.js';
import { testServiceForSuite } from '../test-support/backends.js';

const service = testServiceForSuite();

/** The user's channels as rows, primary first. */
function channelsOf(userId: string) {
  return dbOf(service.storage)
    .selectFrom('contact_channels')
    .select(['value', 'is_primary', 'is_verified', 'used_for_auth'])
    .where('user_id', '=', userId)
    .orderBy('is_primary', 'desc')
    .orderBy('created_at')
    .execute();
}

const server = () => authHeaders(service, 'server');

function signIn(email: string, password = goodPassword) {
  return call(service, 'POST', '/auth/password/sign-in', {
    headers: authHeaders(service),
    json: { email, password },
  });
}

describe('primary e-mail and contact channels', () => {
  it('sign-up makes the e-mail a primary, unverified sign-in channel', async () => {
    const email = newEmail();
    const { user_id } = await signUp(service, email);
    expect(await channelsOf(user_id)).toEqual([
      { value: email, is_primary: true, is_verified: false, used_for_auth: true },
    ]);
  });

  it('POST /users without an e-mail makes no channel; with one, a channel with its flags', async () => {
    const bare = await call(service, 'POST', '/users', { headers: server(), json: {} });
    expect(await channelsOf(bare.body.id)).toEqual([]);
    const email = newEmail();
    const made = await call(service, 'POST', '/users', {
      headers: server(),
      json: { primary_email: email, primary_email_verified: true, primary_email_auth_enabled: false },
    });
    expect(await channelsOf(made.body.id)).toEqual([
      { value: email, is_primary: true, is_verified: true, used_for_auth: false },
    ]);
  });

  it('PATCH /users/{id} with a new e-mail changes the primary channel, unverified; sign-in follows', async () => {
    const first = newEmail();
    const { user_id } = await signUp(service, first);
    await call(service, 'PATCH', `/users/${user_id}`, {
      headers: server(),
      json: { primary_email_verified: true },
    });
    const second = newEmail();
    const changed = await call(service, 'PATCH', `/users/${user_id}`, {
      headers: server(),
      json: { primary_email: second },
    });
    expect(changed.body).toMatchObject({ primary_email: second, primary_email_verified: false });
    expect(await channelsOf(user_id)).toEqual([
      { value: second, is_primary: true, is_verified: false, used_for_auth: true },
    ]);
    expect((await signIn(second)).body.user_id).toBe(user_id);
    expectKnownError(await signIn(first), 'EMAIL_PASSWORD_MISMATCH', 400);
  });

  it('PATCH /users/{id} turning sign-in off and on moves the flag on the channel', async () => {
    const email = newEmail();
    const { user_id } = await signUp(service, email);
    await call(service, 'PATCH', `/users/${user_id}`, {
      headers: server(),
      json: { primary_email_auth_enabled: false },
    });
    expect((await channelsOf(user_id))[0]).toMatchObject({ used_for_auth: false });
    expectKnownError(await signIn(email), 'EMAIL_PASSWORD_MISMATCH', 400);
    await call(service, 'PATCH', `/users/${user_id}`, {
      headers: server(),
      json: { primary_email_auth_enabled: true },
    });
    expect((await signIn(email)).status).toBe(200);
  });

  it('PATCH /users/{id} with a null e-mail removes the primary channel', async () => {
    const { user_id } = await signUp(service);
    const changed = await call(service, 'PATCH', `/users/${user_id}`, {
      headers: server(),
      json: { primary_email: null, primary_email_auth_enabled: false },
    });
    expect(changed.body).toMatchObject({ primary_email: null, primary_email_verified: false });
    expect(await channelsOf(user_id)).toEqual([]);
  });

  it("refuses another user's sign-in e-mail and changes nothing", async () => {
    const taken = newEmail();
    await signUp(service, taken);
    const mine = newEmail();
    const { user_id } = await signUp(service, mine);
    const answer = await call(service, 'PATCH', `/users/${user_id}`, {
      headers: server(),
      json: { primary_email: taken.toUpperCase() },
    });
    expectKnownError(answer, 'USER_EMAIL_ALREADY_EXISTS', 409);
    expect(await channelsOf(user_id)).toEqual([
      { value: mine, is_primary: true, is_verified: false, used_for_auth: true },
    ]);
  });

  it('a client profile update leaves the channels alone', async () => {
    const email = newEmail();
    const tokens = await signUp(service, email);
    await call(service, 'PATCH', '/users/me', {
      headers: userHeaders(service, tokens),
      json: { display_name: 'Ada' },
    });
    expect(await channelsOf(tokens.user_id)).toEqual([
      { value: email, is_primary: true, is_verified: false, used_for_auth: true },
    ]);
  });
});
