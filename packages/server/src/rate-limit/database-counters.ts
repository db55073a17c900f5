/**
 * The counters in the database (the default store): the tables
 * `rate_limit_counters` and `attempt_failures`, shared by every instance on
 * the database.
 *
 * Counters of finished windows are pruned on the way: at most once a minute
 * per store, a hit also deletes the counters of windows that ended more than
 * `maxWindowMs` ago, so the table holds about one window's worth of keys, not
 * every key ever seen. Failure counters are pruned by housekeeping.
 */
import type { Db } from '../storage/db.js';
import { countFailure, deleteFailures, findFailures } from './attempt-store.js';
import { type CounterStore, maxWindowMs } from './counter-store.js';
import { countHit, deleteCountersBefore } from './rate-limit-store.js';

/** How often (at most) one store prunes old hit counters. */
export const pruneIntervalMs = 60_000;

/** A `CounterStore` on `db`. */
export function databaseCounters(db: Db): CounterStore {
  let lastPruned: number | undefined;
  /** Deletes counters of windows that cannot be current any more, once per `pruneIntervalMs`. */
  const pruneOccasionally = async (now: number) => {
    if (lastPruned !== undefined && now - lastPruned < pruneIntervalMs && now >= lastPruned) return;
    lastPruned = now;
    // A window that started before now - maxWindowMs has ended, whatever its rule.
    await deleteCountersBefore(db, now - maxWindowMs);
  };
  return {
    async countHit(key, window, now) {
      await pruneOccasionally(now);
      return countHit(db, key, window.start);
    },
    async findFailures(keys) {
      const rows = await findFailures(db, keys);
      return rows.map((row) => ({
        key: row.key,
        failures: row.failures,
        lastFailureAt: row.last_failure_at.getTime(),
      }));
    },
    countFailure: (key, now, resetAfterMs) => countFailure(db, key, now, now - resetAfterMs),
    deleteFailures: (key) => deleteFailures(db, key),
    close: async () => {},
  };
}
