/**
 * `GET /auth/sessions` and `DELETE /auth/sessions/:sessionId` over HTTP: a
 * user reviews where they are signed in and ends a session; server code does
 * so for any user. Other users' sessions stay out of reach.
 */
import { headers as h } from '@latchkey/protocol';
import { describe, expect, it } from 'vitest';
import {
  authHeaders,
  call,
  expectKnownError,
  goodPassword,
  refreshGrant,
  signUp,
  userHeaders,
} from '../test-support/api.js';
import { testServiceForSuite } from '../test-support/backends.js';

const service = testServiceForSuite();

const browser = 'Mozilla/5.0 (X11; Linux x86_64) Latchkey-Test/1.0';

/** A second session of the same user, from a named browser. */
async function signInAgain(email: string) {
  const answer = await call(service, 'POST', '/auth/password/sign-in', {
    headers: { ...authHeaders(service), 'user-agent': browser },
    json: { email, password: goodPassword },
  });
  expect(answer.status).toBe(200);
  return answer.body as { access_token: string; refresh_token: string; user_id: string };
}

const listOf = (headers: Record<string, string>, query = '') =>
  call(service, 'GET', `/auth/sessions${query}`, { headers });

describe('GET /auth/sessions', () => {
  it("lists the user's sessions, newest use first, marking the current one, with address and browser", async () => {
    const user = await signUp(service);
    service.clock.advance(1000);
    const second = await signInAgain(user.email);
    const answer = await listOf(userHeaders(service, second));
    expect(answer.status).toBe(200);
    expect(answer.body.is_paginated).toBe(false);
    const [newest, oldest] = answer.body.items;
    expect(answer.body.items).toHaveLength(2);
    expect(newest).toMatchObject({ user_id: user.user_id, is_current: true, user_agent: browser, ip: '127.0.0.1' });
    expect(oldest).toMatchObject({ user_id: user.user_id, is_current: false, is_impersonation: false });
    expect(newest.last_used_at_millis).toBeGreaterThan(oldest.last_used_at_millis);
    expect(newest.expires_at_millis).toBeGreaterThan(newest.created_at_millis);
    expect(JSON.stringify(answer.body)).not.toContain(second.refresh_token);
  });

  it('shows server code any user, and marks sessions it opened for them', async () => {
    const user = await signUp(service);
    await call(service, 'POST', '/auth/sessions', {
      headers: authHeaders(service, 'server'),
      json: { user_id: user.user_id, is_impersonation: true },
    });
    const answer = await listOf(authHeaders(service, 'server'), `?user_id=${user.user_id}`);
    expect(answer.body.items.map((s: { is_impersonation: boolean }) => s.is_impersonation).sort()).toEqual([
      false,
      true,
    ]);
  });

  it("refuses a client another user's sessions, and a client without a user", async () => {
    const user = await signUp(service);
    const other = await signUp(service);
    expectKnownError(
      await listOf(userHeaders(service, user), `?user_id=${other.user_id}`),
      'INSUFFICIENT_ACCESS_TYPE',
      401,
    );
    expectKnownError(await listOf(authHeaders(service)), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    expectKnownError(
      await listOf(authHeaders(service, 'server'), '?user_id=00000000-0000-4000-8000-000000000000'),
      'USER_NOT_FOUND',
      404,
    );
  });
});

describe('DELETE /auth/sessions/:sessionId', () => {
  it('ends one of the user’s sessions: its refresh token stops working, the others go on', async () => {
    const user = await signUp(service);
    const second = await signInAgain(user.email);
    const sessions = (await listOf(userHeaders(service, second))).body.items as { id: string; is_current: boolean }[];
    const other = sessions.find((session) => !session.is_current)!;
    const answer = await call(service, 'DELETE', `/auth/sessions/${other.id}`, {
      headers: userHeaders(service, second),
    });
    expect(answer.body).toEqual({ success: true });
    expectKnownError(await refreshGrant(service, user.refresh_token), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401, false);
    expect((await refreshGrant(service, second.refresh_token)).status).toBe(200);
    expectKnownError(
      await call(service, 'DELETE', `/auth/sessions/${other.id}`, { headers: userHeaders(service, second) }),
      'SESSION_NOT_FOUND',
      404,
    );
  });

  it("answers SESSION_NOT_FOUND for another user's session, which goes on", async () => {
    const user = await signUp(service);
    const victim = await signUp(service);
    const [target] = (await listOf(userHeaders(service, victim))).body.items as { id: string }[];
    for (const id of [target!.id, 'not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      const answer = await call(service, 'DELETE', `/auth/sessions/${id}`, { headers: userHeaders(service, user) });
      expectKnownError(answer, 'SESSION_NOT_FOUND', 404);
      expect(answer.body.details).toEqual({ session_id: id });
    }
    expect((await refreshGrant(service, victim.refresh_token)).status).toBe(200);
  });

  it("lets server code end any user's session, but not another project's", async () => {
    const user = await signUp(service);
    const [target] = (await listOf(userHeaders(service, user))).body.items as { id: string }[];
    const other = await service.createOtherProject();
    const foreign = await call(service, 'DELETE', `/auth/sessions/${target!.id}`, {
      headers: {
        ...authHeaders(service, 'server'),
        [h.projectId]: other.projectId,
        [h.secretServerKey]: other.keys.secretServerKey,
      },
    });
    expectKnownError(foreign, 'SESSION_NOT_FOUND', 404);
    expect((await refreshGrant(service, user.refresh_token)).status).toBe(200);
    const answer = await call(service, 'DELETE', `/auth/sessions/${target!.id}`, {
      headers: authHeaders(service, 'server'),
    });
    expect(answer.status).toBe(200);
    expectKnownError(await refreshGrant(service, user.refresh_token), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401, false);
  });
});
