/**
 * The rules every in-memory cache of database rows follows, so each cache
 * (projects and keys, `access/auth-cache.ts`; users, `users/user-cache.ts`)
 * only says what it loads and which feed events drop what:
 *
 * - nothing is held while the change feed is not listening (`live()` false),
 *   so a change missed while the connection was down cannot be served;
 * - a load that started before a drop is not stored (a generation counter),
 *   so a reader racing a writer cannot put the old row back;
 * - concurrent misses of one key share one load;
 * - entries expire after `ttlMs` (a backstop), and the least recently used
 *   goes first beyond `maxEntries` (or `maxWeight`, for values whose size
 *   varies).
 */

export interface FeedCacheOptions<V> {
  /** Whether the feed listens now; while false nothing is cached. */
  live(): boolean;
  /** Longest life of an entry; 0 caches nothing. */
  ttlMs: number;
  /** Most entries held at once. */
  maxEntries: number;
  /** What an entry weighs (say, its bytes), with `maxWeight`: the most all entries may weigh together. */
  weigh?: (value: V) => number;
  maxWeight?: number;
  /** Whether a loaded value is worth keeping (default: all are). */
  keep?: (value: V) => boolean;
  /** Monotonic time in ms for the TTL (default `performance.now`). */
  now?: () => number;
}

/** Counters for tests and figures. */
export interface FeedCacheStats {
  hits: number;
  loads: number;
}

interface Entry<V> {
  value: V;
  loadedAt: number;
  weight: number;
}

export class FeedCache<V> {
  readonly #options: FeedCacheOptions<V>;
  readonly #now: () => number;
  readonly #entries = new Map<string, Entry<V>>();
  readonly #loading = new Map<string, Promise<V>>();
  /** Bumped by every drop: a load that started before one must not be stored. */
  #generation = 0;
  /** What the entries weigh together (`weigh`). */
  #weight = 0;
  readonly stats: FeedCacheStats = { hits: 0, loads: 0 };

  constructor(options: FeedCacheOptions<V>) {
    this.#options = options;
    this.#now = options.now ?? (() => performance.now());
  }

  /** The value of `key`: from memory when a fresh entry is held, else what `load` reads from the database. */
  get(key: string, load: () => Promise<V>): Promise<V> {
    if (!this.#options.live() || this.#options.ttlMs <= 0) {
      this.stats.loads++;
      return load();
    }
    const entry = this.#entries.get(key);
    if (entry && this.#now() - entry.loadedAt < this.#options.ttlMs) {
      this.stats.hits++;
      // Least recently used goes first: move the entry to the end.
      this.#entries.delete(key);
      this.#entries.set(key, entry);
      return Promise.resolve(entry.value);
    }
    return this.#loading.get(key) ?? this.#startLoad(key, load);
  }

  /** The number of entries held. */
  get size(): number {
    return this.#entries.size;
  }

  /** What the entries held weigh together (0 without `weigh`). */
  get weight(): number {
    return this.#weight;
  }

  /** Drops what is held for `key`. */
  forget(key: string): void {
    this.#generation++;
    this.#drop(key);
    this.#loading.delete(key);
  }

  /** Drops the entries whose value matches. */
  forgetWhere(matches: (value: V) => boolean): void {
    this.#generation++;
    this.#loading.clear();
    for (const [key, entry] of this.#entries) if (matches(entry.value)) this.#drop(key);
  }

  /** Drops everything. */
  clear(): void {
    this.#generation++;
    this.#entries.clear();
    this.#weight = 0;
    this.#loading.clear();
  }

  #startLoad(key: string, load: () => Promise<V>): Promise<V> {
    const generation = this.#generation;
    const loadedAt = this.#now();
    this.stats.loads++;
    const loading = load().then(
      (value) => {
        if (this.#loading.get(key) === loading) this.#loading.delete(key);
        const current = generation === this.#generation && this.#options.live();
        if (current && (this.#options.keep?.(value) ?? true)) {
          this.#store(key, { value, loadedAt, weight: this.#options.weigh?.(value) ?? 0 });
        }
        return value;
      },
      (error: unknown) => {
        if (this.#loading.get(key) === loading) this.#loading.delete(key);
        throw error;
      },
    );
    this.#loading.set(key, loading);
    return loading;
  }

  #store(key: string, entry: Entry<V>): void {
    const maxWeight = this.#options.maxWeight ?? Number.POSITIVE_INFINITY;
    if (entry.weight > maxWeight) return;
    this.#drop(key);
    this.#entries.set(key, entry);
    this.#weight += entry.weight;
    while (this.#entries.size > this.#options.maxEntries || this.#weight > maxWeight) {
      this.#drop(this.#entries.keys().next().value as string);
    }
  }

  #drop(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#weight -= entry.weight;
  }
}
