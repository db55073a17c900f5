/**
 * The limits on guessing are project settings (`config.rate_limits`): admins
 * read them with the project, change one without restating the others, and
 * the next request obeys the change; values that would switch a limit off
 * or make it meaningless are refused with SCHEMA_ERROR, changing nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseStoredConfig } from '../projects/project-config.js';
import { dbOf } from '../storage/open-storage.js';
import { authHeaders, call, expectKnownError, goodPassword, newEmail, signUp } from '../test-support/api.js';
import { startTestService, type TestService } from '../testing/index.js';
import { defaultRateLimits } from './limit-settings.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service?.close());

const statusOf = (answer: { status: number; headers: Headers }) =>
  Number(answer.headers.get('x-stack-actual-status') ?? answer.status);

const patchLimits = (rate_limits: unknown) =>
  call(service, 'PATCH', '/projects/current', {
    headers: authHeaders(service, 'admin'),
    json: { config: { rate_limits } },
  });

const readLimits = async () =>
  (await call(service, 'GET', '/projects/current', { headers: authHeaders(service, 'admin') })).body.config.rate_limits;

const signIn = (email: string, password: string) =>
  call(service, 'POST', '/auth/password/sign-in', { headers: authHeaders(service), json: { email, password } });

/** A fresh ten-minute window for the limits that count per window. */
const nextWindow = () => service.clock.startWindow(10 * 60_000);

describe('config.rate_limits', () => {
  it('shows admins the defaults, and clients nothing', async () => {
    expect(await readLimits()).toEqual({
      sign_in_failures_per_account: 5,
      sign_in_failures_per_client: 50,
      sign_ups_per_client: 100,
      mails_per_address: 5,
      mails_per_client: 30,
      code_checks_per_client: 120,
    });
    const client = await call(service, 'GET', '/projects/current', { headers: authHeaders(service) });
    expect(client.body.config).not.toHaveProperty('rate_limits');
  });

  it('changes the limits a PATCH names, keeps the others, and the next sign-in obeys', async () => {
    const user = await signUp(service);
    const answer = await patchLimits({ sign_in_failures_per_account: 2 });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.config.rate_limits).toEqual({ ...defaultRateLimits, sign_in_failures_per_account: 2 });
    for (let i = 0; i < 2; i++) expect((await signIn(user.email, 'wrong')).body.code).toBe('EMAIL_PASSWORD_MISMATCH');
    expect(statusOf(await signIn(user.email, user.password))).toBe(429);
    // Raised again, the same two failures are free.
    await patchLimits({ sign_in_failures_per_account: 3 });
    expect(statusOf(await signIn(user.email, user.password))).toBe(200);
    await patchLimits(defaultRateLimits);
    expect(await readLimits()).toEqual(defaultRateLimits);
  });

  it('applies a changed sign-up limit to the next sign-up', async () => {
    nextWindow();
    await patchLimits({ sign_ups_per_client: 2 });
    try {
      const signUpAnswer = () =>
        call(service, 'POST', '/auth/password/sign-up', {
          headers: authHeaders(service),
          json: { email: newEmail('limited'), password: goodPassword },
        });
      expect([statusOf(await signUpAnswer()), statusOf(await signUpAnswer())]).toEqual([200, 200]);
      expect(statusOf(await signUpAnswer())).toBe(429);
      // Raised: the refused attempt counted too, so 4 leaves room for one more.
      await patchLimits({ sign_ups_per_client: 4 });
      expect(statusOf(await signUpAnswer())).toBe(200);
      expect(statusOf(await signUpAnswer())).toBe(429);
    } finally {
      await patchLimits(defaultRateLimits);
    }
  });

  it('applies changed mail and code-check limits to the next request', async () => {
    nextWindow();
    await service.setProjectConfig({ domains: [{ domain: 'https://app.example.com', handler_path: '/handler' }] });
    await patchLimits({ mails_per_address: 1, code_checks_per_client: 2 });
    try {
      const user = await signUp(service);
      const reset = () =>
        call(service, 'POST', '/auth/password/send-reset-code', {
          headers: authHeaders(service),
          json: { email: user.email, callback_url: 'https://app.example.com/handler/reset' },
        });
      expect(statusOf(await reset())).toBe(200);
      expect(statusOf(await reset())).toBe(429);
      const check = () =>
        call(service, 'POST', '/auth/password/reset/check-code', {
          headers: authHeaders(service),
          json: { code: 'a'.repeat(45) },
        });
      expect((await check()).body.code).toBe('VERIFICATION_CODE_NOT_FOUND');
      expect((await check()).body.code).toBe('VERIFICATION_CODE_NOT_FOUND');
      expect(statusOf(await check())).toBe(429);
    } finally {
      await patchLimits(defaultRateLimits);
    }
  });

  it.each([
    ['zero (a limit that refuses everything, or no limit at all)', { sign_ups_per_client: 0 }],
    ['a negative count', { mails_per_client: -1 }],
    ['a fraction', { code_checks_per_client: 1.5 }],
    ['more than 100 account failures (NIST SP 800-63B)', { sign_in_failures_per_account: 101 }],
    ['an absurd count', { sign_in_failures_per_client: 10_001 }],
    ['more than 100 mails to one address', { mails_per_address: 101 }],
    ['a string', { sign_ups_per_client: '100' }],
    ['null', { mails_per_address: null }],
    ['an unknown limit', { sign_ins_per_second: 10 }],
    ['not an object', [5]],
  ])('refuses %s with SCHEMA_ERROR, changing nothing', async (_, limits) => {
    const before = await dbOf(service.storage)
      .selectFrom('projects')
      .select('config')
      .where('id', '=', service.projectId)
      .executeTakeFirstOrThrow();
    // Beside a valid change, which must not be applied either.
    const body = Array.isArray(limits) ? limits : { sign_in_failures_per_account: 7, ...limits };
    expectKnownError(await patchLimits(body), 'SCHEMA_ERROR', 400);
    const after = await dbOf(service.storage)
      .selectFrom('projects')
      .select('config')
      .where('id', '=', service.projectId)
      .executeTakeFirstOrThrow();
    expect(after.config).toEqual(before.config);
    expect(await readLimits()).toEqual(defaultRateLimits);
  });
});

describe('parseStoredConfig', () => {
  it('gives a config stored before the limits existed, or before some of them, the defaults', () => {
    expect(parseStoredConfig('p', {}).rate_limits).toEqual(defaultRateLimits);
    expect(parseStoredConfig('p', { rate_limits: { sign_ups_per_client: 7 } }).rate_limits).toEqual({
      ...defaultRateLimits,
      sign_ups_per_client: 7,
    });
  });
});
