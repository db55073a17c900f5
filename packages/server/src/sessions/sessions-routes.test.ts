/**
 * `POST /auth/sessions` (server), `POST /auth/sessions/current/refresh` and
 * `DELETE /auth/sessions/current` (sign-out) over HTTP.
 */
import { headers as h } from '@latchkey/protocol';
import { describe, expect, it } from 'vitest';
import { dbOf } from '../storage/open-storage.js';
import {
  authHeaders,
  call,
  countRows,
  expectKnownError,
  refreshGrant,
  signUp,
  snapshot,
  userHeaders,
} from '../test-support/api.js';
import { testServiceForSuite } from '../test-support/backends.js';

const service = testServiceForSuite();

const refresh = (refreshToken: string) => refreshGrant(service, refreshToken);

describe('POST /auth/sessions', () => {
  it('creates a session for a user (server access) with the lifetime asked for', async () => {
    const user = await signUp(service);
    const answer = await call(service, 'POST', '/auth/sessions', {
      headers: authHeaders(service, 'server'),
      json: { user_id: user.user_id, expires_in_millis: 3_600_000 },
    });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(['access_token', 'refresh_token']);
    const me = await call(service, 'GET', '/users/me', { headers: userHeaders(service, answer.body) });
    expect(me.body.id).toBe(user.user_id);
    service.clock.advance(3_601_000);
    try {
      expect((await refresh(answer.body.refresh_token)).status).toBe(401);
      expect((await refresh(user.refresh_token)).status).toBe(200);
    } finally {
      service.clock.advance(-3_601_000);
    }
  });

  it('defaults to one year, and accepts "me" for the signed-in user', async () => {
    const user = await signUp(service);
    const answer = await call(service, 'POST', '/auth/sessions', {
      headers: userHeaders(service, user, 'server'),
      json: { user_id: 'me' },
    });
    expect(answer.status).toBe(200);
    const row = await dbOf(service.storage)
      .selectFrom('sessions')
      .select(['created_at', 'expires_at'])
      .where('user_id', '=', user.user_id)
      .orderBy('created_at', 'desc')
      .executeTakeFirstOrThrow();
    expect(row.expires_at.getTime() - row.created_at.getTime()).toBe(31_536_000_000);
  });

  it.each([
    ['an unknown user', () => ({ user_id: '00000000-0000-4000-8000-000000000000' }), 'USER_ID_DOES_NOT_EXIST'],
    ['a user id that is not a UUID', () => ({ user_id: 'bob' }), 'USER_ID_DOES_NOT_EXIST'],
    ['"me" without a user', () => ({ user_id: 'me' }), 'CANNOT_GET_OWN_USER_WITHOUT_USER'],
    ['no user id', () => ({}), 'SCHEMA_ERROR'],
    ['a numeric user id', () => ({ user_id: 5 }), 'SCHEMA_ERROR'],
    ['an extra field', () => ({ user_id: 'me', admin: true }), 'SCHEMA_ERROR'],
    ['a lifetime over 367 days', () => ({ user_id: 'me', expires_in_millis: 368 * 86_400_000 }), 'SCHEMA_ERROR'],
    ['a negative lifetime', () => ({ user_id: 'me', expires_in_millis: -1 }), 'SCHEMA_ERROR'],
    ['a zero lifetime', () => ({ user_id: 'me', expires_in_millis: 0 }), 'SCHEMA_ERROR'],
    ['a null lifetime', () => ({ user_id: 'me', expires_in_millis: null }), 'SCHEMA_ERROR'],
    ['a fractional lifetime', () => ({ user_id: 'me', expires_in_millis: 1.5 }), 'SCHEMA_ERROR'],
    ['a string lifetime', () => ({ user_id: 'me', expires_in_millis: '1000' }), 'SCHEMA_ERROR'],
  ] as const)('refuses %s', async (_name, body, code) => {
    const before = await snapshot(service);
    const answer = await call(service, 'POST', '/auth/sessions', {
      headers: authHeaders(service, 'server'),
      json: body(),
    });
    expectKnownError(answer, code, 400);
    if (code === 'USER_ID_DOES_NOT_EXIST') expect(answer.body.details.user_id).toBe(body().user_id);
    expect(await snapshot(service)).toEqual(before);
  });

  it.each([
    ['1e999 (JSON for Infinity)', '1e999'],
    ['a number beyond 2^53', '9007199254740993123'],
  ])('refuses a lifetime of %s with SCHEMA_ERROR', async (_name, number) => {
    const user = await signUp(service);
    const before = await snapshot(service);
    const answer = await call(service, 'POST', '/auth/sessions', {
      headers: { ...authHeaders(service, 'server'), 'content-type': 'application/json' },
      body: `{"user_id":"${user.user_id}","expires_in_millis":${number}}`,
    });
    expectKnownError(answer, 'SCHEMA_ERROR', 400);
    expect(await snapshot(service)).toEqual(before);
  });

  it('accepts exactly 367 days, the longest lifetime', async () => {
    const user = await signUp(service);
    const answer = await call(service, 'POST', '/auth/sessions', {
      headers: authHeaders(service, 'server'),
      json: { user_id: user.user_id, expires_in_millis: 367 * 86_400_000 },
    });
    expect(answer.status).toBe(200);
  });

  it('cannot mint a session for a deleted user from their access token ("me"): the token ended with them', async () => {
    const user = await signUp(service);
    await call(service, 'DELETE', '/users/me', { headers: userHeaders(service, user, 'server') });
    const before = await snapshot(service);
    const answer = await call(service, 'POST', '/auth/sessions', {
      headers: userHeaders(service, user, 'server'),
      json: { user_id: 'me' },
    });
    expectKnownError(answer, 'ACCESS_TOKEN_EXPIRED', 401);
    expect(await snapshot(service)).toEqual(before);
    expectKnownError(await refresh(user.refresh_token), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401, false);
  });

  it('refuses a user of another project', async () => {
    const other = await service.createOtherProject();
    const stranger = await signUp({ ...service, projectId: other.projectId, keys: other.keys });
    const answer = await call(service, 'POST', '/auth/sessions', {
      headers: authHeaders(service, 'server'),
      json: { user_id: stranger.user_id },
    });
    expectKnownError(answer, 'USER_ID_DOES_NOT_EXIST', 400);
  });
});

