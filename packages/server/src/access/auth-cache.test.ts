/**
 * The authentication cache: its rules with a counting loader and a feed the
 * test drives, then the real thing — a key revoked on one instance stops
 * working on another sharing the database within a second (PostgreSQL), and
 * on the one instance of an embedded database at once (PGlite). Tests wait on
 * the feed's events, never on timers.
 */
import { headers as h, internalProjectId } from '@latchkey/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomCrockford } from '../crypto/random.js';
import { operatorContext } from '../events/recorder.js';
import { bootstrap, createApiKeySet, createProject, revokeApiKeySet } from '../operations.js';
import { createProject as createProjectAction } from '../projects/projects-actions.js';
import { createService, type Service } from '../service.js';
import { type ChangeFeed, changeFeedOf, type FeedEvent } from '../storage/change-feed.js';
import { dbOf, openPGlite, openStorage, type Storage } from '../storage/open-storage.js';
import { postgresUp, postgresUrl } from '../test-support/postgres.js';
import { dropSchema } from '../testing/index.js';
import { testSeed } from '../testing/seed-cache.js';
import { AuthCache, type ProjectAuthData } from './auth-cache.js';

/** A feed the test drives. */
function drivenFeed(live = true): ChangeFeed & { emit(event: FeedEvent): void } {
  const listeners = new Set<(event: FeedEvent) => void>();
  const feed = {
    live,
    subscribe(listener: (event: FeedEvent) => void) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    publishLocal: (projectId: string) => feed.emit({ type: 'change', projectId }),
    announce: (event: FeedEvent) => feed.emit(event),
    emit(event: FeedEvent) {
      if (event.type === 'live' || event.type === 'lost') feed.live = event.type === 'live';
      for (const listener of listeners) listener(event);
    },
    close: async () => {},
  };
  return feed;
}

function countingLoader() {
  const calls: string[] = [];
  let version = 0;
  let gate: Promise<void> | null = null;
  return {
    calls,
    bump: () => version++,
    hold(until: Promise<void>) {
      gate = until;
    },
    load: async (projectId: string): Promise<ProjectAuthData> => {
      calls.push(projectId);
      const seen = version;
      if (gate) await gate;
      return {
        project: { id: projectId, displayName: `v${seen}` } as ProjectAuthData['project'],
        keys: [],
      };
    },
  };
}

describe('AuthCache', () => {
  it('reads a project once while nothing changes, and again after a change to it', async () => {
    const loader = countingLoader();
    const feed = drivenFeed();
    const cache = new AuthCache({ load: loader.load, feed, now: () => 0 });
    await cache.project('a');
    await cache.keys('a', 'secretServerKey');
    await cache.project('b');
    expect(loader.calls).toEqual(['a', 'b']);
    loader.bump();
    feed.emit({ type: 'change', projectId: 'a' });
    expect((await cache.project('a'))?.displayName).toBe('v1');
    expect((await cache.project('b'))?.displayName).toBe('v0');
    expect(loader.calls).toEqual(['a', 'b', 'a']);
    expect(cache.stats).toEqual({ hits: 2, loads: 3 });
  });

  it('makes one read for concurrent lookups of a project', async () => {
    const loader = countingLoader();
    const cache = new AuthCache({ load: loader.load, feed: drivenFeed(), now: () => 0 });
    await Promise.all(Array.from({ length: 10 }, () => cache.project('a')));
    expect(loader.calls).toEqual(['a']);
  });

  it('expires entries after the TTL', async () => {
    const loader = countingLoader();
    let now = 0;
    const cache = new AuthCache({ load: loader.load, feed: drivenFeed(), ttlMs: 1000, now: () => now });
    await cache.project('a');
    now = 999;
    await cache.project('a');
    now = 1000;
    await cache.project('a');
    expect(loader.calls).toEqual(['a', 'a']);
  });

  it('caches nothing while the feed is not listening, and starts afresh when it listens again', async () => {
    const loader = countingLoader();
    const feed = drivenFeed(false);
    const cache = new AuthCache({ load: loader.load, feed, now: () => 0 });
    await cache.project('a');
    await cache.project('a');
    expect(loader.calls).toHaveLength(2);
    feed.emit({ type: 'live' });
    await cache.project('a');
    await cache.project('a');
    expect(loader.calls).toHaveLength(3);
    feed.emit({ type: 'lost' });
    await cache.project('a');
    expect(loader.calls).toHaveLength(4);
    feed.emit({ type: 'live' });
    await cache.project('a');
    expect(loader.calls).toHaveLength(5);
  });

  it('does not keep a read that a change overtook', async () => {
    const loader = countingLoader();
    const feed = drivenFeed();
    const cache = new AuthCache({ load: loader.load, feed, now: () => 0 });
    let release!: () => void;
    loader.hold(new Promise<void>((resolve) => (release = resolve)));
    const stale = cache.project('a');
    loader.bump();
    feed.emit({ type: 'change', projectId: 'a' });
    const fresh = cache.project('a');
    release();
    expect((await stale)?.displayName).toBe('v0');
    expect((await fresh)?.displayName).toBe('v1');
    loader.hold(Promise.resolve());
    expect((await cache.project('a'))?.displayName).toBe('v1');
    expect(loader.calls).toEqual(['a', 'a']);
  });

  it('holds at most maxEntries projects, dropping the least recently used', async () => {
    const loader = countingLoader();
    const cache = new AuthCache({ load: loader.load, feed: drivenFeed(), maxEntries: 2, now: () => 0 });
    await cache.project('a');
    await cache.project('b');
    await cache.project('a');
    await cache.project('c');
    await cache.project('a');
    await cache.project('b');
    expect(loader.calls).toEqual(['a', 'b', 'c', 'b']);
  });

  it('reads every time with a TTL of 0', async () => {
    const loader = countingLoader();
    const cache = new AuthCache({ load: loader.load, feed: drivenFeed(), ttlMs: 0, now: () => 0 });
    await cache.project('a');
    await cache.project('a');
    expect(loader.calls).toHaveLength(2);
  });
});

