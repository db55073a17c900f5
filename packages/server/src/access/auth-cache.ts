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

interface Entry {
  data: ProjectAuthData;
  loadedAt: number;
}

/** Counters for tests and figures. */
export interface AuthCacheStats {
  hits: number;
  loads: number;
}

export class AuthCache {
  readonly #load: (projectId: string) => Promise<ProjectAuthData>;
  readonly #feed: ChangeFeed | null;
  readonly #ttlMs: number;
  readonly #maxEntries: number;
  readonly #now: () => number;
  readonly #entries = new Map<string, Entry>();
  readonly #loading = new Map<string, Promise<ProjectAuthData>>();
  /** Bumped by every change: a load that started before one must not be stored. */
  #generation = 0;
  readonly stats: AuthCacheStats = { hits: 0, loads: 0 };

  constructor(options: AuthCacheOptions) {
    this.#load = options.load;
    this.#feed = options.feed;
    this.#ttlMs = options.ttlMs ?? 5_000;
    this.#maxEntries = options.maxEntries ?? 10_000;
    this.#now = options.now ?? (() => performance.now());
    this.#feed?.subscribe((event) => {
      if (event.type === 'change') this.forget(event.projectId);
      else this.clear();
    });
  }

  /** The project, or null when there is none. */
  async project(projectId: string): Promise<ProjectRecord | null> {
    return (await this.#get(projectId)).project;
  }

  /** The unrevoked keys of `kind` of the project, expired ones included (check `expiresAtMillis`). */
  async keys(projectId: string, kind: ApiKeyKind): Promise<ActiveKey[]> {
    return (await this.#get(projectId)).keys.filter((key) => key.kind === kind);
  }

  /** Drops what is held for the project. */
  forget(projectId: string): void {
    this.#generation++;
    this.#entries.delete(projectId);
    this.#loading.delete(projectId);
  }

  /** Drops everything. */
  clear(): void {
    this.#generation++;
    this.#entries.clear();
    this.#loading.clear();
  }

  #get(projectId: string): Promise<ProjectAuthData> {
    if (!this.#feed?.live || this.#ttlMs <= 0) {
      this.stats.loads++;
      return this.#load(projectId);
    }
    const entry = this.#entries.get(projectId);
    if (entry && this.#now() - entry.loadedAt < this.#ttlMs) {
      this.stats.hits++;
      // Least recently used goes first: move the entry to the end.
      this.#entries.delete(projectId);
      this.#entries.set(projectId, entry);
      return Promise.resolve(entry.data);
    }
    return this.#loading.get(projectId) ?? this.#startLoad(projectId);
  }

  #startLoad(projectId: string): Promise<ProjectAuthData> {
    const generation = this.#generation;
    const loadedAt = this.#now();
    this.stats.loads++;
    const loading = this.#load(projectId).then(
      (data) => {
        if (this.#loading.get(projectId) === loading) this.#loading.delete(projectId);
        if (generation === this.#generation && this.#feed?.live) this.#store(projectId, { data, loadedAt });
        return data;
      },
      (error: unknown) => {
        if (this.#loading.get(projectId) === loading) this.#loading.delete(projectId);
        throw error;
      },
    );
    this.#loading.set(projectId, loading);
    return loading;
  }

  #store(projectId: string, entry: Entry): void {
    this.#entries.delete(projectId);
    this.#entries.set(projectId, entry);
    while (this.#entries.size > this.#maxEntries) {
      const oldest = this.#entries.keys().next().value as string;
      this.#entries.delete(oldest);
    }
  }
}
