/**
 * Where the limits on guessing keep their counts: the database
 * (`database-counters.ts`, the default) or Redis (`redis-counters.ts`, with
 * `createService({ redisUrl })`). Every instance sharing the store enforces
 * the same limits. A store only counts; what a count means (a limit, a
 * back-off) is decided in `rate-limit.ts` and `attempt-limits.ts`, on the
 * service clock, so both stores behave alike to the millisecond.
 */

/** The longest window a rule may have (the database store prunes counters older than this). */
export const maxWindowMs = 60 * 60_000;

/** A fixed window of hits: it starts at `start` (epoch ms) and lasts `ms`. */
export interface HitWindow {
  start: number;
  ms: number;
}

/** The failures counted against a key, and when the last one was (epoch ms). */
export interface FailureCount {
  key: string;
  failures: number;
  lastFailureAt: number;
}

/** The counters of the limits: hits in fixed windows, and failures with the time of the last one. */
export interface CounterStore {
  /** Counts one hit of `key` in `window`; answers the hits in that window so far, this one included. */
  countHit(key: string, window: HitWindow, now: number): Promise<number>;
  /** The failures of those of `keys` that have any. */
  findFailures(keys: readonly string[]): Promise<FailureCount[]>;
  /** Counts one failure of `key` at `now`; a count whose last failure is over `resetAfterMs` old starts again at one. */
  countFailure(key: string, now: number, resetAfterMs: number): Promise<void>;
  /** Forgets the failures of `key` (a successful sign-in). */
  deleteFailures(key: string): Promise<void>;
  /** Lets go of what the store holds open (the Redis connection). Idempotent. */
  close(): Promise<void>;
}
