/**
 * The Redis that tests count limits in when one answers: `REDIS_URL`, else
 * redis://127.0.0.1:6379. Suites that must pass on both counter stores use
 * `redisUp` to skip the Redis half when nothing answers.
 */
import { Redis } from 'ioredis';

export const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';

/** True when a Redis answers at `url` within 1.5 s. */
async function isRedisReachable(url: string): Promise<boolean> {
  const client = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 1500,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

/** True when `redisUrl` answers (checked once per test file). */
export const redisUp = await isRedisReachable(redisUrl);
if (!redisUp) console.warn(`Redis half skipped: nothing answers at ${redisUrl} (set REDIS_URL)`);

/** The two counter stores, as options of `startTestService`; the Redis one is `available` only when Redis answers. */
export const counterStores = [
  { store: 'the database', redisUrl: undefined, available: true },
  { store: 'Redis', redisUrl, available: redisUp },
] as const;
