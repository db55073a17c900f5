/**
 * Attempt limits for password sign-in: a growing back-off after failures,
 * kept in the service's counter store (the database, or Redis) so every
 * instance enforces the same one.
 *
 * Two counters hold a guesser back, each with a few free failures (the
 * project's `rate_limits`, `limit-settings.ts`) and then a wait that doubles
 * with every further failure, up to a cap:
 * - per account (the e-mail, hashed, in the project): by default after 5
 *   failures, 1 s, then 2 s, 4 s, … up to 15 minutes, from any address. At
 *   most about a hundred guesses a day reach an account, the NIST 800-63B
 *   ceiling, and a victim is never locked out for good: the wait is bounded,
 *   and their own correct password goes through once it is over.
 * - per client address (in the project): by default after 50 failures, the
 *   same doubling, so one client cannot spread guesses over many accounts.
 *
 * Each attempt is counted against both before its password is hashed, in
 * one atomic step that refuses it instead (429 with `Retry-After`, counting
 * nothing) while a wait runs: guesses sent at once each see the others, so a
 * burst gets the free failures checked and no more, and one guess after each
 * wait. Refusing before the hash is also what keeps guessing from eating the
 * CPU legitimate sign-ins need. A success clears the account's count and
 * takes its attempt back from the address's (a guesser's own account must
 * not reset the address's failures). Counts older than their reset period
 * start again.
 */
import { sha256Hex } from '../crypto/hash.js';
import type { Write } from '../storage/db.js';
import type { BackOff, CounterStore } from './counter-store.js';
import { defaultRateLimits, type LimitedProject } from './limit-settings.js';
import { RateLimitExceeded } from './rate-limit.js';

const second = 1000;
const minute = 60 * second;

/** Per account: a person mistyping a few times never waits. `free` is the project's setting; this is the default. */
export const accountBackOff: BackOff = {
  free: defaultRateLimits.sign_in_failures_per_account,
  baseMs: second,
  maxMs: 15 * minute,
  resetAfterMs: 24 * 60 * minute,
};
/** Per client address: room for a shared office address, none for a guessing machine. `free` as above. */
export const clientBackOff: BackOff = {
  free: defaultRateLimits.sign_in_failures_per_client,
  baseMs: second,
  maxMs: 15 * minute,
  resetAfterMs: 60 * minute,
};

export type { BackOff } from './counter-store.js';

/**
 * How long after the last failure the next attempt must wait (0: it may go).
 * The stores decide with the same formula, in SQL and Lua, in the step that
 * counts the attempt (`CounterStore.reserveAttempt`).
 */
export function backOffMs(failures: number, rule: BackOff): number {
  if (failures < rule.free) return 0;
  return Math.min(rule.baseMs * 2 ** (failures - rule.free), rule.maxMs);
}

/** The counters of one sign-in attempt, under the project's limits: its account and, when known, its client's address. */
export function signInKeys(project: LimitedProject, email: string, ip: string | null): [string, BackOff][] {
  const limits = project.config.rate_limits;
  const account = `signin:${project.id}:${sha256Hex(email.trim().toLowerCase())}`;
  const keys: [string, BackOff][] = [[account, { ...accountBackOff, free: limits.sign_in_failures_per_account }]];
  if (ip !== null) {
    keys.push([`signin-ip:${project.id}:${ip}`, { ...clientBackOff, free: limits.sign_in_failures_per_client }]);
  }
  return keys;
}

/** An attempt counted before its password is checked: a failure stays counted, a success is taken back. */
export interface ReservedAttempt {
  /**
   * Some key failed lately: the attempt's password check waits behind those of clean attempts. Attempts of
   * this instance still being checked are not failures (yet): sign-ins sent at once to one account are not
   * suspects of each other.
   */
  suspect: boolean;
  /** After a failed check: the attempt stays counted, as a failure now. */
  failed(): void;
  /** After a success: clears the account's count (the first key) and takes the attempt back from the others. */
  succeeded(): Promise<void>;
  /**
   * After a success, what `succeeded` does, for the session's statement to
   * carry: with the counts in the database, its `writes` (then the attempt
   * stays counted if that statement fails; call `failed` once it is sent);
   * with them elsewhere (Redis), no writes, and `done` is `succeeded()`.
   */
  succeeding(): { writes: readonly Write[]; done: Promise<void> };
}

