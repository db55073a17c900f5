/**
 * The generic read side of an app's data (spec §9): every entity an app
 * exposes (the user, the project, later teams or a team's members) is a
 * `DataQuery` over the one `QueryCache`, so subscribing, reading a snapshot
 * and loading are the same three functions for all of them. An entity is a
 * line in an audience's query table, not a new subscribe/snapshot pair.
 */
import type { QueryCache } from './query-cache.js';

/** One piece of app data: where it sits in the cache and how to load it. */
export interface DataQuery<T> {
  /** Cache key; include any parameter, e.g. `team-members:<team id>`. */
  readonly key: string;
  load(): Promise<T>;
  /** Runs while anyone is subscribed (e.g. watching other tabs' cookies); returns its stop function. */
  watch?(): () => void;
  /** Takes in changes made elsewhere before each read (e.g. a session another tab ended). */
  sync?(): void;
}

/** The operations on app data that resource modules and audiences share. */
export interface DataStore {
  /** The cached value when fresh, else one shared load. */
  load<T>(query: DataQuery<T>): Promise<T>;
  /** Loads anew and replaces the cached value (after a mutation). */
  reload<T>(query: DataQuery<T>): Promise<T>;
  /** The value as last loaded; `undefined` while not loaded. */
  snapshot<T>(query: DataQuery<T>): T | undefined;
  /** Calls `listener` on every change; subscribing loads the value when it is not loaded. */
  subscribe<T>(query: DataQuery<T>, listener: () => void): () => void;
  /** Stores a value known without asking the service (`null` after a sign-out, say). */
  set<T>(query: DataQuery<T>, value: T): void;
  /** Marks the value out of date; subscribers get it reloaded. */
  invalidate(query: DataQuery<unknown>): void;
  /** Forgets the value (back to "not loaded"); subscribers get it reloaded. */
  reset(query: DataQuery<unknown>): void;
}

export function createDataStore(cache: QueryCache): DataStore {
  return {
    load(query) {
      query.sync?.();
      return cache.fetch(query.key, () => query.load());
    },
    reload(query) {
      return cache.refetch(query.key, () => query.load());
    },
    snapshot: (query) => cache.peek(query.key),
    subscribe(query, listener) {
      const stopListening = cache.subscribe(query.key, listener);
      const stopWatching = query.watch?.();
      query.sync?.(); // a change made elsewhere while nobody watched
      if (cache.needsLoad(query.key)) cache.fetch(query.key, () => query.load()).catch(() => {});
      return () => {
        stopListening();
        stopWatching?.();
      };
    },
    set: (query, value) => cache.set(query.key, value),
    invalidate: (query) => cache.invalidate(query.key),
    reset: (query) => cache.reset(query.key),
  };
}
