/**
 * The limits counted in Redis (`createService({ redisUrl })`): two instances
 * on one Redis hold a guesser back as one, with nothing written to the
 * database's counter tables; keys expire by themselves; and a Redis that is
 * gone, silent or refusing makes the requests that check a limit answer 503
 * with `Retry-After` (never 500, never a hang) while the rest of the service
 * works, until it is back.
 */
import { Writable } from 'node:stream';
import { Redis } from 'ioredis';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../server.js';
import { createService } from '../service.js';
import { dbOf } from '../storage/open-storage.js';
import { authHeaders, call, goodPassword, newEmail, signUp } from '../test-support/api.js';
import { FaultyProxy } from '../test-support/faulty-proxy.js';
import { redisUp, redisUrl } from '../test-support/redis.js';
import { startTestService, type TestService } from '../testing/index.js';
import { commandTimeoutMs } from './redis-counters.js';

const statusOf = (answer: { status: number; headers: Headers }) =>
  Number(answer.headers.get('x-stack-actual-status') ?? answer.status);

const signIn = (target: TestService, email: string, password: string) =>
  call(target, 'POST', '/auth/password/sign-in', { headers: authHeaders(target), json: { email, password } });

/** A second instance of `first`'s service (same database, project, secret and clock), over HTTP. */
async function secondInstance(first: TestService, url: string): Promise<TestService & { stop(): Promise<void> }> {
  const service = createService({
    storage: first.storage,
    secret: first.secret,
    clock: first.clock,
    redisUrl: url,
    logger: false,
    strict: true,
  });
  const server = await startServer({ service, port: 0, host: '127.0.0.1' });
  return { ...first, url: server.url, apiUrl: `${server.url}/api/v1`, service, stop: () => server.close() };
}

describe.skipIf(!redisUp)('two instances on one Redis', () => {
  let first: TestService;
  let second: TestService & { stop(): Promise<void> };
  beforeAll(async () => {
    first = await startTestService({ redisUrl });
    second = await secondInstance(first, redisUrl);
  });
  afterAll(async () => {
    await second?.stop();
    await first?.close();
  });

  it('hold back one account after failures spread over both, and count nothing in the database', async () => {
    const user = await signUp(first);
    for (let i = 0; i < 5; i++) await signIn(i % 2 ? second : first, user.email, `wrong-${i}`);
    for (const instance of [first, second]) {
      const held = await signIn(instance, user.email, user.password);
      expect(statusOf(held)).toBe(429);
      expect(held.headers.get('retry-after')).toBe('1');
    }
    first.clock.advance(1_000); // the instances share the clock, as real ones share time
    expect(statusOf(await signIn(second, user.email, user.password))).toBe(200);
    const db = dbOf(first.storage);
    expect(await db.selectFrom('attempt_failures').selectAll().execute()).toEqual([]);
    expect(await db.selectFrom('rate_limit_counters').selectAll().execute()).toEqual([]);
  });

  it('share one sign-up limit', async () => {
    first.clock.startWindow(10 * 60_000); // a fresh window: the sign-up above counted in the last one
    await first.setProjectConfig({ rate_limits: { sign_ups_per_client: 4 } });
    const signUpOn = (instance: TestService) =>
      call(instance, 'POST', '/auth/password/sign-up', {
        headers: authHeaders(instance),
        json: { email: newEmail('shared'), password: goodPassword },
      });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push(statusOf(await signUpOn(i % 2 ? second : first)));
    expect(statuses).toEqual([200, 200, 200, 200, 429]);
    expect(statusOf(await signUpOn(second))).toBe(429);
  });

  it('leave keys that expire by themselves', async () => {
    const redis = new Redis(redisUrl);
    try {
      await signUp(first);
      await signIn(first, newEmail('expiring'), 'wrong');
      const failures = await redis.keys(`latchkey:failures:signin:${first.projectId}:*`);
      const hits = await redis.keys(`latchkey:hits:signup-ip:${first.projectId}:*`);
      expect(failures.length).toBeGreaterThan(0);
      expect(hits.length).toBeGreaterThan(0);
      for (const key of failures) expect(await redis.pttl(key)).toBeGreaterThan(23 * 60 * 60_000); // a day
      for (const key of hits) expect(await redis.pttl(key)).toBeLessThanOrEqual(10 * 60_000); // the window
    } finally {
      await redis.quit();
    }
  });
});

