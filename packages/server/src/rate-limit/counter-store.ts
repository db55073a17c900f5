/**
 * Where the limits on guessing keep their counts: the database
 * (`database-counters.ts`, the default) or Redis (`redis-counters.ts`, with
 * `createService({ redisUrl })`). Every instance sharing the store enforces
 * the same limits. A store counts on the service clock, so both stores behave
 * alike to the millisecond. What a hit count means is decided in
 * `rate-limit.ts`; a back-off is decided by the store itself, in the same
 * atomic step that counts the attempt (`reserveAttempt`), by the rule
 * `attempt-limits.ts` defines and gives it (`backOffMs` there is the
 * reference the stores' SQL and Lua follow).
 */

import type { Write } from '../storage/db.js';

/** The longest window a rule may have (the database store prunes counters older than this). */
export const maxWindowMs = 60 * 60_000;

/** A fixed window of hits: it starts at `start` (epoch ms) and lasts `ms`. */
interface HitWindow {
  start: number;
  ms: number;
}

/**
 * A back-off: `free` attempts without a wait, then `baseMs` doubling per
 * further attempt up to `maxMs`, measured from the last one; a count whose
 * last attempt is over `resetAfterMs` old starts again.
 */
export interface BackOff {
  free: number;
  baseMs: number;
  maxMs: number;
  resetAfterMs: number;
}

/** The attempts counted against a key, and when the last one was (epoch ms). */
export interface FailureCount {
  failures: number;
  lastFailureAt: number;
}

/** What `reserveAttempt` did. */
interface AttemptReservation {
  /** True when one attempt was counted against every key; false when a key was waiting and none was. */
  counted: boolean;
  /** Each key's count just before, in the order given (null: none); a count past its reset is given as it was. */
  before: (FailureCount | null)[];
}

/** An attempt `reserveAttempt` counted, to take back: `forget` the key's whole count, or only this attempt. */
export interface AttemptRelease {
  key: string;
  forget: boolean;
  /** The key's count before the attempt (from the reservation), whose last time is put back if no attempt came since. */
  before: FailureCount | null;
}

/** The counters of the limits: hits in fixed windows, and attempts under a back-off. */
export interface CounterStore {
  /** Counts one hit of `key` in `window`; answers the hits in that window so far, this one included. */
  countHit(key: string, window: HitWindow, now: number): Promise<number>;
  /**
   * Counts one attempt at `now` against every key, in one atomic step per
   * key and one round trip, unless a key is waiting out its back-off (its
   * count is `free` or more, under `resetAfterMs` old, and the wait since its
   * last attempt has not passed): then none is counted. A count past its
   * reset starts again at one. Because the count is taken before the attempt
   * is checked, attempts sent at once cannot all pass one reading of it.
   */
  reserveAttempt(keys: readonly [string, BackOff][], now: number): Promise<AttemptReservation>;
  /** Takes back attempts `reserveAttempt` counted at `reservedAt` (a success, or a refusal by another key). */
  releaseAttempt(releases: readonly AttemptRelease[], reservedAt: number): Promise<void>;
  /**
   * What `releaseAttempt` does, as unsent writes, for a store kept in the
   * service's database: sent with a sign-in's session, they cost no statement
   * of their own. Absent for a store elsewhere (Redis).
   */
  releaseWrites?(releases: readonly AttemptRelease[], reservedAt: number): readonly Write[];
  /** Lets go of what the store holds open (the Redis connection). Idempotent. */
  close(): Promise<void>;
}
