/** The OAuth token endpoint (wire-protocol §5.3): refresh without rotation, real error statuses. */
import { headers as h } from '@latchkey/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Answer, authHeaders, call, expectKnownError, signUp, userHeaders } from '../test-support/api.js';
import { startTestService, type TestService } from '../testing/index.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service?.close());

const form = 'application/x-www-form-urlencoded;charset=UTF-8';

function refresh(fields: Record<string, string>, headers: Record<string, string> = {}): Promise<Answer> {
  return call(service, 'POST', '/auth/oauth/token', {
    headers: { 'content-type': form, accept: 'application/json', ...headers },
    body: new URLSearchParams(fields).toString(),
  });
}

const client = () => ({ client_id: service.projectId, client_secret: service.keys.publishableClientKey });

describe('grant_type=refresh_token', () => {
  it('answers exactly 200 {access_token, token_type, expires_in, scope} and no refresh token (decision b)', async () => {
    const user = await signUp(service);
    const answer = await refresh({ refresh_token: user.refresh_token, grant_type: 'refresh_token', ...client() });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Object.keys(answer.body).sort()).toEqual(['access_token', 'expires_in', 'scope', 'token_type']);
    expect(answer.body).toMatchObject({ token_type: 'Bearer', expires_in: 600, scope: 'legacy' });
    const me = await call(service, 'GET', '/users/me', { headers: userHeaders(service, answer.body) });
    expect(me.body.id).toBe(user.user_id);
  });

  it('keeps the refresh token valid after refreshing (not rotated)', async () => {
    const user = await signUp(service);
    for (let i = 0; i < 3; i++) {
      const answer = await refresh({ refresh_token: user.refresh_token, grant_type: 'refresh_token', ...client() });
      expect(answer.status).toBe(200);
    }
  });

  it('marks the user active at refresh time (service clock)', async () => {
    const user = await signUp(service);
    service.clock.advance(3_600_000);
    const expected = service.clock.now();
    const refreshed = await refresh({ refresh_token: user.refresh_token, grant_type: 'refresh_token', ...client() });
    const me = await call(service, 'GET', '/users/me', { headers: userHeaders(service, refreshed.body, 'server') });
    service.clock.advance(-3_600_000);
    expect(me.body.last_active_at_millis).toBeGreaterThanOrEqual(expected);
    expect(me.body.last_active_at_millis).toBeLessThan(expected + 60_000);
  });

  it('writes the session’s last use at most once a minute, and on a new day', async () => {
    const user = await signUp(service);
    const grant = { refresh_token: user.refresh_token, grant_type: 'refresh_token', ...client() };
    const lastUsed = async () => {
      const sessions = await call(service, 'GET', `/auth/sessions?user_id=${user.user_id}`, {
        headers: authHeaders(service, 'server'),
      });
      return sessions.body.items[0].last_used_at_millis as number;
    };
    const start = await lastUsed();
    service.clock.advance(30_000);
    try {
      expect((await refresh(grant)).status).toBe(200);
      expect(await lastUsed()).toBe(start); // half a minute: not written
      service.clock.advance(31_000);
      let at = service.clock.now();
      expect((await refresh(grant)).status).toBe(200);
      expect(await lastUsed()).toBeGreaterThanOrEqual(at); // past the minute: written
      // The first refresh of a UTC day is written whatever the minute, so the day's activity counts it.
      const day = 24 * 60 * 60_000;
      const toMidnight = day - (service.clock.now() % day);
      service.clock.advance(toMidnight);
      at = service.clock.now();
      expect((await refresh(grant)).status).toBe(200);
      expect(await lastUsed()).toBeGreaterThanOrEqual(at);
      service.clock.advance(-toMidnight);
    } finally {
      service.clock.advance(-61_000);
    }
  });

  it('accepts client_secret_basic too', async () => {
    const user = await signUp(service);
    const basic = Buffer.from(`${service.projectId}:${service.keys.publishableClientKey}`).toString('base64');
    const answer = await refresh(
      { refresh_token: user.refresh_token, grant_type: 'refresh_token' },
      { authorization: `Basic ${basic}` },
    );
    expect(answer.status).toBe(200);
  });
});

