/** A clock tests can move: real time plus an offset, so it keeps ticking between moves. */
import type { Clock } from '../http/env.js';

/** The service clock of a test service. */
export interface TestClock extends Clock {
  /** Current time in epoch ms. */
  now(): number;
  /** Moves the clock forward (or back, with a negative value) by `ms`. */
  advance(ms: number): void;
  /** Sets the current time to `ms` (epoch ms); the clock keeps ticking from there. */
  set(ms: number): void;
  /**
   * Moves the clock at least `windowMs` forward, to the start of a fixed window
   * of that length (as the rate limits count): a test that counts up to a limit
   * then has the whole window, and no boundary passes while it counts.
   */
  startWindow(windowMs: number): void;
}

export function createTestClock(): TestClock {
  let offset = 0;
  return {
    now: () => Date.now() + offset,
    advance(ms) {
      offset += ms;
    },
    set(ms) {
      offset = ms - Date.now();
    },
    startWindow(windowMs) {
      const now = Date.now() + offset;
      offset += 2 * windowMs - (now % windowMs);
    },
  };
}
