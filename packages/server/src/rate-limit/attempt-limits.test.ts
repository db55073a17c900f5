/**
 * Password guessing is held back (one client once made 69 wrong sign-ins
 * a second). After 5 failures on an account, every further attempt waits a
 * growing back-off (1 s, 2 s, 4 s, … up to 15 min) and is answered 429 with
 * `Retry-After` before any password is checked, the right one included; after
 * 50 failures from one client address, the same across every account. A
 * success clears the account's count; a person who waits gets in. The same
 * tests run with the counters in the database and in Redis.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders, call, countRows, goodPassword, newEmail, signUp } from '../test-support/api.js';
import { counterStores } from '../test-support/redis.js';
import { startTestService, type TestService, type TestServiceOptions } from '../testing/index.js';
import { accountBackOff, backOffMs, clientBackOff } from './attempt-limits.js';

function signIn(target: TestService, email: string, password: string) {
  return call(target, 'POST', '/auth/password/sign-in', { headers: authHeaders(target), json: { email, password } });
}

const countUsers = (target: TestService) => countRows(target, 'users');

/** The real status of an answer (the override header moves it). */
const statusOf = (answer: { status: number; headers: Headers }) =>
  Number(answer.headers.get('x-stack-actual-status') ?? answer.status);

describe('backOffMs', () => {
  it('is free for the first failures, then doubles up to the cap', () => {
    expect([4, 5, 6, 7].map((n) => backOffMs(n, accountBackOff))).toEqual([0, 1000, 2000, 4000]);
    expect(backOffMs(40, accountBackOff)).toBe(15 * 60_000);
    expect(backOffMs(49, clientBackOff)).toBe(0);
    expect(backOffMs(50, clientBackOff)).toBe(1000);
  });
});

describe.each(counterStores)('counted in $store', ({ redisUrl, available }) => {
  const start = (options: TestServiceOptions = {}) =>
    startTestService({ ...options, ...(redisUrl ? { redisUrl } : {}) });
  let service: TestService;
  beforeAll(async () => {
    if (available) service = await start();
  });
  afterAll(() => service?.close());

  describe('sign-in attempts per account', () => {
    it.skipIf(!available)(
      'answers 5 wrong passwords, then 429 with Retry-After for any password until the wait is over',
      async () => {
        const user = await signUp(service);
        for (let i = 0; i < 5; i++)
          expect((await signIn(service, user.email, `wrong-${i}`)).body.code).toBe('EMAIL_PASSWORD_MISMATCH');

        const held = await signIn(service, user.email, user.password);
        expect(statusOf(held)).toBe(429);
        expect(held.headers.get('retry-after')).toBe('1');

        service.clock.advance(1_000);
        expect((await signIn(service, user.email, 'wrong-again')).body.code).toBe('EMAIL_PASSWORD_MISMATCH');
        const longer = await signIn(service, user.email, user.password);
        expect(statusOf(longer)).toBe(429);
        expect(longer.headers.get('retry-after')).toBe('2');

        service.clock.advance(2_000);
        expect(statusOf(await signIn(service, user.email, user.password))).toBe(200);
        // The success cleared the count: the next mistake is answered, not held back.
        expect((await signIn(service, user.email, 'typo')).body.code).toBe('EMAIL_PASSWORD_MISMATCH');
        expect(statusOf(await signIn(service, user.email, user.password))).toBe(200);
      },
    );

    it.skipIf(!available)(
      'holds back an address without an account the same way, telling nothing about which exist',
      async () => {
        const nobody = newEmail('nobody');
        for (let i = 0; i < 5; i++)
          expect((await signIn(service, nobody, 'guess')).body.code).toBe('EMAIL_PASSWORD_MISMATCH');
        const held = await signIn(service, nobody, 'guess');
        expect(statusOf(held)).toBe(429);
        expect(held.headers.get('retry-after')).toBe('1');
      },
    );

    it.skipIf(!available)('counts an address in any case as one account', async () => {
      const user = await signUp(service);
      for (let i = 0; i < 5; i++) await signIn(service, i % 2 ? user.email.toUpperCase() : user.email, 'wrong');
      expect(statusOf(await signIn(service, ` ${user.email.toUpperCase()}`, user.password))).toBe(429);
    });

    it.skipIf(!available)('does not hold back the same account in another project', async () => {
      const user = await signUp(service);
      for (let i = 0; i < 6; i++) await signIn(service, user.email, 'wrong');
      const other = await service.createOtherProject();
      const answer = await call(service, 'POST', '/auth/password/sign-in', {
        headers: {
          ...authHeaders(service),
          'x-stack-project-id': other.projectId,
          'x-stack-publishable-client-key': other.keys.publishableClientKey,
        },
        json: { email: user.email, password: user.password },
      });
      expect(answer.body.code).toBe('EMAIL_PASSWORD_MISMATCH'); // no such user there, but checked, not held
    });
  });

  describe('sign-ups per client address', () => {
    it.skipIf(!available)(
      'allows 100 in ten minutes from one address, then 429 with Retry-After, creating nothing more',
      async () => {
        const fresh = await start();
        try {
          const signUpAnswer = () =>
            call(fresh, 'POST', '/auth/password/sign-up', {
              headers: authHeaders(fresh),
              json: { email: newEmail('bulk'), password: goodPassword },
            });
          // A window of its own: a hundred sign-ups on a loaded machine can take long enough to cross a boundary.
          fresh.clock.startWindow(10 * 60_000);
          for (let i = 0; i < 100; i++) expect(statusOf(await signUpAnswer())).toBe(200);
          const refused = await signUpAnswer();
          expect(statusOf(refused)).toBe(429);
          expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
          expect(await countUsers(fresh)).toBe(100);
          fresh.clock.startWindow(10 * 60_000);
          expect(statusOf(await signUpAnswer())).toBe(200);
        } finally {
          await fresh.close();
        }
      },
      60_000,
    );
  });

  describe('sign-in attempts per client address', () => {
    it.skipIf(!available)('holds back a client that fails on many accounts, even on a new one', async () => {
      const fresh = await start();
      // 50 sign-ins and a sign-up take seconds of real time; the 1 s wait after them must not end meanwhile.
      fresh.clock.freeze();
      try {
        for (let i = 0; i < 50; i++) {
          expect((await signIn(fresh, newEmail('spray'), goodPassword)).body.code).toBe('EMAIL_PASSWORD_MISMATCH');
        }
        const victim = await signUp(fresh);
        const held = await signIn(fresh, victim.email, victim.password);
        expect(statusOf(held)).toBe(429);
        fresh.clock.advance(1_000);
        expect(statusOf(await signIn(fresh, victim.email, victim.password))).toBe(200);
      } finally {
        await fresh.close();
      }
    });

    it.skipIf(!available)('can be turned off (benchmarks)', async () => {
      const open = await start({ attemptLimits: false });
      try {
        const user = await signUp(open);
        for (let i = 0; i < 8; i++) await signIn(open, user.email, 'wrong');
        expect(statusOf(await signIn(open, user.email, user.password))).toBe(200);
      } finally {
        await open.close();
      }
    });
  });
});