/** Resolves with the ms it took for `storage`'s feed to report a change of `projectId`; rejects after `limitMs`. */
function changeOf(storage: Storage, projectId: string, limitMs = 1000): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`no change of ${projectId} reached the feed within ${limitMs} ms`));
    }, limitMs);
    const stop = changeFeedOf(storage).subscribe((event) => {
      if (event.type === 'change' && event.projectId === projectId) {
        clearTimeout(timer);
        stop();
        resolve(performance.now() - started);
      }
    });
  });
}

/** Resolves once `storage`'s feed listens. */
function whenLive(storage: Storage): Promise<void> {
  const feed = changeFeedOf(storage);
  if (feed.live) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = feed.subscribe((event) => {
      if (event.type === 'live') {
        stop();
        resolve();
      }
    });
  });
}

const secret = 'the auth cache test secret, 32 characters+';

function serverRequest(service: Service, projectId: string, secretServerKey: string) {
  return service.fetch(
    new Request('http://localhost/api/v1/projects/current', {
      headers: { [h.projectId]: projectId, [h.accessType]: 'server', [h.secretServerKey]: secretServerKey },
    }),
  );
}

describe.skipIf(!postgresUp)('revocation across instances on PostgreSQL', () => {
  const schema = `lk_cache_${randomCrockford(10)}`;
  let a: Storage;
  let b: Storage;

  beforeAll(async () => {
    a = await openStorage({ databaseUrl: postgresUrl, schema });
    b = await openStorage({ databaseUrl: postgresUrl, schema });
    await bootstrap(a, { dev: false });
  });
  afterAll(async () => {
    await b?.close();
    if (a) await dropSchema(a);
  });

  it('a key revoked through instance B stops working on instance A within 1 s, though A cached it', async () => {
    // A long TTL: only the notification can make A drop what it holds.
    const serviceA = createService({ storage: a, secret, logger: false, authCacheTtlMs: 3_600_000 });
    const serviceB = createService({ storage: b, secret, logger: false, authCacheTtlMs: 3_600_000 });
    await Promise.all([whenLive(a), whenLive(b)]);
    const project = await createProject(a, { displayName: 'Shared' });
    const keys = await createApiKeySet(a, project.id);
    expect((await serverRequest(serviceA, project.id, keys.secretServerKey!)).status).toBe(200);
    expect((await serverRequest(serviceA, project.id, keys.secretServerKey!)).status).toBe(200);

    const reachedA = changeOf(a, project.id);
    const revoke = await serviceB.fetch(
      new Request(`http://localhost/api/v1/internal/api-keys/${keys.id}`, {
        method: 'PATCH',
        headers: {
          [h.projectId]: project.id,
          [h.accessType]: 'admin',
          [h.superSecretAdminKey]: keys.superSecretAdminKey!,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ revoked: true }),
      }),
    );
    expect(revoke.status).toBe(200);
    const ms = await reachedA;
    console.log(
      `[figure] revocation on instance B reached instance A's cache in ${ms.toFixed(1)} ms (PostgreSQL NOTIFY)`,
    );
    expect(ms).toBeLessThan(1000);
    const refused = await serverRequest(serviceA, project.id, keys.secretServerKey!);
    expect(refused.headers.get(h.knownError)).toBe('INVALID_SECRET_SERVER_KEY');
  });

  it('a config change and a deletion through one instance reach the other', async () => {
    const serviceA = createService({ storage: a, secret, logger: false, authCacheTtlMs: 3_600_000 });
    await whenLive(a);
    const project = await createProject(a, { displayName: 'Doomed' });
    const keys = await createApiKeySet(a, project.id);
    expect((await serverRequest(serviceA, project.id, keys.secretServerKey!)).status).toBe(200);
    const reachedA = changeOf(a, project.id);
    const deleted = await createService({ storage: b, secret, logger: false }).fetch(
      new Request('http://localhost/api/v1/projects/current', {
        method: 'DELETE',
        headers: {
          [h.projectId]: project.id,
          [h.accessType]: 'admin',
          [h.superSecretAdminKey]: keys.superSecretAdminKey!,
        },
      }),
    );
    expect(deleted.status).toBe(200);
    expect(await reachedA).toBeLessThan(1000);
    const refused = await serverRequest(serviceA, project.id, keys.secretServerKey!);
    expect(refused.headers.get(h.knownError)).toBe('INVALID_SECRET_SERVER_KEY');
  });

  it('ignores changes of another schema of the same database', async () => {
    const other = await openStorage({ databaseUrl: postgresUrl, schema: `${schema}_x` });
    try {
      await whenLive(a);
      const seen: string[] = [];
      let sawMine!: () => void;
      const mineArrived = new Promise<void>((resolve) => (sawMine = resolve));
      const mineId = `mine-${randomCrockford(8)}`;
      const stop = changeFeedOf(a).subscribe((event) => {
        if (event.type !== 'change') return;
        seen.push(event.projectId);
        if (event.projectId === mineId) sawMine();
      });
      const elsewhere = await createProject(other, { displayName: 'Other schema' });
      // An action with no local feed to tell announces the change only through the database (the operation
      // would also announce it locally at once, and that event could come before the other schema's notification).
      await createProjectAction(
        operatorContext(dbOf(a), null, internalProjectId),
        { displayName: 'Mine', id: mineId },
        null,
      );
      // Notifications arrive in commit order: once A's own arrived, the other schema's has too.
      await mineArrived;
      stop();
      expect(seen).toEqual([mineId]);
      expect(seen).not.toContain(elsewhere.id);
    } finally {
      await dropSchema(other);
    }
  });
});

