/**
 * Time sources the SDK reads through, so tests can control them: a clock for
 * "now" (token expiry) and timers for waiting (retries, cache expiry, polling).
 */

/**
 * Reads the current time in epoch milliseconds.
 *
 * @example
 * ```ts
 * let now = Date.now();
 * const app = new ClientApp({ ...options, clock: { now: () => now } }); // tests move `now`
 * ```
 */
export interface Clock {
  now(): number;
}

/**
 * The subset of the timer functions the SDK uses.
 *
 * @example
 * ```ts
 * const timers: Timers = { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (h) => clearTimeout(h as number) };
 * ```
 */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = { now: () => Date.now() };

/** Looks the globals up at call time, so fake timers installed later are honoured. */
export const systemTimers: Timers = {
  setTimeout: (callback, ms) => globalThis.setTimeout(callback, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** Resolves after `ms` milliseconds of `timers` time. */
export function sleep(timers: Timers, ms: number): Promise<void> {
  return new Promise((resolve) => {
    timers.setTimeout(resolve, ms);
  });
}
