/**
 * The read side of an audience's data (spec §9), as resource modules and
 * audiences hold it: every query the audience runs (`query.ts`) over its one
 * `QueryCache`, loaded with the audience's scope, so subscribing, reading a
 * snapshot, loading and invalidating are the same functions for all of them.
 */
import { QueryCache, type QueryCacheOptions } from './query-cache.js';

/** An audience's cache of the queries of scope `S`. */
export type DataStore<S> = QueryCache<S>;

/** The data store of an audience, set up as `options` say: `scope()` is what its queries load with. */
export function createDataStore<S>(options: QueryCacheOptions, scope: () => S): DataStore<S> {
  return new QueryCache(scope, options);
}
