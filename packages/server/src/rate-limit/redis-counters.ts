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
 * - Failures: a hash of the count and the last failure's time, changed by one
 *   Lua script, so that "start again when the last failure is too old, else
 *   add one" is atomic across instances. The library has no such counter (its
 *   counts expire a fixed time after the first hit, not the last, and keep no
 *   time of the last one, which the growing back-off is measured from). The
 *   hash expires `resetAfterMs` after its last failure, when it would start
 *   again anyway.
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
import { type CounterStore, maxWindowMs } from './counter-store.js';

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

/** KEYS[1]: the failure hash; ARGV: now, resetAfterMs (ms). */
const countFailureScript = `
local now = tonumber(ARGV[1])
local last = tonumber(redis.call('HGET', KEYS[1], 'last'))
if last == nil or last < now - tonumber(ARGV[2]) then
  redis.call('HSET', KEYS[1], 'failures', 1, 'last', ARGV[1])
else
  redis.call('HINCRBY', KEYS[1], 'failures', 1)
  redis.call('HSET', KEYS[1], 'last', ARGV[1])
end
redis.call('PEXPIRE', KEYS[1], ARGV[2])
`;

type ScriptedRedis = Redis & {
  latchkeyCountFailure(key: string, now: string, resetAfterMs: string): Promise<unknown>;
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
  client.defineCommand('latchkeyCountFailure', { numberOfKeys: 1, lua: countFailureScript });
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
    async findFailures(keys) {
      if (keys.length === 0) return [];
      const replies = await available(
        client.multi(keys.map((key) => ['hmget', failureKey(key), 'failures', 'last'])).exec(),
      );
      return keys.flatMap((key, index) => {
        const [error, fields] = replies?.[index] ?? [new Error('the transaction was aborted')];
        if (error) throw new RedisUnavailableError(`Redis: ${error.message}`, { cause: error });
        const [failures, last] = fields as [string | null, string | null];
        return failures === null || last === null
          ? []
          : [{ key, failures: Number(failures), lastFailureAt: Number(last) }];
      });
    },
    async countFailure(key, now, resetAfterMs) {
      await available(client.latchkeyCountFailure(failureKey(key), String(now), String(resetAfterMs)));
    },
    async deleteFailures(key) {
      await available(client.del(failureKey(key)));
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