describe('revocation on the embedded database (PGlite)', () => {
  let storage: Storage;
  beforeAll(async () => {
    storage = await openPGlite({ schema: 'public', seed: await testSeed() });
    await bootstrap(storage, { dev: false });
  });
  afterAll(() => storage?.close());

  it('listens from the moment the storage is open', () => {
    expect(changeFeedOf(storage).live).toBe(true);
  });

  it('a key revoked through the operations stops working at once on the service that cached it', async () => {
    const service = createService({ storage, secret, logger: false, authCacheTtlMs: 3_600_000 });
    const project = await createProject(storage, { displayName: 'Embedded' });
    const keys = await createApiKeySet(storage, project.id);
    expect((await serverRequest(service, project.id, keys.secretServerKey!)).status).toBe(200);
    const reached = changeOf(storage, project.id);
    expect(await revokeApiKeySet(storage, project.id, keys.id)).toBe(true);
    expect(await reached).toBeLessThan(1000);
    const refused = await serverRequest(service, project.id, keys.secretServerKey!);
    expect(refused.headers.get(h.knownError)).toBe('INVALID_SECRET_SERVER_KEY');
  });

  it('a key revoked over HTTP stops working at once', async () => {
    const service = createService({ storage, secret, logger: false, authCacheTtlMs: 3_600_000 });
    const project = await createProject(storage, { displayName: 'Embedded 2' });
    const keys = await createApiKeySet(storage, project.id);
    const admin = await createApiKeySet(storage, project.id);
    expect((await serverRequest(service, project.id, keys.secretServerKey!)).status).toBe(200);
    const revoke = await service.fetch(
      new Request(`http://localhost/api/v1/internal/api-keys/${keys.id}`, {
        method: 'PATCH',
        headers: {
          [h.projectId]: project.id,
          [h.accessType]: 'admin',
          [h.superSecretAdminKey]: admin.superSecretAdminKey!,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ revoked: true }),
      }),
    );
    expect(revoke.status).toBe(200);
    const refused = await serverRequest(service, project.id, keys.secretServerKey!);
    expect(refused.headers.get(h.knownError)).toBe('INVALID_SECRET_SERVER_KEY');
  });
});
