/** Failed-attempt counters: every query on `attempt_failures`. */
import { sql } from 'kysely';
import type { Db } from '../storage/db.js';

/** The failures of `keys` so far, with the time of the last one of each. */
export async function findFailures(
  db: Db,
  keys: readonly string[],
): Promise<{ key: string; failures: number; last_failure_at: Date }[]> {
  if (keys.length === 0) return [];
  return db.selectFrom('attempt_failures').selectAll().where('key', 'in', keys).execute();
}

/**
 * Counts one failure of `key` at `now`; a count whose last failure is older
 * than `resetBefore` starts again at one.
 */
export async function countFailure(db: Db, key: string, now: number, resetBefore: number): Promise<void> {
  await db
    .insertInto('attempt_failures')
    .values({ key, failures: 1, last_failure_at: new Date(now) })
    .onConflict((conflict) =>
      conflict.column('key').doUpdateSet({
        failures: sql<number>`case when attempt_failures.last_failure_at < ${new Date(resetBefore)} then 1 else attempt_failures.failures + 1 end`,
        last_failure_at: new Date(now),
      }),
    )
    .execute();
}

/** Forgets the failures of `key` (a successful sign-in). */
export async function deleteFailures(db: Db, key: string): Promise<void> {
  await db.deleteFrom('attempt_failures').where('key', '=', key).execute();
}

/** Removes counters whose last failure is before `before` (they no longer hold anybody back). */
export async function deleteFailuresBefore(db: Db, before: number): Promise<number> {
  const result = await db
    .deleteFrom('attempt_failures')
    .where('last_failure_at', '<', new Date(before))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
