/**
 * The database failing under the service: a locked table, a
 * database that accepts connections and never answers, one that goes away
 * and comes back. Before, requests hung for as long as the client waited;
 * now each answers 503 with `Retry-After` within the storage's timeouts, and
 * the service recovers by itself, with nothing lost, when the database does.
 *
 * The PostgreSQL cases run against the machine's PostgreSQL through a TCP
 * proxy the test controls (freeze it: the database goes silent; cut it: the
 * database is gone), with short timeouts so the test stays fast.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders, call, refreshGrant, signUp, userHeaders } from '../test-support/api.js';
import { FaultyProxy } from '../test-support/faulty-proxy.js';
import { postgresUp, postgresUrl } from '../test-support/postgres.js';
import { startTestService, type TestService } from '../testing/index.js';
import { isDatabaseUnavailable } from './db-faults.js';

describe('isDatabaseUnavailable', () => {
  it.each([
    ['statement timeout', { code: '57014' }],
    ['lock timeout', { code: '55P03' }],
    ['too many connections', { code: '53300' }],
    ['connection failure', { code: '08006' }],
    ['server shutting down', { code: '57P01' }],
    ['refused', { code: 'ECONNREFUSED' }],
    ['pool timeout', new Error('timeout exceeded when trying to connect')],
    ['client read timeout', new Error('Query read timeout')],
    ['lost connection', new Error('Connection terminated unexpectedly')],
    ['wrapped', { message: 'failed', cause: { code: '57014' } }],
  ])('%s is a database unavailable for now', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
  });

  it.each([
    ['a unique violation', { code: '23505' }],
    ['a syntax error', { code: '42601' }],
    ['a deadlock (a bug to fix, not to retry)', { code: '40P01' }],
    ['a type error', new TypeError('x is undefined')],
    ['nothing', null],
  ])('%s is not', (_name, error) => {
    expect(isDatabaseUnavailable(error)).toBe(false);
  });
});

const timeouts = { connectMs: 700, statementMs: 1_000, lockMs: 500, idleInTransactionMs: 5_000, queryMs: 1_500 };

/** 503 (moved to `x-stack-actual-status` when the request asked for the status override, as the SDK does). */
function expectUnavailable(answer: { status: number; headers: Headers; text: string }) {
  expect(Number(answer.headers.get('x-stack-actual-status') ?? answer.status), answer.text).toBe(503);
  expect(answer.headers.get('retry-after')).toBe('2');
  expect(answer.text).toMatch(/cannot reach its database/);
}

describe.skipIf(!postgresUp)('PostgreSQL faults', () => {
  let proxy: FaultyProxy;
  let service: TestService;

  beforeAll(async () => {
    const target = new URL(postgresUrl);
    proxy = new FaultyProxy({ host: target.hostname, port: Number(target.port || 5432) });
    await proxy.start();
    const viaProxy = new URL(postgresUrl);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    service = await startTestService({ databaseUrl: viaProxy.href, storageTimeouts: timeouts });
  });

  afterAll(async () => {
    if (proxy) proxy.frozen = false;
    await service?.close();
    await proxy?.close();
  });

  it('answers 503 within the lock timeout while the sessions table is locked, then refreshes again', async () => {
    const user = await signUp(service);
    const locker = new pg.Client({ connectionString: postgresUrl });
    await locker.connect();
    try {
      await locker.query('begin');
      await locker.query(`lock table ${service.storage.schema}.sessions in access exclusive mode`);
      const started = performance.now();
      expectUnavailable(await refreshGrant(service, user.refresh_token));
      expect(performance.now() - started).toBeLessThan(timeouts.statementMs + 1_000);
    } finally {
      await locker.query('rollback').catch(() => {});
      await locker.end();
    }
    expect((await refreshGrant(service, user.refresh_token)).status).toBe(200);
  });

  it('answers 503 within seconds while the database accepts and never answers, and recovers', async () => {
    const user = await signUp(service);
    proxy.freeze();
    const timeline: string[] = [];
    const started = performance.now();
    try {
      const answers = await Promise.all(
        Array.from({ length: 4 }, () => call(service, 'GET', '/users/me', { headers: userHeaders(service, user) })),
      );
      for (const answer of answers) expectUnavailable(answer);
      timeline.push(`frozen: 4 × 503 after ${Math.round(performance.now() - started)} ms`);
      expect(performance.now() - started).toBeLessThan(timeouts.queryMs + timeouts.connectMs + 1_500);
    } finally {
      proxy.thaw();
    }
    const back = await call(service, 'GET', '/users/me', { headers: userHeaders(service, user) });
    timeline.push(`thawed: ${back.status} after ${Math.round(performance.now() - started)} ms`);
    expect(back.status, timeline.join('; ')).toBe(200);
    console.log(`[figure] silent database: ${timeline.join('; ')}`);
  });

  it('answers 503 at once while the database is gone, and loses nothing when it is back', async () => {
    const user = await signUp(service);
    await proxy.cut();
    const started = performance.now();
    const signIn = () =>
      call(service, 'POST', '/auth/password/sign-in', {
        headers: authHeaders(service),
        json: { email: user.email, password: user.password },
      });
    const timeline: string[] = [];
    expectUnavailable(await signIn());
    expectUnavailable(await call(service, 'GET', '/users/me', { headers: userHeaders(service, user) }));
    timeline.push(`gone: 503 after ${Math.round(performance.now() - started)} ms`);
    expect(performance.now() - started).toBeLessThan(timeouts.connectMs * 2 + 1_000);
    await proxy.start();
    const back = await signIn();
    timeline.push(`back: ${back.status} after ${Math.round(performance.now() - started)} ms`);
    expect(back.status, timeline.join('; ')).toBe(200);
    expect(back.body.user_id).toBe(user.user_id);
    console.log(`[figure] database gone and back: ${timeline.join('; ')}`);
  });
});