describe('refusals (real statuses; no override header on this endpoint)', () => {
  it.each([
    ['an unknown refresh token', () => ({ refresh_token: 'x'.repeat(45) })],
    ['the string "undefined"', () => ({ refresh_token: 'undefined' })],
  ])('%s → 401 REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', async (_name, fields) => {
    const answer = await refresh({ grant_type: 'refresh_token', ...client(), ...fields() });
    expectKnownError(answer, 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401, false);
  });

  it('refuses a session that expired (one year, service clock)', async () => {
    const user = await signUp(service);
    service.clock.advance(366 * 24 * 3600 * 1000);
    try {
      const answer = await refresh({ refresh_token: user.refresh_token, grant_type: 'refresh_token', ...client() });
      expectKnownError(answer, 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401, false);
    } finally {
      service.clock.advance(-366 * 24 * 3600 * 1000);
    }
  });

  it('refuses a refresh token of another project', async () => {
    const other = await service.createOtherProject();
    const user = await signUp({ ...service, projectId: other.projectId, keys: other.keys });
    const answer = await refresh({ refresh_token: user.refresh_token, grant_type: 'refresh_token', ...client() });
    expectKnownError(answer, 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401, false);
  });

  it.each([
    ['a wrong secret', () => ({ client_id: service.projectId, client_secret: 'pck_bad' })],
    [
      'a secret server key as secret',
      () => ({ client_id: service.projectId, client_secret: service.keys.secretServerKey }),
    ],
    ['an unknown client id', () => ({ client_id: 'nope', client_secret: service.keys.publishableClientKey })],
    ['no client credentials', () => ({})],
  ])('%s → INVALID_OAUTH_CLIENT_ID_OR_SECRET', async (_name, credentials) => {
    const user = await signUp(service);
    const answer = await refresh({ refresh_token: user.refresh_token, grant_type: 'refresh_token', ...credentials() });
    expectKnownError(answer, 'INVALID_OAUTH_CLIENT_ID_OR_SECRET', 400, false);
  });

  it.each([
    ['an unsupported grant', { grant_type: 'password' }, 'unsupported_grant_type'],
    [
      'authorization_code without verifier or redirect URI',
      { grant_type: 'authorization_code', code: 'x' },
      'invalid_request',
    ],
    ['no grant type', {}, 'invalid_request'],
    ['no refresh token', { grant_type: 'refresh_token' }, 'invalid_request'],
  ])('%s → OAuth error %s', async (_name, fields, error) => {
    const answer = await refresh({ ...client(), ...fields } as Record<string, string>);
    expect(answer.status).toBe(400);
    expect(answer.body.error).toBe(error);
    expect(typeof answer.body.error_description).toBe('string');
  });

  it('refuses a repeated parameter', async () => {
    const answer = await call(service, 'POST', '/auth/oauth/token', {
      headers: { 'content-type': form },
      body: 'grant_type=refresh_token&grant_type=refresh_token',
    });
    expect(answer.body.error).toBe('invalid_request');
  });

  it('refuses a JSON body', async () => {
    const answer = await call(service, 'POST', '/auth/oauth/token', {
      json: { grant_type: 'refresh_token', ...client() },
    });
    expectKnownError(answer, 'BODY_PARSING_ERROR', 400, false);
  });

  it('honours the override header if a caller sends it anyway', async () => {
    const answer = await refresh(
      { grant_type: 'refresh_token', ...client(), refresh_token: 'nope' },
      {
        [h.overrideErrorStatus]: 'true',
      },
    );
    expectKnownError(answer, 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401, true);
  });
});
