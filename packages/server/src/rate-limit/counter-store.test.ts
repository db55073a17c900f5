/**
 * One suite, every counter store: the database's and Redis's count hits per
 * key and window, and attempts under a back-off with their last time and
 * reset, the same way, atomically when many instances count at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbOf } from '../storage/open-storage.js';
import { backends } from '../test-support/backends.js';
import { redisUp, redisUrl } from '../test-support/redis.js';
import { startTestService, type TestService } from '../testing/index.js';
import { backOffMs, reserveAttempt } from './attempt-limits.js';
import type { BackOff, CounterStore } from './counter-store.js';
import { databaseCounters } from './database-counters.js';
import { redisCounters } from './redis-counters.js';

const newKey = () => `contract:${crypto.randomUUID()}`;
const minute = 60_000;

/** The database's counters on every database backend, then Redis's (beside PGlite). */
const stores = [
  ...backends.map(({ name, databaseUrl, available }) => ({
    store: `the database on ${name}`,
    databaseUrl,
    redisUrl: undefined,
    available,
  })),
  { store: 'Redis', databaseUrl: null, redisUrl, available: redisUp },
];

describe.each(stores)('counters in $store', ({ databaseUrl, redisUrl, available }) => {
  let service: TestService;
  let counters: CounterStore;
  /** A second store on the same backend: another instance of the service. */
  let other: CounterStore;
  beforeAll(async () => {
    if (!available) return;
    service = await startTestService({ databaseUrl });
    const open = () =>
      redisUrl === undefined ? databaseCounters(dbOf(service.storage)) : redisCounters(redisUrl, null);
    counters = open();
    other = open();
  });
  afterAll(async () => {
    await counters?.close();
    await other?.close();
    await service?.close();
  });

  it.skipIf(!available)('counts hits per key and per window, across instances', async () => {
    const now = service.clock.now();
    const window = { start: now - (now % minute), ms: minute };
    const key = newKey();
    expect(await counters.countHit(key, window, now)).toBe(1);
    expect(await other.countHit(key, window, now + 1)).toBe(2);
    expect(await counters.countHit(newKey(), window, now)).toBe(1);
    expect(await counters.countHit(key, { start: window.start + minute, ms: minute }, now + minute)).toBe(1);
  });

  it.skipIf(!available)('counts every one of many hits at once exactly once', async () => {
    const now = service.clock.now();
    const window = { start: now - (now % minute), ms: minute };
    const key = newKey();
    const counts = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? counters : other).countHit(key, window, now)),
    );
    expect(counts.sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
  });

  const rule: BackOff = { free: 2, baseMs: 1_000, maxMs: 4_000, resetAfterMs: 10 * minute };

  it.skipIf(!available)(
    'counts attempts until the back-off holds one, then none until its wait is over, by backOffMs',
    async () => {
      const now = service.clock.now();
      const [key, roomy] = [newKey(), newKey()];
      const keys: [string, BackOff][] = [
        [key, rule],
        [roomy, { ...rule, free: 100 }],
      ];
      expect(await counters.reserveAttempt(keys, now)).toEqual({ counted: true, before: [null, null] });
      expect(await counters.reserveAttempt(keys, now + 1)).toEqual({
        counted: true,
        before: [
          { failures: 1, lastFailureAt: now },
          { failures: 1, lastFailureAt: now },
        ],
      });
      // Two attempts are free: the third waits backOffMs(2) = 1 s after the second, and a refusal counts nowhere.
      expect(backOffMs(2, rule)).toBe(1_000);
      const held = await counters.reserveAttempt(keys, now + 1_000);
      expect(held).toEqual({
        counted: false,
        before: [
          { failures: 2, lastFailureAt: now + 1 },
          { failures: 2, lastFailureAt: now + 1 },
        ],
      });
      expect((await other.reserveAttempt(keys, now + 1_001)).counted).toBe(true);
      // Now 3: backOffMs(3) = 2 s; capped at maxMs further on.
      expect((await counters.reserveAttempt(keys, now + 3_000)).counted).toBe(false);
      expect((await counters.reserveAttempt(keys, now + 3_001)).before[0]).toEqual({
        failures: 3,
        lastFailureAt: now + 1_001,
      });
      // Past the reset time after the last attempt, the count starts again at one.
      const later = now + 3_002 + 10 * minute;
      expect((await counters.reserveAttempt(keys, later)).counted).toBe(true);
      expect((await counters.reserveAttempt(keys, later + 1)).before[0]).toEqual({ failures: 1, lastFailureAt: later });
    },
  );

  it.skipIf(!available)('takes an attempt back: one less with its last time put back, or forgotten whole', async () => {
    const now = service.clock.now();
    const [key, forgotten] = [newKey(), newKey()];
    const keys: [string, BackOff][] = [
      [forgotten, rule],
      [key, rule],
    ];
    await counters.reserveAttempt(keys, now);
    const reservation = await counters.reserveAttempt(keys, now + 5);
    await other.releaseAttempt(
      [
        { key: forgotten, forget: true, before: reservation.before[0]! },
        { key, forget: false, before: reservation.before[1]! },
      ],
      now + 5,
    );
    expect((await counters.reserveAttempt(keys, now + 6)).before).toEqual([null, { failures: 1, lastFailureAt: now }]);
    // Taken back to none, a count is gone.
    await counters.releaseAttempt([{ key, forget: false, before: null }], now + 6);
    await counters.releaseAttempt([{ key, forget: false, before: null }], now + 6);
    expect((await counters.reserveAttempt([[key, rule]], now + 7)).before).toEqual([null]);
  });

  it.skipIf(!available)('counts attempts sent at once one by one: no more than the free ones pass', async () => {
    const now = service.clock.now();
    const keys: [string, BackOff][] = [[newKey(), { ...rule, free: 5 }]];
    const reservations = await Promise.all(
      Array.from({ length: 40 }, (_, i) => (i % 2 ? counters : other).reserveAttempt(keys, now)),
    );
    expect(reservations.filter((reservation) => reservation.counted)).toHaveLength(5);
  });

  it.skipIf(!available)('counts an attempt against no key when one of them is waiting', async () => {
    const now = service.clock.now();
    const [waiting, fresh] = [newKey(), newKey()];
    for (let i = 0; i < 2; i++) await counters.reserveAttempt([[waiting, rule]], now);
    const refused = await counters.reserveAttempt(
      [
        [fresh, rule],
        [waiting, rule],
      ],
      now,
    );
    expect(refused.counted).toBe(false);
    expect((await counters.reserveAttempt([[fresh, rule]], now)).before).toEqual([null]);
  });

  it.skipIf(!available)(
    'sign-ins sent at once to one account are no suspects of each other; a failed one makes the next a suspect',
    async () => {
      const now = service.clock.now();
      const keys: [string, BackOff][] = [[newKey(), { ...rule, free: 5 }]];
      const first = await reserveAttempt(counters, keys, now);
      const second = await reserveAttempt(counters, keys, now);
      expect([first.suspect, second.suspect]).toEqual([false, false]);
      first.failed();
      // One failure now, beside one attempt still undecided: a suspect.
      const third = await reserveAttempt(counters, keys, now);
      expect(third.suspect).toBe(true);
      second.failed();
      third.failed();
      // Another instance cannot tell its own undecided attempts from failures: it errs towards suspect.
      const elsewhere = newKey();
      await reserveAttempt(counters, [[elsewhere, rule]], now);
      expect((await reserveAttempt(other, [[elsewhere, rule]], now)).suspect).toBe(true);
    },
  );
});
