/**
 * Metrics: the aggregates of `GET /internal/metrics`, each computed by the
 * database (counts grouped by day or country), and the activity they read: one
 * row per user per active day, and the country a user last signed in from.
 */
import { sql } from 'kysely';
import type { Db, Write } from '../storage/db.js';
import type { UserRow } from '../storage/schema.js';

/** A day as `YYYY-MM-DD` and its count. */
export interface DayCount {
  date: string;
  count: number;
}

/** The write that records the user as active on `day` (`YYYY-MM-DD`, UTC), once per day. */
export function activityDayInsert(db: Db, input: { projectId: string; userId: string; day: string }): Write {
  return db
    .insertInto('user_activity_days')
    .values({ project_id: input.projectId, user_id: input.userId, day: input.day })
    .onConflict((oc) => oc.doNothing());
}

/** Sign-ups per UTC day from `from` (inclusive, `YYYY-MM-DD`); days without any are absent. */
export async function countSignUpsByDay(db: Db, projectId: string, from: string): Promise<DayCount[]> {
  const day = sql<string>`to_char((signed_up_at at time zone 'UTC')::date, 'YYYY-MM-DD')`;
  const rows = await db
    .selectFrom('users')
    .select([day.as('date'), (eb) => eb.fn.countAll<string | number>().as('count')])
    .where('project_id', '=', projectId)
    .where('signed_up_at', '>=', sql<Date>`(${from}::date)::timestamp at time zone 'UTC'`)
    .groupBy(sql`1`)
    .execute();
  return rows.map((row) => ({ date: row.date, count: Number(row.count) }));
}

/** Users active per UTC day from `from` (inclusive); days without any are absent. */
export async function countActiveUsersByDay(db: Db, projectId: string, from: string): Promise<DayCount[]> {
  const rows = await db
    .selectFrom('user_activity_days')
    .select([sql<string>`to_char(day, 'YYYY-MM-DD')`.as('date'), (eb) => eb.fn.countAll<string | number>().as('count')])
    .where('project_id', '=', projectId)
    .where('day', '>=', sql<Date>`${from}::date`)
    .groupBy('day')
    .execute();
  return rows.map((row) => ({ date: row.date, count: Number(row.count) }));
}

/** Users per country code they last signed in from; users with none are not counted. */
export async function countUsersByCountry(db: Db, projectId: string): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('users')
    .select(['country_code', (eb) => eb.fn.countAll<string | number>().as('count')])
    .where('project_id', '=', projectId)
    .where('country_code', 'is not', null)
    .groupBy('country_code')
    .execute();
  const counts: Record<string, number> = {};
  for (const row of rows) counts[row.country_code!] = Number(row.count);
  return counts;
}

/** Users by sign-in method: today, those with a password. */
export async function countUsersByLoginMethod(db: Db, projectId: string): Promise<{ method: string; count: number }[]> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<string | number>().as('count'))
    .where('project_id', '=', projectId)
    .where('password_hash', 'is not', null)
    .executeTakeFirstOrThrow();
  return [{ method: 'password', count: Number(row.count) }];
}

/** The `limit` users who signed up last, newest first. */
export function findRecentlyRegistered(db: Db, projectId: string, limit: number): Promise<UserRow[]> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('signed_up_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

/** The `limit` users active last, most recent first. */
export function findRecentlyActive(db: Db, projectId: string, limit: number): Promise<UserRow[]> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('last_active_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
