/**
 * The read side of an audience's data (spec §9): every query it runs
 * (`query.ts`) over its one `QueryCache`, loaded with the audience's scope,
 * so subscribing, reading a snapshot, loading and invalidating are the same
 * functions for all of them. A key is hashed as its parts in JSON, each
 * followed by a comma, so the hash of a key is the prefix of the hashes of
 * the keys below it (`invalidate` and `reset` of a key reach them all).
 */
import type { Query, QueryKey } from '../../query.js';
import type { QueryCache } from './query-cache.js';

/** The operations on app data that resource modules and audiences share. */
export interface DataStore<S> {
  /** The cached value when fresh, else one shared load. */
  load<T>(query: Query<T, S>): Promise<T>;
  /** Loads anew and replaces the cached value (after a mutation). */
  reload<T>(query: Query<T, S>): Promise<T>;
  /** The value as last loaded; `undefined` while not loaded. */
  snapshot<T>(query: Query<T, S>): T | undefined;
  /** Calls `listener` on every change; subscribing loads the value when it is not loaded. */
  subscribe<T>(query: Query<T, S>, listener: () => void): () => void;
  /** Stores a value known without asking the service (`null` after a sign-out, say). */
  set<T>(query: Query<T, S>, value: T): void;
  /** Marks the values at `key` or below it out of date; subscribed ones reload before this settles. */
  invalidate(key: QueryKey): Promise<void>;
  /** Forgets the values at `key` or below it (back to "not loaded"); subscribers get them reloaded. */
  reset(key: QueryKey): void;
}

const hash = (key: QueryKey) => key.map((part) => `${JSON.stringify(part)},`).join('');

/** The data store of an audience: `scope()` is what its queries load with. */
export function createDataStore<S>(cache: QueryCache, scope: () => S): DataStore<S> {
  const loader =
    <T>(query: Query<T, S>) =>
    () =>
      query.load(scope());
  const under = (key: QueryKey) => cache.keysUnder(hash(key));
  return {
    load(query) {
      query.sync?.(scope());
      return cache.fetch(hash(query.key), loader(query));
    },
    reload: (query) => cache.refetch(hash(query.key), loader(query)),
    snapshot: (query) => cache.peek(hash(query.key)),
    subscribe(query, listener) {
      const key = hash(query.key);
      const stopListening = cache.subscribe(key, listener);
      const stopWatching = query.watch?.(scope());
      query.sync?.(scope()); // a change made elsewhere while nobody watched
      if (cache.needsLoad(key)) cache.fetch(key, loader(query)).catch(() => {});
      return () => {
        stopListening();
        stopWatching?.();
      };
    },
    set: (query, value) => cache.set(hash(query.key), value),
    invalidate: async (key) => void (await Promise.all(under(key).map((each) => cache.invalidate(each)))),
    reset: (key) => {
      for (const each of under(key)) cache.reset(each);
    },
  };
}
