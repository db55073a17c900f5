/**
 * Rate limits on a real counter store, the database and Redis alike: fixed
 * windows, Retry-After, keys counted apart, no e-mail address stored; and
 * old counters gone, pruned from the database table or expired in Redis, so
 * neither grows without bound.
 */
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbOf } from '../storage/open-storage.js';
import { counterStores } from '../test-support/redis.js';
import { startTestService, type TestService } from '../testing/index.js';
import { type CounterStore, maxWindowMs } from './counter-store.js';
import { databaseCounters, pruneIntervalMs } from './database-counters.js';
import { defaultRateLimits } from './limit-settings.js';
import { enforceRateLimit, limitMailSend, RateLimitExceeded } from './rate-limit.js';
import { redisCounters } from './redis-counters.js';

let service: TestService;
const db = () => dbOf(service.storage);
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service?.close());

const rule = { limit: 3, windowMs: 60_000 };
let keys = 0;
const newKey = () => `test:${++keys}:${Math.random().toString(36).slice(2)}`;

async function hit(counters: CounterStore, key: string, now: number): Promise<'ok' | number> {
  try {
    await enforceRateLimit(counters, key, rule, now);
    return 'ok';
  } catch (error) {
    if (error instanceof RateLimitExceeded) return error.retryAfterMs;
    throw error;
  }
}

async function tableCounters() {
  return db().selectFrom('rate_limit_counters').selectAll().orderBy('window_start').execute();
}

describe.each(counterStores)('counted in $store', ({ redisUrl, available }) => {
  let counters: CounterStore;
  /** The keys the store holds that contain `part`. */
  let keysWith: (part: string) => Promise<string[]>;
  let redis: Redis | undefined;
  beforeAll(() => {
    if (!available) return;
    if (redisUrl === undefined) {
      counters = databaseCounters(db());
      keysWith = async (part) =>
        (await tableCounters()).map((row) => row.key).filter((key) => key.toLowerCase().includes(part));
    } else {
      counters = redisCounters(redisUrl, null);
      const client = new Redis(redisUrl);
      redis = client;
      keysWith = (part) => client.keys(`*${part}*`);
    }
  });
  afterAll(async () => {
    await counters?.close();
    await redis?.quit();
  });

  describe('enforceRateLimit', () => {
    it.skipIf(!available)('allows `limit` hits per window, then refuses with the time left in the window', async () => {
      const start = Math.ceil(service.clock.now() / 60_000) * 60_000;
      const key = newKey();
      const first = [await hit(counters, key, start), await hit(counters, key, start + 1)];
      expect([...first, await hit(counters, key, start + 2)]).toEqual(['ok', 'ok', 'ok']);
      expect(await hit(counters, key, start + 20_000)).toBe(40_000);
      expect(await hit(counters, key, start + 59_999)).toBe(1);
      // Another key has its own count; the next window starts again.
      expect(await hit(counters, newKey(), start + 30_000)).toBe('ok');
      expect(await hit(counters, key, start + 60_000)).toBe('ok');
    });

    it.skipIf(!available)('refuses windows longer than the pruning horizon', async () => {
      const tooLong = { limit: 1, windowMs: maxWindowMs + 1 };
      await expect(enforceRateLimit(counters, newKey(), tooLong, 0)).rejects.toThrow(/at most/);
    });
  });

  describe('limitMailSend', () => {
    it.skipIf(!available)('counts an address in any case and spacing as one, and stores no address', async () => {
      const now = Math.ceil(service.clock.now() / 600_000) * 600_000 + 100 * maxWindowMs;
      const project = { id: service.projectId, config: { rate_limits: defaultRateLimits } };
      const send = (email: string) =>
        limitMailSend(counters, project, { kind: 'password_reset', email, ip: null, now });
      for (let i = 0; i < defaultRateLimits.mails_per_address; i++) {
        await send(i % 2 ? 'Ada@Example.com' : 'ada@example.com');
      }
      await expect(send(' ADA@EXAMPLE.COM ')).rejects.toBeInstanceOf(RateLimitExceeded);
      // Another kind of mail to the same address has its own budget.
      await limitMailSend(counters, project, { kind: 'magic_link', email: 'ada@example.com', ip: null, now });
      expect(await keysWith(`mail:password_reset:${service.projectId}`)).not.toEqual([]);
      expect(await keysWith('example.com')).toEqual([]);
    });
  });
});

describe('counters in the database', () => {
  it('are pruned for finished windows at most once a minute, keeping current ones', async () => {
    const counters = databaseCounters(db());
    const now = Math.ceil(service.clock.now() / 60_000) * 60_000 + 10 * maxWindowMs;
    const [old, recent] = [newKey(), newKey()];
    await hit(counters, old, now - maxWindowMs - 60_000);
    await hit(counters, recent, now - 60_000);
    // Within a minute of that last prune nothing is deleted.
    await hit(counters, newKey(), now - 60_000 + pruneIntervalMs - 1);
    expect((await tableCounters()).map((row) => row.key)).toContain(old);
    await hit(counters, newKey(), now);
    const left = (await tableCounters()).map((row) => row.key);
    expect(left).not.toContain(old);
    expect(left).toContain(recent);
    expect(Math.min(...(await tableCounters()).map((row) => row.window_start.getTime()))).toBeGreaterThanOrEqual(
      now - maxWindowMs,
    );
  });
});
