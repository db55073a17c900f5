/**
 * `GET /internal/metrics` (wire-protocol §15.9) over HTTP: the figures a
 * dashboard shows, counted from users who signed up, signed in and refreshed
 * on days the test chooses with the service clock; the trusted country header
 * counted only when the service is told to trust it.
 */
import { randomUUID } from 'node:crypto';
import { headers as h } from '@latchkey/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertPasskey } from '../passkeys/passkey-store.js';
import { dbOf } from '../storage/open-storage.js';
import { authHeaders, call, expectKnownError, goodPassword, newEmail, refreshGrant } from '../test-support/api.js';
import { codeFromMail, lastMailTo } from '../test-support/mail.js';
import { startTestService, type TestService } from '../testing/index.js';

const day = 24 * 3600 * 1000;
const today = Date.parse('2031-03-15T12:00:00Z');

let service: TestService;
let untrusting: TestService;
let magic: TestService;

beforeAll(async () => {
  [service, untrusting, magic] = await Promise.all([
    startTestService({ countryHeader: 'CF-IPCountry' }),
    startTestService(),
    startTestService({ countryHeader: 'CF-IPCountry', projectConfig: { magic_link_enabled: true } }),
  ]);
});
afterAll(() => Promise.all([service?.close(), untrusting?.close(), magic?.close()]));

/** Signs `email` in (up) on `magic` with the code of a sign-in mail, from `country` when given. */
async function otpSignIn(email: string, country?: string): Promise<{ user_id: string; access_token: string }> {
  magic.clock.advance(60_000);
  const headers = { ...authHeaders(magic), ...(country !== undefined ? { 'cf-ipcountry': country } : {}) };
  const sent = await call(magic, 'POST', '/auth/otp/send-sign-in-code', {
    headers,
    json: { email, callback_url: 'http://localhost:3000/handler/magic-link-callback' },
  });
  expect(sent.status, sent.text).toBe(200);
  const code = codeFromMail(await lastMailTo(magic, email));
  const answer = await call(magic, 'POST', '/auth/otp/sign-in', { headers, json: { code } });
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
}

async function signUpOn(
  target: TestService,
  daysAgo: number,
  country?: string,
): Promise<{ user_id: string; refresh_token: string; email: string }> {
  target.clock.set(today - daysAgo * day);
  const email = newEmail('metrics');
  const answer = await call(target, 'POST', '/auth/password/sign-up', {
    headers: { ...authHeaders(target), ...(country !== undefined ? { 'cf-ipcountry': country } : {}) },
    json: { email, password: goodPassword },
  });
  expect(answer.status, answer.text).toBe(200);
  return { ...answer.body, email };
}

async function signInOn(target: TestService, daysAgo: number, email: string, country?: string) {
  target.clock.set(today - daysAgo * day);
  const answer = await call(target, 'POST', '/auth/password/sign-in', {
    headers: { ...authHeaders(target), ...(country !== undefined ? { 'cf-ipcountry': country } : {}) },
    json: { email, password: goodPassword },
  });
  expect(answer.status, answer.text).toBe(200);
}

async function metrics(target: TestService) {
  target.clock.set(today);
  const answer = await call(target, 'GET', '/internal/metrics', { headers: authHeaders(target, 'admin') });
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
}

const at = (series: { date: string; activity: number }[], daysAgo: number) =>
  series.find((entry) => entry.date === new Date(today - daysAgo * day).toISOString().slice(0, 10))?.activity;