/** Every line the service logs. */
function capture() {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk, _encoding, done) {
      for (const text of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(text));
      done();
    },
  });
  return { lines, logger: pino(sink) };
}

/** 503 with `Retry-After`, saying what is missing. */
function expectUnavailable(answer: { status: number; headers: Headers; text: string }) {
  expect(statusOf(answer), answer.text).toBe(503);
  expect(answer.headers.get('retry-after')).toBe('2');
  expect(answer.text).toMatch(/cannot reach the Redis that counts its limits/);
}

describe('a Redis that does not answer', () => {
  it('answers 503 at once when nothing listens, while requests that check no limit work', async () => {
    const { lines, logger } = capture();
    const service = await startTestService({ redisUrl: 'redis://127.0.0.1:1', logger });
    try {
      const started = performance.now();
      expectUnavailable(
        await call(service, 'POST', '/auth/password/sign-up', {
          headers: authHeaders(service),
          json: { email: newEmail('any'), password: goodPassword },
        }),
      );
      expectUnavailable(await signIn(service, newEmail('any'), goodPassword));
      expect(performance.now() - started).toBeLessThan(2 * commandTimeoutMs + 1_000);
      const project = await call(service, 'GET', '/projects/current', { headers: authHeaders(service) });
      expect(project.status).toBe(200);
      expect(
        lines.filter(
          (line) => line.msg === 'redis unavailable: requests that check a limit are answered 503 until it is back',
        ),
      ).toHaveLength(1);
      expect(lines.filter((line) => line.status === 500)).toEqual([]);
    } finally {
      await service.close();
    }
  });

  it.skipIf(!redisUp)(
    'answers 503 within the command timeout while Redis is silent or gone, and recovers',
    async () => {
      const target = new URL(redisUrl);
      const proxy = new FaultyProxy({ host: target.hostname, port: Number(target.port || 6379) });
      await proxy.start();
      const viaProxy = new URL(redisUrl);
      viaProxy.hostname = '127.0.0.1';
      viaProxy.port = String(proxy.port);
      const service = await startTestService({ redisUrl: viaProxy.href });
      const timeline: string[] = [];
      const started = performance.now();
      const mark = (what: string) => timeline.push(`${what} after ${Math.round(performance.now() - started)} ms`);
      try {
        const user = await signUp(service);
        proxy.freeze();
        expectUnavailable(await signIn(service, user.email, user.password));
        mark('silent: 503');
        expect(performance.now() - started).toBeLessThan(commandTimeoutMs + 1_500);
        proxy.thaw();
        await proxy.cut();
        const gone = performance.now();
        expectUnavailable(await signIn(service, user.email, user.password));
        mark('gone: 503');
        expect(performance.now() - gone).toBeLessThan(commandTimeoutMs + 1_000);
        await proxy.start();
        let back = await signIn(service, user.email, user.password);
        // The client reconnects by itself, within its retry delay.
        for (let i = 0; i < 40 && statusOf(back) === 503; i++) {
          await new Promise((resolve) => setTimeout(resolve, 50));
          back = await signIn(service, user.email, user.password);
        }
        mark(`back: ${statusOf(back)}`);
        expect(statusOf(back), timeline.join('; ')).toBe(200);
        console.log(`[figure] Redis silent, gone and back: ${timeline.join('; ')}`);
      } finally {
        proxy.thaw();
        await service.close();
        await proxy.close();
      }
    },
  );
});
