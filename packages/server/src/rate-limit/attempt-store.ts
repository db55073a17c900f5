/** Attempt counters under a back-off: every query on `attempt_failures`. */
import { sql } from 'kysely';
import { type Db, type Write, writeTogether } from '../storage/db.js';

/** A key and the back-off it is under. */
export interface KeyRule {
  key: string;
  free: number;
  baseMs: number;
  maxMs: number;
  resetAfterMs: number;
}

/** What `countAttempt` found of a key before it, and whether it counted the attempt against it. */
export interface CountedKey {
  key: string;
  failures: number | null;
  last_failure_at: Date | null;
  counted: boolean;
}

/**
 * Counts one attempt at `now` against every key of `rules`, in one
 * statement, unless one of them is waiting out its back-off. Each key's count
 * goes up under its row's lock (ON CONFLICT DO UPDATE, whose condition is
 * checked on the row as it is when locked), so attempts running at once
 * cannot all pass one reading; a key another attempt pushed into its
 * back-off meanwhile is left alone (`counted` false) while others may have
 * been counted, which the caller takes back. The counts before are read
 * from the statement's snapshot. The back-off's wait is `backOffMs` of
 * `attempt-limits.ts`: 0 under `free`, then `baseMs` doubling up to `maxMs`.
 */
export async function countAttempt(db: Db, rules: readonly KeyRule[], now: number): Promise<CountedKey[]> {
  const at = new Date(now);
  const values = sql.join(
    rules.map(
      (rule) =>
        sql`(${rule.key}::text, ${rule.free}::int, ${rule.baseMs}::float8, ${rule.maxMs}::float8, ${rule.resetAfterMs}::float8)`,
    ),
  );
  // Whether a count, under its rule, holds the next attempt back at `now`.
  const waiting = (row: string) => sql`(
    ${sql.raw(row)}.last_failure_at >= ${at}::timestamptz - rule.reset_ms * interval '1 millisecond'
    and ${sql.raw(row)}.failures >= rule.free
    and ${sql.raw(row)}.last_failure_at
      + least(rule.base_ms * power(2, ${sql.raw(row)}.failures - rule.free), rule.max_ms) * interval '1 millisecond'
      > ${at}::timestamptz)`;
  const result = await sql<CountedKey>`
    with rule (key, free, base_ms, max_ms, reset_ms) as (values ${values}),
    before as (
      select rule.key, f.failures, f.last_failure_at, coalesce(${waiting('f')}, false) as waiting
      from rule left join attempt_failures f on f.key = rule.key
    ),
    counted as (
      insert into attempt_failures as f (key, failures, last_failure_at)
      select rule.key, 1, ${at}::timestamptz from rule where not exists (select from before where waiting)
      on conflict (key) do update set
        failures = case
          when f.last_failure_at < ${at}::timestamptz - (select rule.reset_ms from rule where rule.key = f.key) * interval '1 millisecond'
          then 1 else f.failures + 1 end,
        last_failure_at = excluded.last_failure_at
      where not exists (select from rule where rule.key = f.key and ${waiting('f')})
      returning f.key
    )
    select before.key, before.failures, before.last_failure_at, counted.key is not null as counted
    from before left join counted on counted.key = before.key`.execute(db);
  return result.rows;
}

/** An attempt `countAttempt` counted, to take back: `forget` the whole count, else this attempt only. */
export interface UncountedKey {
  key: string;
  forget: boolean;
  /** The key's last time before the attempt, put back when no attempt came since (null: none). */
  lastBefore: Date | null;
}

/**
 * Takes back attempts `countAttempt` counted at `countedAt`, in one
 * statement: a `forget` key's count is deleted; another's is one less (gone
 * at zero), and its last time goes back to `lastBefore` when no attempt came
 * since.
 */
export async function uncountAttempt(db: Db, releases: readonly UncountedKey[], countedAt: number): Promise<void> {
  await writeTogether(db, uncountAttemptWrites(db, releases, countedAt));
}

/**
 * The writes of `uncountAttempt`, unsent, to go with others in one statement
 * (a sign-in's session): they touch only `attempt_failures`, and no row twice.
 */
export function uncountAttemptWrites(db: Db, releases: readonly UncountedKey[], countedAt: number): Write[] {
  if (releases.length === 0) return [];
  const forgotten = releases.filter((release) => release.forget).map((release) => release.key);
  const kept = releases.filter((release) => !release.forget);
  // Deleted: a forgotten key's count, and another's that this attempt alone makes.
  const gone = db.deleteFrom('attempt_failures').where((eb) => {
    const lastOnes = eb.and([eb('key', 'in', kept.length ? kept.map((r) => r.key) : ['']), eb('failures', '<=', 1)]);
    return forgotten.length ? eb.or([eb('key', 'in', forgotten), lastOnes]) : lastOnes;
  });
  const lessOne = kept.map((release) =>
    db
      .updateTable('attempt_failures')
      .set({
        failures: sql`failures - 1`,
        last_failure_at: sql`case
          when last_failure_at = ${new Date(countedAt)}::timestamptz and ${release.lastBefore}::timestamptz is not null
          then ${release.lastBefore}::timestamptz else last_failure_at end`,
      })
      .where('key', '=', release.key)
      .where('failures', '>', 1),
  );
  return [gone, ...lessOne];
}

/** Removes counters whose last failure is before `before` (they no longer hold anybody back). */
export async function deleteFailuresBefore(db: Db, before: number): Promise<number> {
  const result = await db
    .deleteFrom('attempt_failures')
    .where('last_failure_at', '<', new Date(before))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