describe('GET /internal/metrics', () => {
  it('answers zeros for a project without users: today and the 30 days before, as the original backend', async () => {
    const body = await metrics(untrusting);
    expect(body.total_users).toBe(0);
    expect(body.daily_users).toHaveLength(31);
    expect(body.daily_users[0].date).toBe('2031-02-13');
    expect(body.daily_users[30].date).toBe('2031-03-15');
    expect(body.daily_users.every((entry: { activity: number }) => entry.activity === 0)).toBe(true);
    expect(body.daily_active_users).toEqual(body.daily_users);
    expect(body).toMatchObject({
      users_by_country: {},
      recently_registered: [],
      recently_active: [],
      login_methods: [],
    });
  });

  it('counts sign-ups and active users per day, countries, recent users and sign-in methods', async () => {
    const ada = await signUpOn(service, 40, 'DE'); // before the window
    const bob = await signUpOn(service, 10.1, 'de'); // same day as cy, earlier
    const cy = await signUpOn(service, 10, 'FR');
    const dee = await signUpOn(service, 3, 'XX');
    const eve = await signUpOn(service, 0);
    await signInOn(service, 10, ada.email); // twice the same day: one active user
    await signInOn(service, 10, ada.email);
    await signInOn(service, 2, bob.email, 'US'); // moved: counted where last seen
    service.clock.set(today - day);
    expect((await refreshGrant(service, cy.refresh_token)).status).toBe(200);

    const body = await metrics(service);
    expect(body.total_users).toBe(5);
    expect(at(body.daily_users, 10)).toBe(2);
    expect(at(body.daily_users, 3)).toBe(1);
    expect(at(body.daily_users, 0)).toBe(1);
    expect(body.daily_users.reduce((sum: number, entry: { activity: number }) => sum + entry.activity, 0)).toBe(4);
    expect(at(body.daily_active_users, 10)).toBe(3); // ada signing in, bob and cy signing up
    expect(at(body.daily_active_users, 3)).toBe(1);
    expect(at(body.daily_active_users, 2)).toBe(1);
    expect(at(body.daily_active_users, 1)).toBe(1);
    expect(at(body.daily_active_users, 0)).toBe(1);
    expect(at(body.daily_active_users, 5)).toBe(0);
    expect(body.users_by_country).toEqual({ DE: 1, FR: 1, US: 1 });
    expect(body.recently_registered.map((user: { id: string }) => user.id)).toEqual(
      [eve, dee, cy, bob, ada].map((user) => user.user_id),
    );
    expect(body.recently_registered[0]).toMatchObject({
      id: eve.user_id,
      primary_email: eve.email,
      has_password: true,
    });
    expect(body.recently_registered[0]).toHaveProperty('server_metadata');
    expect(body.recently_registered[0]).not.toHaveProperty('password_hash');
    expect(body.recently_active[0].id).toBe(eve.user_id);
    expect(body.recently_active.slice(1, 3).map((user: { id: string }) => user.id)).toEqual([cy.user_id, bob.user_id]);
    expect(body.login_methods).toEqual([{ method: 'password', count: 5 }]);
    expect(JSON.stringify(body)).not.toMatch(/\$argon2/);
  });

  it("counts each user's sign-in methods, code sign-in included, and each user in the last country they came from", async () => {
    const [ann, ben, cat, dan] = [newEmail('otp'), newEmail('otp'), newEmail('otp'), newEmail('otp')];
    await otpSignIn(ann, 'AQ');
    await otpSignIn(ben, 'CH');
    await otpSignIn(ben, 'AQ'); // moved: counted where last seen
    await otpSignIn(cat, 'CH');
    await otpSignIn(cat); // no header: still counted where last seen
    const doomed = await otpSignIn(dan, 'FR');
    const withPassword = await call(magic, 'POST', '/auth/password/sign-up', {
      headers: authHeaders(magic),
      json: { email: newEmail('pw'), password: goodPassword },
    });
    expect(withPassword.status, withPassword.text).toBe(200);
    const removed = await call(magic, 'DELETE', `/users/${doomed.user_id}`, { headers: authHeaders(magic, 'server') });
    expect(removed.status, removed.text).toBe(200);

    const body = await metrics(magic);
    expect(body.total_users).toBe(4);
    expect(body.login_methods).toEqual([
      { method: 'otp', count: 3 },
      { method: 'password', count: 1 },
    ]);
    expect(body.users_by_country).toEqual({ AQ: 2, CH: 1 });
    expect(Object.keys(body.users_by_country)).toEqual(['AQ', 'CH']); // most users first
  });

  it('counts a connected account under its provider, and each passkey of a user who signs in with passkeys', async () => {
    const [gil, hal] = [await otpSignIn(newEmail('otp')), await otpSignIn(newEmail('otp'))];
    const db = dbOf(magic.storage);
    const now = magic.clock.now();
    const account = (userId: string, providerId: string) => ({
      project_id: magic.projectId,
      provider_id: providerId,
      account_id: randomUUID(),
      user_id: userId,
      email: null,
      access_token_sealed: null,
      refresh_token_sealed: null,
      access_token_expires_at: null,
      created_at: new Date(now),
      updated_at: new Date(now),
    });
    await db
      .insertInto('oauth_accounts')
      .values([account(gil.user_id, 'github'), account(hal.user_id, 'github'), account(gil.user_id, 'google')])
      .execute();
    for (const userId of [gil.user_id, gil.user_id, hal.user_id]) {
      await insertPasskey(db, {
        projectId: magic.projectId,
        userId,
        credentialId: randomUUID(),
        publicKey: 'key',
        counter: 0,
        transports: [],
        name: 'Key',
        aaguid: '00000000-0000-0000-0000-000000000000',
        backedUp: false,
        now,
      });
    }
    // hal's passkey does not count: passkey sign-in is off for him.
    await db.updateTable('users').set({ passkey_auth_enabled: true }).where('id', '=', gil.user_id).execute();

    expect((await metrics(magic)).login_methods).toEqual([
      { method: 'otp', count: 5 },
      { method: 'github', count: 2 },
      { method: 'passkey', count: 2 },
      { method: 'google', count: 1 },
      { method: 'password', count: 1 },
    ]);
  });

  it('keeps at most five users in each recent list, newest first', async () => {
    for (let index = 0; index < 4; index++) await signUpOn(service, 0);
    const body = await metrics(service);
    expect(body.recently_registered).toHaveLength(5);
    const times = body.recently_registered.map((user: { signed_up_at_millis: number }) => user.signed_up_at_millis);
    expect(times).toEqual([...times].sort((x, y) => y - x));
  });

  it('records only two-letter country codes from the trusted header', async () => {
    const before = (await metrics(service)).users_by_country;
    for (const value of ['D E', 'DEU', '<b>', 'T1', '', 'x']) await signUpOn(service, 0, value);
    expect((await metrics(service)).users_by_country).toEqual(before);
  });

  it('ignores the header when the service trusts none', async () => {
    await signUpOn(untrusting, 0, 'DE');
    const body = await metrics(untrusting);
    expect(body.users_by_country).toEqual({});
    expect(body.total_users).toBe(1);
  });

  it("counts only the project's own users", async () => {
    const other = await untrusting.createOtherProject();
    const body = await metrics({ ...untrusting, projectId: other.projectId, keys: other.keys });
    expect(body.total_users).toBe(0);
  });

  it.each(['client', 'server'] as const)('refuses %s access', async (accessType) => {
    const answer = await call(service, 'GET', '/internal/metrics', { headers: authHeaders(service, accessType) });
    expectKnownError(answer, 'INSUFFICIENT_ACCESS_TYPE', 401);
    expect(answer.text).not.toContain('total_users');
  });

  it('refuses a wrong admin key', async () => {
    const answer = await call(service, 'GET', '/internal/metrics', {
      headers: { ...authHeaders(service, 'admin'), [h.superSecretAdminKey]: 'sak_nope' },
    });
    expectKnownError(answer, 'INVALID_SUPER_SECRET_ADMIN_KEY', 401);
  });
});
