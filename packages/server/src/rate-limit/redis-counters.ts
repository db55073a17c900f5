/**
 * The counters in Redis (`createService({ redisUrl })`, `REDIS_URL` for
 * `latchkey start`): every instance on the same Redis enforces the same
 * limits, and no limit check writes to the database. Keys expire by
 * themselves, so nothing is pruned.
 *
 * - Hits: rate-limiter-flexible's `RateLimiterRedis` counts them, with its
 *   atomic increment-and-expire script. The window's start, from the service
 *   clock, is part of the key, so windows are the same fixed windows as in the
 *   database; the expiry (the window's length from the first hit) only
 *   removes windows that have ended.
 * - Attempts under a back-off: a hash per key of the count and the last
 *   attempt's time. One Lua script checks every key of an attempt against
 *   its back-off and, unless one is waiting, counts the attempt against all
 *   of them ("start again when the last is too old, else add one"),
 *   atomically across instances; another takes an attempt back. The library
 *   has no such counter (its counts expire a fixed time after the first hit,
 *   not the last, and keep no time of the last one, which the growing
 *   back-off is measured from). The hash expires `resetAfterMs` after its
 *   last attempt, when it would start again anyway.
 *
 * A Redis that does not answer within `commandTimeoutMs` (down, unreachable,
 * overloaded) makes the call throw `RedisUnavailableError`; the service
 * answers 503 with `Retry-After`, as it does when the database is down. The
 * client logs one warning when the connection is lost and one line when it is
 * back.
 */
import { createRequire } from 'node:module';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { type CounterStore, type FailureCount, maxWindowMs } from './counter-store.js';

// ioredis and rate-limiter-flexible (CommonJS, about 70 ms to load) are loaded when a Redis store is made, not when
// the service's modules load: most services, and every `latchkey dev`, count in the database. Required, not
// imported, so that it stays synchronous: a missing package or a URL ioredis refuses still throws from
// `createService`, at start, as it did when they were imported at the top.
const require = createRequire(import.meta.url);

/** Thrown when Redis cannot count now; the service answers 503 with `Retry-After`. */
export class RedisUnavailableError extends Error {
  override readonly name = 'RedisUnavailableError';
}

/** How long a limit check waits for Redis before the request is answered 503. */
export const commandTimeoutMs = 1000;

const keyPrefix = 'latchkey';

/**
 * KEYS: the attempt hashes; ARGV: now, then free, baseMs, maxMs, resetAfterMs
 * of each key. Counts one attempt against every key unless one is waiting out
 * its back-off (`backOffMs` of attempt-limits.ts); answers 1 or 0 (counted),
 * then each key's failures and last time before (-1, -1: none).
 */
const reserveAttemptScript = `
local now = tonumber(ARGV[1])
local answer = {0}
local waiting = false
for i, key in ipairs(KEYS) do
  local fields = redis.call('HMGET', key, 'failures', 'last')
  local failures, last = tonumber(fields[1]), tonumber(fields[2])
  local free, base, max, reset = tonumber(ARGV[4*i-2]), tonumber(ARGV[4*i-1]), tonumber(ARGV[4*i]), tonumber(ARGV[4*i+1])
  if failures == nil or last == nil then
    answer[#answer+1] = -1
    answer[#answer+1] = -1
  else
    answer[#answer+1] = failures
    answer[#answer+1] = last
    if last >= now - reset and failures >= free and last + math.min(base * 2 ^ (failures - free), max) > now then
      waiting = true
    end
  end
end
if waiting then return answer end
for i, key in ipairs(KEYS) do
  local failures, last, reset = answer[2*i], answer[2*i+1], tonumber(ARGV[4*i+1])
  if failures == -1 or last < now - reset then
    redis.call('HSET', key, 'failures', 1, 'last', ARGV[1])
  else
    redis.call('HSET', key, 'failures', failures + 1, 'last', ARGV[1])
  end
  redis.call('PEXPIRE', key, reset)
end
answer[1] = 1
return answer
`;

/**
 * KEYS: the attempt hashes; ARGV: the time the attempt was counted at, then
 * forget (1 or 0) and the last time before (-1: none) of each key. A
 * forgotten key is deleted; another is one less (gone at zero), its last
 * time put back when no attempt came since.
 */
