/**
 * The counters in the database (the default store): the tables
 * `rate_limit_counters` and `attempt_failures`, shared by every instance on
 * the database.
 *
 * Counters of finished windows are pruned on the way: at most once a minute
 * per store, a hit also deletes the counters of windows that ended more than
 * `maxWindowMs` ago, so the table holds about one window's worth of keys, not
 * every key ever seen. Attempt counters are pruned by housekeeping.
 */
import type { Db } from '../storage/db.js';
import { countAttempt, uncountAttempt, uncountAttemptWrites } from './attempt-store.js';
import { type AttemptRelease, type CounterStore, type FailureCount, maxWindowMs } from './counter-store.js';
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
  const uncounted = (releases: readonly AttemptRelease[]) =>
    releases.map(({ key, forget, before }) => ({
      key,
      forget,
      lastBefore: before ? new Date(before.lastFailureAt) : null,
    }));
  const release: CounterStore['releaseAttempt'] = (releases, reservedAt) =>
    uncountAttempt(db, uncounted(releases), reservedAt);
  return {
    async countHit(key, window, now) {
      await pruneOccasionally(now);
      return countHit(db, key, window.start);
    },
    async reserveAttempt(keys, now) {
      const rows = await countAttempt(
        db,
        keys.map(([key, rule]) => ({ key, ...rule })),
        now,
      );
      const byKey = new Map(rows.map((row) => [row.key, row]));
      const before = keys.map(([key]): FailureCount | null => {
        const row = byKey.get(key);
        return row?.failures == null || !row.last_failure_at
          ? null
          : { failures: row.failures, lastFailureAt: row.last_failure_at.getTime() };
      });
      const counted = rows.filter((row) => row.counted);
      if (counted.length === keys.length) return { counted: true, before };
      // Another attempt pushed a key into its back-off between the snapshot and its lock: take back the others.
      const releases = keys.flatMap(([key], index) =>
        byKey.get(key)?.counted ? [{ key, forget: false, before: before[index]! }] : [],
      );
      await release(releases, now);
      return { counted: false, before };
    },
    releaseAttempt: release,
    releaseWrites: (releases, reservedAt) => uncountAttemptWrites(db, uncounted(releases), reservedAt),
    close: async () => {},
  };
}
