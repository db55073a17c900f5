/**
 * What request authentication reads on every request — the project and the
 * hashes of its unrevoked keys — kept in memory per project, so the hot path
 * makes no query. A change anywhere (another instance revoking a key, a config
 * update) reaches every instance through the storage's change feed, which
 * drops the project's entry: revocation takes effect as soon as the
 * notification arrives. Entries also expire after `ttlMs`, a backstop against
 * a change written to the database by something that does not notify. While
 * the feed is not listening nothing is cached, so a missed notification cannot
 * leave a revoked key working. Key expiry is checked against the service clock
 * on every lookup, never cached.
 */

import { type ActiveKey, type ApiKeyKind, findUnrevokedKeys } from '../api-keys/api-key-store.js';
import { findProject, type ProjectRecord } from '../projects/projects.js';
import type { ChangeFeed } from '../storage/change-feed.js';
import type { Db } from '../storage/db.js';
import { FeedCache, type FeedCacheStats } from '../storage/feed-cache.js';

/** What the cache holds per project. */
export interface ProjectAuthData {
  project: ProjectRecord | null;
  keys: ActiveKey[];
}

/** Reads a project's entry from the database (nothing for an id PostgreSQL cannot hold). */
export async function readAuthData(db: Db, projectId: string): Promise<ProjectAuthData> {
  if (projectId.includes('\u0000')) return { project: null, keys: [] };
  const project = await findProject(db, projectId);
  return { project, keys: project ? await findUnrevokedKeys(db, projectId) : [] };
}

export interface AuthCacheOptions {
  /** Reads a project's entry from the database. */
  load(projectId: string): Promise<ProjectAuthData>;
  /** The storage's change feed; without one nothing is cached. */
  feed: ChangeFeed | null;
  /** Longest life of an entry (default 5 s); 0 caches nothing. */
  ttlMs?: number;
  /** Most projects held at once; the least recently used goes first (default 10,000). */
  maxEntries?: number;
  /** Monotonic time in ms for the TTL (default `performance.now`). */
  now?: () => number;
}

export class AuthCache {
  readonly #cache: FeedCache<ProjectAuthData>;
  readonly #load: (projectId: string) => Promise<ProjectAuthData>;

  constructor(options: AuthCacheOptions) {
    const feed = options.feed;
    this.#load = options.load;
    this.#cache = new FeedCache({
      live: () => feed?.live ?? false,
      ttlMs: options.ttlMs ?? 5_000,
      maxEntries: options.maxEntries ?? 10_000,
      ...(options.now ? { now: options.now } : {}),
    });
    feed?.subscribe((event) => {
      if (event.type === 'change') this.forget(event.projectId);
      else if (event.type === 'live' || event.type === 'lost') this.clear();
    });
  }

  /** Counters for tests and figures. */
  get stats(): FeedCacheStats {
    return this.#cache.stats;
  }

  /** The project, or null when there is none. */
  async project(projectId: string): Promise<ProjectRecord | null> {
    return (await this.#get(projectId)).project;
  }

  /** The unrevoked keys of `kind` of the project, expired ones included (check `expiresAtMillis`). */
  async keys(projectId: string, kind: ApiKeyKind): Promise<ActiveKey[]> {
    return (await this.#get(projectId)).keys.filter((key) => key.kind === kind);
  }

  #get(projectId: string): Promise<ProjectAuthData> {
    return this.#cache.get(projectId, () => this.#load(projectId));
  }

  /** Drops what is held for the project. */
  forget(projectId: string): void {
    this.#cache.forget(projectId);
  }

  /** Drops everything. */
  clear(): void {
    this.#cache.clear();
  }
}