const releaseAttemptScript = `
for i, key in ipairs(KEYS) do
  local failures = tonumber(redis.call('HGET', key, 'failures'))
  if ARGV[2*i] == '1' or (failures ~= nil and failures <= 1) then
    redis.call('DEL', key)
  elseif failures ~= nil then
    redis.call('HINCRBY', key, 'failures', -1)
    if redis.call('HGET', key, 'last') == ARGV[1] and ARGV[2*i+1] ~= '-1' then
      redis.call('HSET', key, 'last', ARGV[2*i+1])
    end
  end
end
`;

type ScriptedRedis = Redis & {
  latchkeyReserveAttempt(numberOfKeys: number, ...keysAndArgs: string[]): Promise<number[]>;
  latchkeyReleaseAttempt(numberOfKeys: number, ...keysAndArgs: string[]): Promise<unknown>;
};

/** A `CounterStore` on the Redis at `url` (`redis://` or `rediss://`); it connects at once and retries on its own. */
export function redisCounters(url: string, logger: Logger | null): CounterStore {
  const { Redis } = require('ioredis') as typeof import('ioredis');
  const { RateLimiterRedis } = require('rate-limiter-flexible') as typeof import('rate-limiter-flexible');
  const client = new Redis(url, {
    commandTimeout: commandTimeoutMs,
    // A command waiting for a lost connection fails after one reconnect attempt, not twenty.
    maxRetriesPerRequest: 1,
    connectTimeout: 2000,
  }) as ScriptedRedis;
  client.defineCommand('latchkeyReserveAttempt', { lua: reserveAttemptScript });
  client.defineCommand('latchkeyReleaseAttempt', { lua: releaseAttemptScript });
  let down = false;
  client.on('error', (error: Error) => {
    if (down) return;
    down = true;
    logger?.warn(
      { err: { name: error.name, message: error.message } },
      'redis unavailable: requests that check a limit are answered 503 until it is back',
    );
  });
  client.on('ready', () => {
    if (!down) return;
    down = false;
    logger?.info('redis available again');
  });
  const hits = new RateLimiterRedis({
    storeClient: client,
    keyPrefix: `${keyPrefix}:hits`,
    // No limit of its own (the caller compares the count with the project's), and each count gives its window's length.
    points: Number.MAX_SAFE_INTEGER,
    duration: maxWindowMs / 1000,
  });
  const failureKey = (key: string) => `${keyPrefix}:failures:${key}`;
  let closing: Promise<void> | undefined;

  return {
    async countHit(key, window) {
      // `penalty` adds to the count without checking `points`.
      const counted = await available(
        hits.penalty(`${key}:${window.start}`, 1, { customDuration: Math.ceil(window.ms / 1000) }),
      );
      return counted.consumedPoints;
    },
    async reserveAttempt(keys, now) {
      const args = keys.flatMap(([, rule]) => [rule.free, rule.baseMs, rule.maxMs, rule.resetAfterMs].map(String));
      const answer = await available(
        client.latchkeyReserveAttempt(keys.length, ...keys.map(([key]) => failureKey(key)), String(now), ...args),
      );
      const before = keys.map((_, index): FailureCount | null => {
        const [failures, last] = [Number(answer[1 + 2 * index]), Number(answer[2 + 2 * index])];
        return failures < 0 ? null : { failures, lastFailureAt: last };
      });
      return { counted: answer[0] === 1, before };
    },
    async releaseAttempt(releases, reservedAt) {
      if (releases.length === 0) return;
      const args = releases.flatMap(({ forget, before }) => [forget ? '1' : '0', String(before?.lastFailureAt ?? -1)]);
      await available(
        client.latchkeyReleaseAttempt(
          releases.length,
          ...releases.map(({ key }) => failureKey(key)),
          String(reservedAt),
          ...args,
        ),
      );
    },
    close() {
      closing ??= client.quit().then(
        () => {},
        () => client.disconnect(),
      );
      return closing;
    },
  };
}

/** `operation`'s result, or `RedisUnavailableError` when Redis failed it. */
async function available<T>(operation: Promise<T>): Promise<T> {
  try {
    return await operation;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw new RedisUnavailableError(`Redis: ${message}`, { cause: error });
  }
}
