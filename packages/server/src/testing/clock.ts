/** A clock tests can move: real time plus an offset, so it keeps ticking between moves. */
import type { Clock } from '../common/clock.js';

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
  /**
   * Stops the clock where it is: `now` answers the same until `advance`,
   * `set` or `startWindow` moves it, and it stays stopped. For tests whose
   * counts must not depend on how long a burst of requests takes, e.g. one
   * under a back-off that a second of real time would end.
   */
  freeze(): void;
}

export function createTestClock(): TestClock {
  let offset = 0;
  /** The time the clock stopped at, or null while it ticks. */
  let frozenAt: number | null = null;
  const now = () => frozenAt ?? Date.now() + offset;
  const moveTo = (ms: number) => {
    if (frozenAt === null) offset = ms - Date.now();
    else frozenAt = ms;
  };
  return {
    now,
    advance: (ms) => moveTo(now() + ms),
    set: moveTo,
    startWindow(windowMs) {
      const at = now();
      moveTo(at + 2 * windowMs - (at % windowMs));
    },
    freeze() {
      frozenAt = now();
    },
  };
}
