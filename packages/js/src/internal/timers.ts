/**
 * The system time sources behind `Clock` and `Timers` (see `options.ts`), and
 * a `sleep` on injectable timers, so tests control every wait.
 */
import type { Clock, Timers } from '../options.js';

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
