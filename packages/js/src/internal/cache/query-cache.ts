/**
 * A framework-free keyed cache (spec §4, §9): subscriptions per key,
 * concurrent reads of a key share one load, mutations set or invalidate what
 * they change, and an entry is dropped 5 s after its last subscriber leaves.
 * UI bindings only subscribe and read snapshots.
 */
import { cacheDropAfterLastSubscriberMs } from '@latchkey/protocol';
import type { Timers } from '../../options.js';
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

export class QueryCache {
  readonly #entries = new Map<string, Entry<unknown>>();
  readonly #timers: Timers;
  readonly #dropAfterMs: number;

  constructor(options: QueryCacheOptions = {}) {
    this.#timers = options.timers ?? systemTimers;
    this.#dropAfterMs = options.dropAfterMs ?? cacheDropAfterLastSubscriberMs;
  }

  /** The cached value when fresh, else the load in flight, else a new load. */
  fetch<T>(key: string, load: Loader<T>): Promise<T> {
    const entry = this.#entry<T>(key);
    if (entry.hasValue && !entry.stale) return Promise.resolve(entry.value as T);
    return entry.inFlight ?? this.#load(key, entry, load);
  }

  /** Loads anew, replacing the cached value (after a mutation). */
  refetch<T>(key: string, load: Loader<T>): Promise<T> {
    return this.#load(key, this.#entry<T>(key), load);
  }

  /** The cached value, or `undefined` when nothing is loaded yet. */
  peek<T>(key: string): T | undefined {
    return this.#entries.get(key)?.value as T | undefined;
  }

  /** Whether `key` has no up-to-date value and no load running for it. */
  needsLoad(key: string): boolean {
    const entry = this.#entries.get(key);
    return !entry || (entry.inFlight === null && (!entry.hasValue || entry.stale));
  }

  /** Stores `value` for `key`; loads still running for it are ignored. */
  set<T>(key: string, value: T): void {
    const entry = this.#entry<T>(key);
    entry.generation++;
    entry.inFlight = null;
    this.#store(entry, value);
  }

  /**
   * Forgets the value of `key` (back to "not loaded", so nothing out of date
   * is shown meanwhile) and reloads it at once when someone is subscribed.
   */
  reset(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    const hadValue = entry.hasValue;
    entry.generation++;
    entry.inFlight = null;
    entry.value = undefined;
    entry.hasValue = false;
    entry.stale = false;
    if (hadValue) this.#notify(entry);
    if (entry.listeners.size > 0 && entry.loader) this.#load(key, entry, entry.loader).catch(() => {});
  }

  /**
   * Marks `key` out of date; reloads it at once when someone is subscribed
   * (once, however often it is called). Resolves when that reload settled.
   */
  invalidate(key: string): Promise<unknown> | undefined {
    const entry = this.#entries.get(key);
    if (!entry || (entry.stale && entry.inFlight)) return entry?.inFlight?.catch(() => {});
    entry.stale = true;
    entry.generation++;
    entry.inFlight = null;
    if (entry.listeners.size > 0 && entry.loader) return this.#load(key, entry, entry.loader).catch(() => {});
  }

  /** The keys held that start with `prefix`. */
  keysUnder(prefix: string): string[] {
    return [...this.#entries.keys()].filter((key) => key.startsWith(prefix));
  }

  /** Calls `listener` whenever the value of `key` changes. */
  subscribe(key: string, listener: () => void): () => void {
    const entry = this.#entry(key);
    entry.listeners.add(listener);
    this.#timers.clearTimeout(entry.dropHandle);
    return () => {
      entry.listeners.delete(listener);
      if (entry.listeners.size === 0) this.#scheduleDrop(key, entry);
    };
  }

  #entry<T>(key: string): Entry<T> {
    let entry = this.#entries.get(key) as Entry<T> | undefined;
    if (!entry) {
      entry = newEntry<T>();
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

function newEntry<T>(): Entry<T> {
  const entry: Entry<T> = {
    value: undefined,
    hasValue: false,
    stale: false,
    inFlight: null,
    generation: 0,
    loader: null,
    listeners: new Set(),
    dropHandle: undefined,
  };
  return entry;
}