describe('POST /auth/sessions/current/refresh', () => {
  const refreshCurrent = (extra: Record<string, string>) =>
    call(service, 'POST', '/auth/sessions/current/refresh', { headers: { ...authHeaders(service), ...extra } });

  it("answers a new access token for the refresh token's session, which stays the same", async () => {
    const user = await signUp(service);
    const answer = await refreshCurrent({ [h.refreshToken]: user.refresh_token });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body)).toEqual(['access_token']);
    const me = await call(service, 'GET', '/users/me', { headers: userHeaders(service, answer.body) });
    expect(me.body.id).toBe(user.user_id);
    // Not rotated: the refresh token keeps working, here and at the token endpoint.
    expect((await refreshCurrent({ [h.refreshToken]: user.refresh_token })).status).toBe(200);
    expect((await refresh(user.refresh_token)).status).toBe(200);
  });

  it.each([
    ['no refresh token', () => ({})],
    ['an invalid refresh token', () => ({ [h.refreshToken]: 'something-invalid' })],
  ])('answers REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED for %s', async (_name, extra) => {
    expectKnownError(await refreshCurrent(extra()), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401);
  });

  it('refuses a signed-out session, and one of another project', async () => {
    const user = await signUp(service);
    await call(service, 'DELETE', '/auth/sessions/current', { headers: userHeaders(service, user), json: {} });
    const ended = await refreshCurrent({ [h.refreshToken]: user.refresh_token });
    expectKnownError(ended, 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401);
    const other = await service.createOtherProject();
    const stranger = await signUp({ ...service, projectId: other.projectId, keys: other.keys });
    const foreign = await refreshCurrent({ [h.refreshToken]: stranger.refresh_token });
    expectKnownError(foreign, 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401);
  });

  it('needs project authentication', async () => {
    const answer = await call(service, 'POST', '/auth/sessions/current/refresh', {
      headers: { [h.refreshToken]: 'x' },
    });
    expectKnownError(answer, 'ACCESS_TYPE_REQUIRED', 400, false);
  });
});

describe('DELETE /auth/sessions/current', () => {
  it('revokes the session of the refresh token: refresh then fails, other sessions live on', async () => {
    const user = await signUp(service);
    const second = await call(service, 'POST', '/auth/password/sign-in', {
      headers: authHeaders(service),
      json: { email: user.email, password: user.password },
    });
    const answer = await call(service, 'DELETE', '/auth/sessions/current', {
      headers: userHeaders(service, user),
      json: {},
    });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ success: true });
    expectKnownError(await refresh(user.refresh_token), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401, false);
    expect((await refresh(second.body.refresh_token)).status).toBe(200);
  });

  it.each([
    ['no refresh token', () => ({})],
    ['an empty refresh token', () => ({ [h.refreshToken]: '' })],
    ['an unknown refresh token', () => ({ [h.refreshToken]: 'y'.repeat(45) })],
    ['the string "undefined"', () => ({ [h.refreshToken]: 'undefined' })],
  ])('answers REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED for %s and deletes nothing', async (_name, extra) => {
    await signUp(service);
    const sessions = await countRows(service, 'sessions');
    const answer = await call(service, 'DELETE', '/auth/sessions/current', {
      headers: { ...authHeaders(service), ...extra() },
    });
    expectKnownError(answer, 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401);
    expect(await countRows(service, 'sessions')).toBe(sessions);
  });

  it("cannot sign out another project's session", async () => {
    const other = await service.createOtherProject();
    const otherService = { ...service, projectId: other.projectId, keys: other.keys };
    const stranger = await signUp(otherService);
    const answer = await call(service, 'DELETE', '/auth/sessions/current', {
      headers: { ...authHeaders(service), [h.refreshToken]: stranger.refresh_token },
    });
    expectKnownError(answer, 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401);
    expect(await countRows(service, 'sessions', other.projectId)).toBe(1);
  });
});
