/**
 * One suite, every counter store: the database's and Redis's count hits per
 * key and window, and failures with their last time and reset, the same way,
 * atomically when many instances count at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbOf } from '../storage/open-storage.js';
import { counterStores } from '../test-support/redis.js';
import { startTestService, type TestService } from '../testing/index.js';
import type { CounterStore } from './counter-store.js';
import { databaseCounters } from './database-counters.js';
import { redisCounters } from './redis-counters.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service?.close());

const newKey = () => `contract:${crypto.randomUUID()}`;
const minute = 60_000;

describe.each(counterStores)('counters in $store', ({ redisUrl, available }) => {
  let counters: CounterStore;
  /** A second store on the same backend: another instance of the service. */
  let other: CounterStore;
  beforeAll(() => {
    if (!available) return;
    const open = () =>
      redisUrl === undefined ? databaseCounters(dbOf(service.storage)) : redisCounters(redisUrl, null);
    counters = open();
    other = open();
  });
  afterAll(async () => {
    await counters?.close();
    await other?.close();
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

  it.skipIf(!available)(
    'counts failures with the last one’s time, starts again after the reset time, forgets on delete',
    async () => {
      const now = service.clock.now();
      const [key, untouched] = [newKey(), newKey()];
      await counters.countFailure(key, now, 10 * minute);
      await other.countFailure(key, now + 1_000, 10 * minute);
      expect(await counters.findFailures([key, untouched])).toEqual([{ key, failures: 2, lastFailureAt: now + 1_000 }]);
      // Exactly the reset time after the last failure still counts on; past it the count starts again.
      await counters.countFailure(key, now + 1_000 + 10 * minute, 10 * minute);
      expect(await other.findFailures([key])).toEqual([{ key, failures: 3, lastFailureAt: now + 1_000 + 10 * minute }]);
      await counters.countFailure(key, now + 2_001 + 20 * minute, 10 * minute);
      expect(await counters.findFailures([key])).toEqual([
        { key, failures: 1, lastFailureAt: now + 2_001 + 20 * minute },
      ]);
      await other.deleteFailures(key);
      expect(await counters.findFailures([key])).toEqual([]);
      expect(await counters.findFailures([])).toEqual([]);
    },
  );

  it.skipIf(!available)('counts every one of many failures at once exactly once', async () => {
    const now = service.clock.now();
    const key = newKey();
    await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? counters : other).countFailure(key, now, minute)));
    expect((await counters.findFailures([key]))[0]?.failures).toBe(30);
  });
});
