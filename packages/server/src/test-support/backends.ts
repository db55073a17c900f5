/**
 * Every database a server suite must pass on: PGlite always, PostgreSQL when
 * one answers (`DATABASE_URL`, else postgres://postgres@127.0.0.1:5432/test;
 * see `postgres.ts`). Where nothing answers, the PostgreSQL half is listed as
 * skipped and nothing waits on it.
 *
 * Each backend gives a suite its own database: `startTestService({ databaseUrl })`
 * and `openBackendStorage` open in-memory PGlite, or a fresh schema on
 * PostgreSQL, and remove it on close.
 *
 * @example
 * describeEachBackend('revoked sessions', (backend) => {
 *   let service: TestService;
 *   beforeAll(async () => { service = await startTestService({ databaseUrl: backend.databaseUrl }); });
 *   afterAll(() => service?.close());
 *   it('...', async () => { ... }); // listed as "revoked sessions on PGlite > ..." and "... on PostgreSQL > ..."
 * });
 */
import { afterAll, beforeAll, describe } from 'vitest';
import { randomCrockford } from '../crypto/random.js';
import { dropSchema, openPGlite, openStorage, type Storage } from '../storage/open-storage.js';
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
