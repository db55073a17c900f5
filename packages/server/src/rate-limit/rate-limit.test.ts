/**
 * Rate limits on a real database: fixed windows, Retry-After, keys counted
 * apart, and old counters pruned so the table does not grow without bound.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbOf } from '../storage/open-storage.js';
import { startTestService, type TestService } from '../testing/index.js';
import {
  enforceRateLimit,
  limitMailSend,
  mailsPerAddress,
  maxWindowMs,
  pruneIntervalMs,
  RateLimitExceeded,
} from './rate-limit.js';

let service: TestService;
const db = () => dbOf(service.storage);
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service?.close());

const rule = { limit: 3, windowMs: 60_000 };
let keys = 0;
const newKey = () => `test:${++keys}:${Math.random().toString(36).slice(2)}`;

async function hit(key: string, now: number): Promise<'ok' | number> {
  try {
    await enforceRateLimit(db(), key, rule, now);
    return 'ok';
  } catch (error) {
    if (error instanceof RateLimitExceeded) return error.retryAfterMs;
    throw error;
  }
}

async function counters() {
  return db().selectFrom('rate_limit_counters').selectAll().orderBy('window_start').execute();
}

describe('enforceRateLimit', () => {
  it('allows `limit` hits per window, then refuses with the time left in the window', async () => {
    const start = Math.ceil(service.clock.now() / 60_000) * 60_000;
    const key = newKey();
    expect([await hit(key, start), await hit(key, start + 1), await hit(key, start + 2)]).toEqual(['ok', 'ok', 'ok']);
    expect(await hit(key, start + 20_000)).toBe(40_000);
    expect(await hit(key, start + 59_999)).toBe(1);
    // Another key has its own count; the next window starts again.
    expect(await hit(newKey(), start + 30_000)).toBe('ok');
    expect(await hit(key, start + 60_000)).toBe('ok');
  });

  it('refuses windows longer than the pruning horizon', async () => {
    await expect(enforceRateLimit(db(), newKey(), { limit: 1, windowMs: maxWindowMs + 1 }, 0)).rejects.toThrow(
      /at most/,
    );
  });

  it('prunes counters of finished windows at most once a minute, keeping current ones', async () => {
    const now = Math.ceil(service.clock.now() / 60_000) * 60_000 + 10 * maxWindowMs;
    const [old, recent] = [newKey(), newKey()];
    await hit(old, now - maxWindowMs - 60_000);
    await hit(recent, now - 60_000);
    // Within a minute of that last prune nothing is deleted.
    await hit(newKey(), now - 60_000 + pruneIntervalMs - 1);
    expect((await counters()).map((row) => row.key)).toContain(old);
    await hit(newKey(), now);
    const left = (await counters()).map((row) => row.key);
    expect(left).not.toContain(old);
    expect(left).toContain(recent);
    expect(Math.min(...(await counters()).map((row) => row.window_start.getTime()))).toBeGreaterThanOrEqual(
      now - maxWindowMs,
    );
  });
});

describe('limitMailSend', () => {
  it('counts an address in any case and spacing as one, and stores no address', async () => {
    const now = Math.ceil(service.clock.now() / 600_000) * 600_000 + 100 * maxWindowMs;
    const send = (email: string) =>
      limitMailSend(db(), { projectId: service.projectId, kind: 'password_reset', email, ip: null, now });
    for (let i = 0; i < mailsPerAddress.limit; i++) await send(i % 2 ? 'Ada@Example.com' : 'ada@example.com');
    await expect(send(' ADA@EXAMPLE.COM ')).rejects.toBeInstanceOf(RateLimitExceeded);
    // Another kind of mail to the same address has its own budget.
    await limitMailSend(db(), {
      projectId: service.projectId,
      kind: 'magic_link',
      email: 'ada@example.com',
      ip: null,
      now,
    });
    expect((await counters()).some((row) => row.key.toLowerCase().includes('ada'))).toBe(false);
  });
});
