/** Rate-limit counters: every query on `rate_limit_counters`. */
import { sql } from 'kysely';
import type { Db } from '../storage/db.js';

/** Counts one hit of `key` in the window starting at `windowStart`; returns the hits so far in it. */
export async function countHit(db: Db, key: string, windowStart: number): Promise<number> {
  const row = await db
    .insertInto('rate_limit_counters')
    .values({ key, window_start: new Date(windowStart), hits: 1 })
    .onConflict((conflict) =>
      conflict.columns(['key', 'window_start']).doUpdateSet({ hits: sql<number>`rate_limit_counters.hits + 1` }),
    )
    .returning('hits')
    .executeTakeFirstOrThrow();
  return row.hits;
}

/** Removes counters of windows that started before `before`. */
export async function deleteCountersBefore(db: Db, before: number): Promise<number> {
  const result = await db
    .deleteFrom('rate_limit_counters')
    .where('window_start', '<', new Date(before))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
