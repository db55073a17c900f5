/**
 * Every database a server suite must pass on: PGlite always, PostgreSQL when
 * one answers (`DATABASE_URL`, else postgres://postgres@127.0.0.1:5432/test;
 * see `postgres.ts`). Where nothing answers, the PostgreSQL half is listed as
 * skipped and nothing waits on it.
 *
 * Each backend gives a suite its own database: `testServiceForSuite({ databaseUrl })`
 * and `openBackendStorage` open in-memory PGlite, or a fresh schema on
 * PostgreSQL, and remove it on close.
 *
 * @example
 * describeEachBackend('revoked sessions', (backend) => {
 *   const service = testServiceForSuite({ databaseUrl: backend.databaseUrl });
 *   it('...', async () => { ... }); // listed as "revoked sessions on PGlite > ..." and "... on PostgreSQL > ..."
 * });
 */
import { afterAll, beforeAll, beforeEach, describe } from 'vitest';
import { randomCrockford } from '../crypto/random.js';
import type { ProjectConfigPatch } from '../projects/project-config.js';
import { dropSchema, openPGlite, openStorage, type Storage } from '../storage/open-storage.js';
import { startTestService, type TestService, type TestServiceOptions } from '../testing/index.js';
import { testSeed } from '../testing/seed-cache.js';
import { postgresUp, postgresUrl } from './postgres.js';

export interface Backend {
  /** Ends the suite's name, so a reader sees which backend failed. */
  readonly name: 'PGlite' | 'PostgreSQL';
  /** The `databaseUrl` option of `startTestService`: null for PGlite (in memory). */
  readonly databaseUrl: string | null;
  /** False for PostgreSQL when nothing answers; the suite is then skipped. */
  readonly available: boolean;
}

export const backends: readonly Backend[] = [
  { name: 'PGlite', databaseUrl: null, available: true },
  { name: 'PostgreSQL', databaseUrl: postgresUrl, available: postgresUp },
];

/** Declares `suite` once per backend, as "<title> on <backend>"; an unavailable backend's suite is skipped. */
export function describeEachBackend(title: string, suite: (backend: Backend) => void): void {
  for (const backend of backends) {
    describe.skipIf(!backend.available)(`${title} on ${backend.name}`, () => suite(backend));
  }
}

/** Opens a fresh migrated database on `backend`: in-memory PGlite, or a new schema on PostgreSQL. */
export async function openBackendStorage(backend: Backend): Promise<{ storage: Storage; drop(): Promise<void> }> {
  if (backend.databaseUrl === null) {
    const storage = await openPGlite({ schema: 'public', seed: await testSeed() });
    return { storage, drop: () => storage.close() };
  }
  const storage = await openStorage({ databaseUrl: backend.databaseUrl, schema: `lk_test_${randomCrockford(12)}` });
  return { storage, drop: () => dropSchema(storage) };
}

/**
 * A fresh database for the enclosing suite: opened before its first test,
 * removed after its last. Call it inside the suite; read the storage in tests.
 */
export function useBackendStorage(backend: Backend): () => Storage {
  let opened: { storage: Storage; drop(): Promise<void> } | undefined;
  beforeAll(async () => {
    opened = await openBackendStorage(backend);
  });
  afterAll(async () => {
    await opened?.drop();
  });
  return () => {
    if (!opened) throw new Error(`no database open on ${backend.name}`);
    return opened.storage;
  };
}

/** Options of `testServiceForSuite`: those of `startTestService`, fresh rate-limit windows, a stopped clock. */
export interface SuiteTestServiceOptions extends TestServiceOptions {
  /** Stop the service's clock once it has started: time moves only when a test moves it. */
  frozenClock?: boolean;
  /**
   * Start every test in fresh ten-minute windows (the send and attempt
   * limits count in those), so that no test meets the count of another.
   */
  freshWindows?: boolean;
}

/**
 * A test service for the enclosing suite (or file): started before its first
 * test, closed after its last. The object returned stands for it in tests and
 * hooks (`call(service, ...)`, `service.clock`...); read before the service
 * started, it throws.
 *
 * @example
 * const service = testServiceForSuite({ projectConfig: { magic_link_enabled: true }, freshWindows: true });
 * it('signs up', async () => { await signUp(service); });
 */
export function testServiceForSuite({
  freshWindows,
  frozenClock,
  ...options
}: SuiteTestServiceOptions = {}): TestService {
  let started: TestService | undefined;
  beforeAll(async () => {
    started = await startTestService(options);
    if (frozenClock) started.clock.freeze();
  });
  afterAll(async () => {
    await started?.close();
  });
  const service = standIn(() => started, 'the test service');
  if (freshWindows) beforeEach(() => service.clock.startWindow(10 * 60_000));
  return service;
}

/**
 * Another project (with its own key set) on `service`, for cross-project
 * checks: created before the suite's first test; read it in tests and hooks.
 */
export function otherProjectForSuite(
  service: TestService,
  config?: ProjectConfigPatch,
): Awaited<ReturnType<TestService['createOtherProject']>> {
  let created: Awaited<ReturnType<TestService['createOtherProject']>> | undefined;
  beforeAll(async () => {
    created = await service.createOtherProject(config);
  });
  return standIn(() => created, 'the other project');
}

/**
 * An object that stands for what `get` gives once a `beforeAll` made it,
 * spreading (`{ ...service, projectId }`) included; read any earlier, it throws.
 */
function standIn<T extends object>(get: () => T | undefined, what: string): T {
  const current = (): T => {
    const value = get();
    if (!value) throw new Error(`${what} is made before the first test: read it in tests and hooks`);
    return value;
  };
  return new Proxy({} as T, {
    get: (_, key) => Reflect.get(current(), key),
    has: (_, key) => key in current(),
    ownKeys: () => Reflect.ownKeys(current()),
    getOwnPropertyDescriptor: (_, key) => Reflect.getOwnPropertyDescriptor(current(), key),
  });
}
