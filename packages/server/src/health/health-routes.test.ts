/**
 * `GET /health` and `GET /health/ready` over HTTP: ready on a working
 * service; 503 naming the failed check when migrations are pending or
 * unknown, when the secret does not open the stored keys, and when the
 * database went away; and `verifySecret`, the start-up check behind it.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { pinSecret, verifySecret } from '../operations.js';
import { startServer } from '../server.js';
import { createService } from '../service.js';
import { dbOf } from '../storage/open-storage.js';
import { call, signUp } from '../test-support/api.js';
import { startTestService, type TestService } from '../testing/index.js';

const wrongSecret = 'not the secret this database was made with!!';

let service: TestService;
const extra: Array<() => Promise<void>> = [];

beforeAll(async () => {
  service = await startTestService();
});
afterEach(async () => {
  for (let undo = extra.pop(); undo; undo = extra.pop()) await undo();
});
afterAll(() => service?.close());

/** Another service on the same storage, with `secret`, over HTTP. */
async function serviceWith(secret: string) {
  const other = await startServer({
    service: createService({ storage: service.storage, secret, logger: false }),
    port: 0,
  });
  extra.push(() => other.close());
  return { apiUrl: `${other.url}/api/v1` } as TestService;
}

describe('GET /health', () => {
  it('answers 200 {"status":"ok"} with no project headers', async () => {
    const answer = await call(service, 'GET', '/health');
    expect({ status: answer.status, body: answer.body }).toEqual({ status: 200, body: { status: 'ok' } });
  });
});

describe('GET /health/ready', () => {
  it('answers 200 with every check passed on a working service', async () => {
    await signUp(service); // creates the project's signing key, so the secret is really checked
    const answer = await call(service, 'GET', '/health/ready');
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({ status: 'ready', checks: { database: 'ok', migrations: 'ok', secret: 'ok' } });
    const times: number[] = [];
    for (let i = 0; i < 20; i++) {
      const started = performance.now();
      await call(service, 'GET', '/health/ready');
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    console.info(`ready check over HTTP: median ${times[10]!.toFixed(1)} ms of 20`);
  });

  it('answers 503 naming the secret, and no secret, when the secret does not open the stored keys', async () => {
    await signUp(service);
    const other = await serviceWith(wrongSecret);
    const answer = await call(other, 'GET', '/health/ready');
    expect(answer.status).toBe(503);
    expect(answer.body).toEqual({
      status: 'not_ready',
      failed: ['secret'],
      checks: { database: 'ok', migrations: 'ok', secret: 'mismatch' },
    });
    expect(answer.text).not.toContain(wrongSecret);
  });

  it('answers 503 naming the migrations when the database has one this code does not know', async () => {
    const db = dbOf(service.storage);
    await db
      .insertInto('latchkey_migrations')
      .values({ id: '9999-from-a-newer-version', checksum: 'x', applied_at: new Date() })
      .execute();
    extra.push(async () => {
      await db.deleteFrom('latchkey_migrations').where('id', '=', '9999-from-a-newer-version').execute();
    });
    const answer = await call(service, 'GET', '/health/ready');
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ failed: ['migrations'], checks: { migrations: 'unknown' } });
  });

  it('answers 503 naming the migrations when one is pending', async () => {
    const db = dbOf(service.storage);
    const last = await db.selectFrom('latchkey_migrations').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    await db.deleteFrom('latchkey_migrations').where('id', '=', last.id).execute();
    extra.push(async () => {
      await db.insertInto('latchkey_migrations').values(last).execute();
    });
    const answer = await call(service, 'GET', '/health/ready');
    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ failed: ['migrations'], checks: { migrations: 'pending' } });
  });
});

describe('a database that went away', () => {
  it('leaves /health at 200 and turns /health/ready into 503 naming the database', async () => {
    const gone = await startTestService();
    try {
      await gone.storage.close();
      expect((await call(gone, 'GET', '/health')).status).toBe(200);
      const answer = await call(gone, 'GET', '/health/ready');
      expect(answer.status).toBe(503);
      expect(answer.body).toEqual({
        status: 'not_ready',
        failed: ['database'],
        checks: { database: 'unreachable', migrations: 'not_checked', secret: 'not_checked' },
      });
    } finally {
      await gone.close().catch(() => {});
    }
  });
});

describe('verifySecret (runs last: it leaves the newest key sealed under another secret)', () => {
  it('resolves for the secret the newest key was made with and throws SECRET_MISMATCH for another', async () => {
    const secret = 'the secret a second service was started with';
    const other = await serviceWith(secret);
    const project = await service.createOtherProject();
    expect((await call(other, 'GET', `/projects/${project.projectId}/.well-known/jwks.json`)).status).toBe(200);
    await expect(verifySecret(service.storage, secret)).resolves.toBe('opened');
    await expect(verifySecret(service.storage, wrongSecret)).rejects.toMatchObject({
      name: 'SecretMismatchError',
      code: 'SECRET_MISMATCH',
    });
  });
});

describe('pinSecret', () => {
  it('seals a first key under the secret on a storage with none, so verifySecret can check later starts', async () => {
    const fresh = await startTestService();
    try {
      const secret = 'the secret of the very first start!!';
      await expect(verifySecret(fresh.storage, wrongSecret)).resolves.toBe('no_keys');
      await pinSecret(fresh.storage, secret);
      await expect(verifySecret(fresh.storage, secret)).resolves.toBe('opened');
      await pinSecret(fresh.storage, wrongSecret); // a key exists: changes nothing
      await expect(verifySecret(fresh.storage, wrongSecret)).rejects.toMatchObject({ code: 'SECRET_MISMATCH' });
    } finally {
      await fresh.close();
    }
  });
});
