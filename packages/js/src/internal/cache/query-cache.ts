/**
 * The cache of an audience (spec §4, §9), framework-free: the value of each
 * query it runs, by key, loaded with the audience's scope. Concurrent reads
 * of a key share one load; mutations set, invalidate or reset what they
 * change; an entry is dropped 5 s after its last subscriber leaves (or 5 s
 * after a load nobody subscribed to). UI bindings only subscribe and read
 * snapshots.
 *
 * A key is hashed as its parts in JSON, each followed by a comma, so the hash
 * of a key is the prefix of the hashes of the keys below it: `invalidate`
 * and `reset` of a key reach them all.
 */
import { cacheDropAfterLastSubscriberMs } from '@latchkey/protocol';
import type { Timers } from '../../options.js';
import type { Query, QueryKey } from '../../query.js';
import { systemTimers } from '../timers.js';

type Loader<T> = () => Promise<T>;

interface Entry<T> {
  value: T | undefined;
  hasValue: boolean;
  stale: boolean;
  inFlight: Promise<T> | null;
  /** Bumped by every load and `set`; a load only stores its result if it is still the latest. */
  generation: number;
  loader: Loader<T> | null;
  listeners: Set<() => void>;
  dropHandle: unknown;
}

export interface QueryCacheOptions {
  timers?: Timers;
  dropAfterMs?: number;
}

const hash = (key: QueryKey) => key.map((part) => `${JSON.stringify(part)},`).join('');

/** The queries of scope `S` and their values. */
export class QueryCache<S> {
  readonly #entries = new Map<string, Entry<unknown>>();
  readonly #scope: () => S;
  readonly #timers: Timers;
  readonly #dropAfterMs: number;

  /** `scope()` is what the queries load with (read at each load, so it may be made after the cache). */
  constructor(scope: () => S, options: QueryCacheOptions = {}) {
    this.#scope = scope;
    this.#timers = options.timers ?? systemTimers;
    this.#dropAfterMs = options.dropAfterMs ?? cacheDropAfterLastSubscriberMs;
  }

  /** The cached value when fresh, else the load in flight, else a new load. */
  load<T>(query: Query<T, S>): Promise<T> {
    query.sync?.(this.#scope()); // a change made elsewhere (another tab's session)
    const key = hash(query.key);
    const entry = this.#entry<T>(key);
    if (entry.hasValue && !entry.stale) return Promise.resolve(entry.value as T);
    return entry.inFlight ?? this.#load(key, entry, () => query.load(this.#scope()));
  }

  /** Loads anew, replacing the cached value (after a mutation). */
  reload<T>(query: Query<T, S>): Promise<T> {
    const key = hash(query.key);
    return this.#load(key, this.#entry<T>(key), () => query.load(this.#scope()));
  }

  /** The value as last loaded; `undefined` while not loaded. */
  snapshot<T>(query: Query<T, S>): T | undefined {
    return this.#entries.get(hash(query.key))?.value as T | undefined;
  }

  /** Stores a value known without asking the service (`null` after a sign-out, say); loads running are ignored. */
  set<T>(query: Query<T, S>, value: T): void {
    const entry = this.#entry<T>(hash(query.key));
    entry.generation++;
    entry.inFlight = null;
    this.#store(entry, value);
  }

  /**
   * Calls `listener` whenever the value changes; loads it when it is not
   * loaded, and runs the query's `watch` while subscribed.
   */
  subscribe<T>(query: Query<T, S>, listener: () => void): () => void {
    const key = hash(query.key);
    const entry = this.#entry<T>(key);
    entry.listeners.add(listener);
    this.#timers.clearTimeout(entry.dropHandle);
    const stopWatching = query.watch?.(this.#scope());
    this.load(query).catch(() => {});
    return () => {
      entry.listeners.delete(listener);
      stopWatching?.();
      if (entry.listeners.size === 0) this.#scheduleDrop(key, entry);
    };
  }

  /**
   * Marks the values at `key` or below it out of date: subscribed ones reload
   * at once (once, however often this is called) and this settles when they
   * have; the others reload on their next read. A field, so it may be
   * handed on unbound.
   */
  readonly invalidate = async (key: QueryKey): Promise<void> => {
    const reloads = this.#under(key).map(([at, entry]) => {
      if (!(entry.stale && entry.inFlight)) {
        entry.stale = true;
        entry.generation++;
        entry.inFlight = null;
        if (entry.listeners.size > 0 && entry.loader) this.#load(at, entry, entry.loader);
      }
      return entry.inFlight;
    });
    await Promise.allSettled(reloads);
  };

  /**
   * Forgets the values at `key` or below it (back to "not loaded", so nothing
   * out of date is shown meanwhile); subscribed ones reload at once.
   */
  reset(key: QueryKey): void {
    for (const [at, entry] of this.#under(key)) {
      const hadValue = entry.hasValue;
      entry.generation++;
      entry.inFlight = null;
      entry.value = undefined;
      entry.hasValue = false;
      entry.stale = false;
      if (hadValue) this.#notify(entry);
      if (entry.listeners.size > 0 && entry.loader) this.#load(at, entry, entry.loader).catch(() => {});
    }
  }

  #under(key: QueryKey): [string, Entry<unknown>][] {
    const prefix = hash(key);
    return [...this.#entries].filter(([at]) => at.startsWith(prefix));
  }

  #entry<T>(key: string): Entry<T> {
    let entry = this.#entries.get(key) as Entry<T> | undefined;
    if (!entry) {
      entry = {
        value: undefined,
        hasValue: false,
        stale: false,
        inFlight: null,
        generation: 0,
        loader: null,
        listeners: new Set(),
        dropHandle: undefined,
      };
      this.#entries.set(key, entry as Entry<unknown>);
      this.#scheduleDrop(key, entry);
    }
    return entry;
  }

  #load<T>(key: string, entry: Entry<T>, load: Loader<T>): Promise<T> {
    const generation = ++entry.generation;
    entry.loader = load;
    const isLatest = () => entry.generation === generation && this.#entries.get(key) === entry;
    const settle = (): boolean => {
      const latest = isLatest();
      if (latest) entry.inFlight = null;
      // The drop waits for loads in flight (see scheduleDrop): count the 5 s from now.
      if (entry.listeners.size === 0) this.#scheduleDrop(key, entry);
      return latest;
    };
    const promise = load().then(
      (value) => {
        if (settle()) this.#store(entry, value);
        return value;
      },
      (error: unknown) => {
        settle();
        throw error;
      },
    );
    entry.inFlight = promise;
    return promise;
  }

  #store<T>(entry: Entry<T>, value: T): void {
    const changed = !entry.hasValue || entry.value !== value;
    entry.value = value;
    entry.hasValue = true;
    entry.stale = false;
    if (changed) this.#notify(entry);
  }

  #notify(entry: Entry<unknown>): void {
    for (const listener of [...entry.listeners]) listener();
  }

  #scheduleDrop(key: string, entry: Entry<unknown>): void {
    this.#timers.clearTimeout(entry.dropHandle);
    entry.dropHandle = this.#timers.setTimeout(() => {
      // A load in flight keeps its entry (a reader waits for it); it schedules the drop again when it settles.
      const unused = entry.listeners.size === 0 && entry.inFlight === null;
      if (unused && this.#entries.get(key) === entry) this.#entries.delete(key);
    }, this.#dropAfterMs);
    // A pending drop must not keep a Node process alive.
    (entry.dropHandle as { unref?: () => void } | undefined)?.unref?.();
  }
}
