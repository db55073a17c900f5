/**
 * A second instance of a test service: its own `createService` and storage
 * on the same PostgreSQL schema, served on its own port, with the first
 * one's project, keys, secret and clock. Everything that takes a
 * `TestService` (`call`, `refreshGrant`, `userHeaders`, …) works on it, so a
 * test reads "through A, then on B" with the same helpers.
 *
 * @example
 * const b = await startSecondInstance(a);
 * await call(b, 'GET', '/users/me', { headers: userHeaders(b, tokens) });
 * await b.close();
 */
import { afterAll, beforeAll } from 'vitest';
import { startServer } from '../server.js';
import { createService } from '../service.js';
import { openStorage } from '../storage/open-storage.js';
import { startTestService, type TestService } from '../testing/index.js';
import { postgresUrl } from './postgres.js';

async function startSecondInstance(first: TestService): Promise<TestService> {
  if (first.storage.kind !== 'postgres') throw new TypeError('a second instance needs PostgreSQL');
  const storage = await openStorage({ databaseUrl: postgresUrl, schema: first.storage.schema });
  const service = createService({
    storage,
    secret: first.secret,
    logger: false,
    clock: first.clock,
    strict: true,
    development: true,
  });
  const server = await startServer({ service, port: 0, host: '127.0.0.1' });
  let closing: Promise<void> | undefined;
  return {
    ...first,
    url: server.url,
    apiUrl: `${server.url}/api/v1`,
    fetch: (input, init) =>
      service.fetch(input instanceof Request ? input : new Request(new URL(input, server.url), init)),
    storage,
    service,
    deliverMail: () => service.deliverMail(),
    deliverWebhooks: () => service.deliverWebhooks(),
    close: () => {
      // The server closes the service; the storage is the first one's schema, which the first drops.
      closing ??= server.close().finally(() => storage.close());
      return closing;
    },
  };
}

/**
 * A test service on PostgreSQL and a second instance of it, started before the
 * suite's tests and closed after them (register it in a `describe`).
 *
 * @example
 * const instances = twoInstances();
 * it('…', async () => {
 *   const { first, second } = instances;
 * });
 */
export function twoInstances(): { readonly first: TestService; readonly second: TestService } {
  let first: TestService | undefined;
  let second: TestService | undefined;
  beforeAll(async () => {
    first = await startTestService({ databaseUrl: postgresUrl });
    second = await startSecondInstance(first);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });
  const started = (service: TestService | undefined) => {
    if (!service) throw new Error('twoInstances: used before its beforeAll ran');
    return service;
  };
  return {
    get first() {
      return started(first);
    },
    get second() {
      return started(second);
    },
  };
}
