/**
 * The sign-in back-off holds under concurrency: each attempt is counted
 * atomically before its password is checked, so a burst of guesses sent at
 * once gets no more checked than the allowance (a review saw 23 of 100 on
 * PostgreSQL and all 100 on Redis checked under an allowance of 5, again after
 * each wait), per account and per client address, on every counter store.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders, call, goodPassword, newEmail, signUp } from '../test-support/api.js';
import { auditEvents } from '../test-support/audit.js';
import { backends } from '../test-support/backends.js';
import { redisUp, redisUrl } from '../test-support/redis.js';
import { startTestService, type TestService } from '../testing/index.js';

const statusOf = (answer: { status: number; headers: Headers }) =>
  Number(answer.headers.get('x-stack-actual-status') ?? answer.status);

/** A sign-in from `client` (each test is its own client: the service trusts `x-forwarded-for`). */
const signIn = (target: TestService, client: string, email: string, password: string) =>
  call(target, 'POST', '/auth/password/sign-in', {
    headers: { ...authHeaders(target), 'x-forwarded-for': client },
    json: { email, password },
  });

/** 100 sign-ins from `client` sent at once; the statuses of their answers. */
const burst = (target: TestService, client: string, attempt: (i: number) => { email: string; password: string }) =>
  Promise.all(
    Array.from({ length: 100 }, async (_, i) => {
      const { email, password } = attempt(i);
      return statusOf(await signIn(target, client, email, password));
    }),
  );

/** Failed password sign-ins the audit log recorded with `reason`: the guesses that reached a password check. */
async function checkedGuesses(service: TestService, reason: string) {
  const events = await auditEvents(service, { type: 'sign_in.failed', limit: '1000' });
  return events.filter((event) => event.data.reason === reason).length;
}

/** Every database backend, then Redis (counting beside PGlite). */
const counterStores = [
  ...backends.map(({ name, databaseUrl, available }) => ({ store: name, options: { databaseUrl }, available })),
  { store: 'Redis', options: { databaseUrl: null, redisUrl }, available: redisUp },
];

describe.each(counterStores)('counted in $store', ({ options, available }) => {
  let service: TestService;
  beforeAll(async () => {
    if (!available) return;
    service = await startTestService({
      ...options,
      trustedProxyHeader: 'x-forwarded-for',
      projectConfig: { rate_limits: { sign_in_failures_per_client: 10 } },
    });
    // A burst takes real time; the back-off's first wait (1 s) must not end while it runs.
    service.clock.freeze();
  });
  afterAll(() => service?.close());

  it.skipIf(!available)(
    'a burst of 100 wrong passwords at once gets no more than the allowance checked, and the owner still signs in after the wait',
    async () => {
      const client = '10.0.0.1';
      const user = await signUp(service);
      const statuses = await burst(service, client, (i) => ({ email: user.email, password: `wrong-${i}` }));
      const checked = await checkedGuesses(service, 'wrong_password');
      expect(checked).toBeLessThanOrEqual(5);
      expect(statuses.filter((status) => status !== 429)).toHaveLength(checked);

      // After the wait, a second burst gets one guess checked, not another allowance.
      service.clock.advance(1_000);
      await burst(service, client, (i) => ({ email: user.email, password: `again-${i}` }));
      expect(await checkedGuesses(service, 'wrong_password')).toBeLessThanOrEqual(checked + 1);

      service.clock.advance(15 * 60_000);
      expect(statusOf(await signIn(service, client, user.email, user.password))).toBe(200);
      // The success cleared the account's count: a mistake afterwards is answered, not held back.
      expect(statusOf(await signIn(service, client, user.email, 'typo'))).toBe(400);
    },
  );

  it.skipIf(!available)(
    'a burst of 100 wrong sign-ins on as many accounts from one client gets no more than its allowance (10 here) checked',
    async () => {
      const before = await checkedGuesses(service, 'unknown_account');
      const statuses = await burst(service, '10.0.0.2', () => ({ email: newEmail('spray'), password: goodPassword }));
      const checked = (await checkedGuesses(service, 'unknown_account')) - before;
      expect(checked).toBeLessThanOrEqual(10);
      expect(statuses.filter((status) => status !== 429)).toHaveLength(checked);
    },
  );
});
