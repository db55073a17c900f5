/**
 * The signed-in person's own view of their account's security over HTTP:
 * each session's browser, OS and country (`GET /auth/sessions`), and their
 * security activity (`GET /users/me/security-activity`): their own events of
 * the last 90 days, with only what is safe to show them.
 */
import { describe, expect, it } from 'vitest';
import {
  authHeaders,
  call,
  expectKnownError,
  goodPassword,
  signUp,
  snapshot,
  userHeaders,
} from '../test-support/api.js';
import { testServiceForSuite } from '../test-support/backends.js';

const service = testServiceForSuite({ countryHeader: 'CF-IPCountry' });

const firefoxOnMac = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.1; rv:121.0) Gecko/20100101 Firefox/121.0';
const chromeOnAndroid =
  'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36';

/** Signs `email` in with `password` from a browser and country. */
function signIn(email: string, password: string, from: { userAgent: string; country?: string }) {
  return call(service, 'POST', '/auth/password/sign-in', {
    headers: {
      ...authHeaders(service),
      'user-agent': from.userAgent,
      ...(from.country ? { 'cf-ipcountry': from.country } : {}),
    },
    json: { email, password },
  });
}

const activityOf = (headers: Record<string, string>) =>
  call(service, 'GET', '/users/me/security-activity', { headers });

describe('GET /auth/sessions, the person’s own devices', () => {
  it('names each session’s browser and OS from its user agent, and its country from the trusted header', async () => {
    const user = await signUp(service);
    const mac = await signIn(user.email, goodPassword, { userAgent: firefoxOnMac, country: 'fr' });
    const phone = await signIn(user.email, goodPassword, { userAgent: chromeOnAndroid, country: 'XX' });
    const answer = await call(service, 'GET', '/auth/sessions', { headers: userHeaders(service, mac.body) });
    expect(answer.status).toBe(200);
    const byId = new Map(answer.body.items.map((session: { is_current: boolean }) => [session.is_current, session]));
    expect(byId.get(true)).toMatchObject({ browser: 'Firefox', os: 'macOS', country: 'FR', user_agent: firefoxOnMac });
    const others = answer.body.items.filter((session: { is_current: boolean }) => !session.is_current);
    // The sign-up came with no browser the parser knows; the phone's header said "unknown" (XX).
    expect(others.map((session: { browser: string | null }) => session.browser).sort()).toEqual(['Chrome', null]);
    expect(others.find((session: { os: string | null }) => session.os === 'Android')).toMatchObject({ country: null });
    expect(phone.status).toBe(200);
  });
});

describe('GET /users/me/security-activity', () => {
  it('lists the person’s sign-ins, failed sign-ins, password change and session end, newest first', async () => {
    const user = await signUp(service);
    service.clock.advance(1000);
    const failed = await signIn(user.email, 'wrong-password-1', { userAgent: chromeOnAndroid, country: 'de' });
    expectKnownError(failed, 'EMAIL_PASSWORD_MISMATCH', 400);
    service.clock.advance(1000);
    const mac = await signIn(user.email, goodPassword, { userAgent: firefoxOnMac, country: 'fr' });
    service.clock.advance(1000);
    const changed = await call(service, 'POST', '/auth/password/update', {
      headers: { ...userHeaders(service, mac.body), 'user-agent': firefoxOnMac },
      json: { old_password: goodPassword, new_password: 'another-horse-2' },
    });
    expect(changed.status, changed.text).toBe(200);

    const answer = await activityOf(userHeaders(service, mac.body));
    expect(answer.status).toBe(200);
    expect(answer.body.is_paginated).toBe(false);
    const types = answer.body.items.map((event: { type: string }) => event.type);
    // The password change signed the sign-up's session out: its end comes with the change.
    expect(types.slice(-3)).toEqual(['sign_in.succeeded', 'sign_in.failed', 'sign_up']);
    expect(types).toContain('password.changed');
    const failure = answer.body.items.find((event: { type: string }) => event.type === 'sign_in.failed');
    expect(failure).toEqual({
      id: expect.any(String),
      type: 'sign_in.failed',
      occurred_at_millis: expect.any(Number),
      browser: 'Chrome',
      os: 'Android',
      country: 'DE',
      ip_address: '127.0.0.x',
      method: 'password',
      provider: null,
    });
    // No actor, no user agent, no full address, no reason, no ids of other rows.
    expect(JSON.stringify(answer.body)).not.toMatch(/127\.0\.0\.1|user_agent|actor|reason|session_id/);
  });

  it('shows only the caller’s events, and none older than 90 days', async () => {
    const old = await signUp(service);
    service.clock.advance(91 * 24 * 60 * 60_000);
    const someone = await signUp(service);
    await signIn(someone.email, 'wrong-password-1', { userAgent: firefoxOnMac });
    const fresh = await signIn(old.email, goodPassword, { userAgent: firefoxOnMac });
    const mine = await activityOf(userHeaders(service, fresh.body));
    expect(mine.body.items.map((event: { type: string }) => event.type)).toEqual(['sign_in.succeeded']);
    const theirs = await activityOf(userHeaders(service, someone));
    expect(theirs.body.items.map((event: { type: string }) => event.type)).toEqual(['sign_in.failed', 'sign_up']);
  });

  it('refuses a request without a signed-in user, changing nothing', async () => {
    const before = await snapshot(service);
    expectKnownError(await activityOf(authHeaders(service)), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    const forged = await activityOf({ ...authHeaders(service), 'x-stack-access-token': 'not-a-token' });
    expectKnownError(forged, 'UNPARSABLE_ACCESS_TOKEN', 401);
    expect(await snapshot(service)).toEqual(before);
  });
});
