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
 * While a wait runs the request is refused with 429 and `Retry-After` before
 * the password is even hashed, which is what keeps guessing from eating the
 * CPU legitimate sign-ins need. A success clears the account's failures (not
 * the address's: a guesser's own account must not reset it). Counts older than
 * their reset period start again.
 */
import { sha256Hex } from '../crypto/hash.js';
import type { CounterStore } from './counter-store.js';
import { defaultRateLimits, type LimitedProject } from './limit-settings.js';
import { RateLimitExceeded } from './rate-limit.js';

/** A back-off: `free` failures without a wait, then `baseMs` doubling per failure up to `maxMs`. */
export interface BackOff {
  free: number;
  baseMs: number;
  maxMs: number;
  /** A count whose last failure is older than this starts again. */
  resetAfterMs: number;
}

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

/** How long after the last failure the next attempt must wait (0: it may go). */
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

/** What `checkAttempts` found of an attempt allowed to go on. */
export interface AttemptHistory {
  /** The account (the first key) has failures to clear on a success. */
  accountFailures: boolean;
  /** Some key failed recently: the attempt's password check waits behind those of clean attempts. */
  suspect: boolean;
}

/**
 * Throws `RateLimitExceeded` (429, `Retry-After`) while any of `keys` is
 * waiting out its back-off; otherwise answers what their history says.
 */
export async function checkAttempts(
  counters: CounterStore,
  keys: readonly [string, BackOff][],
  now: number,
): Promise<AttemptHistory> {
  const rules = new Map(keys);
  let waitMs = 0;
  let suspect = false;
  const rows = await counters.findFailures([...rules.keys()]);
  for (const row of rows) {
    const rule = rules.get(row.key)!;
    const last = row.lastFailureAt;
    if (now - last > rule.resetAfterMs) continue;
    suspect = true;
    waitMs = Math.max(waitMs, last + backOffMs(row.failures, rule) - now);
  }
  if (waitMs > 0) throw new RateLimitExceeded(waitMs);
  return { accountFailures: rows.some((row) => row.key === keys[0]![0]), suspect };
}

/** Counts a failure against every key. */
export async function recordFailure(
  counters: CounterStore,
  keys: readonly [string, BackOff][],
  now: number,
): Promise<void> {
  for (const [key, rule] of keys) await counters.countFailure(key, now, rule.resetAfterMs);
}

/** Clears the account's failures after a success (the first key: see `signInKeys`). */
export async function clearAccountFailures(counters: CounterStore, keys: readonly [string, BackOff][]): Promise<void> {
  await counters.deleteFailures(keys[0]![0]);
}