/**
 * Attempts each store's instance has counted and not yet decided, per key: the counts a reservation reads
 * include them, and a count made only of them is no failure. Per store, so two services in one process keep
 * their own; attempts counted by other instances still look like failures here (the cost: a lower hashing
 * priority, never a wrong limit).
 */
const undecided = new WeakMap<CounterStore, Map<string, number>>();

function undecidedOf(counters: CounterStore): Map<string, number> {
  let byKey = undecided.get(counters);
  if (!byKey) {
    byKey = new Map();
    undecided.set(counters, byKey);
  }
  return byKey;
}

function settle(byKey: Map<string, number>, keys: readonly [string, BackOff][]): void {
  for (const [key] of keys) {
    const left = (byKey.get(key) ?? 1) - 1;
    if (left > 0) byKey.set(key, left);
    else byKey.delete(key);
  }
}

/**
 * Counts the attempt against every one of `keys` before its password is
 * checked, atomically (attempts sent at once each see the others' counts),
 * or throws `RateLimitExceeded` (429, `Retry-After`), counting nothing,
 * while any of them is waiting out its back-off. Call `failed` after a
 * failed check (it stays counted) and `succeeded` after a success.
 *
 * @example
 * const attempt = await reserveAttempt(deps.counters, signInKeys(project, email, ip), deps.clock.now());
 * if (!(await verifyPassword(hash, password, { suspect: attempt.suspect }))) {
 *   attempt.failed();
 *   throw new KnownError('EMAIL_PASSWORD_MISMATCH');
 * }
 * await attempt.succeeded();
 */
export async function reserveAttempt(
  counters: CounterStore,
  keys: readonly [string, BackOff][],
  now: number,
): Promise<ReservedAttempt> {
  const byKey = undecidedOf(counters);
  // Attempts of this instance counted before this one and not yet decided (read before this one is added).
  const pending = keys.map(([key]) => byKey.get(key) ?? 0);
  for (const [key] of keys) byKey.set(key, (byKey.get(key) ?? 0) + 1);
  let settled = false;
  const decide = () => {
    if (settled) return;
    settled = true;
    settle(byKey, keys);
  };
  let reservation: Awaited<ReturnType<CounterStore['reserveAttempt']>>;
  try {
    reservation = await counters.reserveAttempt(keys, now);
  } catch (error) {
    decide();
    throw error;
  }
  // The counts before this attempt, those past their reset left out.
  const recent = keys.map(([, rule], index) => {
    const count = reservation.before[index];
    return count && now - count.lastFailureAt <= rule.resetAfterMs ? count : null;
  });
  if (!reservation.counted) {
    decide();
    const waits = keys.map(([, rule], index) => {
      const count = recent[index];
      return count ? count.lastFailureAt + backOffMs(count.failures, rule) - now : 0;
    });
    // At least a moment: a key another attempt pushed into its back-off just now reads as not waiting yet.
    throw new RateLimitExceeded(Math.max(1, ...waits));
  }
  const releases = keys.map(([key], index) => ({
    key,
    forget: index === 0,
    before: reservation.before[index] ?? null,
  }));
  const succeeded = async () => {
    try {
      await counters.releaseAttempt(releases, now);
    } finally {
      decide();
    }
  };
  return {
    suspect: recent.some((count, index) => count !== null && count.failures > (pending[index] ?? 0)),
    failed: decide,
    succeeded,
    succeeding: () => {
      const writes = counters.releaseWrites?.(releases, now);
      return writes ? { writes, done: Promise.resolve() } : { writes: [], done: succeeded() };
    },
  };
}
