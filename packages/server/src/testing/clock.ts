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
  };
}
