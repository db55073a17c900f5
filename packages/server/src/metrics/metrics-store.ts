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

/** Users per country code they last signed in from, most users first (as Stack orders them); users with none are not counted. */
export async function countUsersByCountry(db: Db, projectId: string): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom('users')
    .select(['country_code', (eb) => eb.fn.countAll<string | number>().as('count')])
    .where('project_id', '=', projectId)
    .where('country_code', 'is not', null)
    .groupBy('country_code')
    .orderBy(sql`count(*)`, 'desc')
    .orderBy('country_code')
    .execute();
  const counts: Record<string, number> = {};
  for (const row of rows) counts[row.country_code!] = Number(row.count);
  return counts;
}

/**
 * The sign-in methods the project's users hold, counted as Stack counts them:
 * one per method of each user (`password`, `otp` for a user who signed in
 * with a code or link, `passkey` per registered passkey, and per connected
 * provider account its provider id), most held first; a method nobody holds
 * is absent, so a project without users answers `[]`.
 */
export async function countUsersByLoginMethod(db: Db, projectId: string): Promise<{ method: string; count: number }[]> {
  const count = sql<string | number>`count(*)`.as('count');
  const rows = await db
    .selectFrom('users')
    .select([sql<string>`'password'::text`.as('method'), count])
    .where('project_id', '=', projectId)
    .where('password_hash', 'is not', null)
    .unionAll(
      db
        .selectFrom('users')
        .select([sql<string>`'otp'::text`.as('method'), count])
        .where('project_id', '=', projectId)
        .where('otp_auth_enabled', '=', true),
    )
    .unionAll(
      db
        .selectFrom('passkeys')
        .innerJoin('users', (join) =>
          join.onRef('users.project_id', '=', 'passkeys.project_id').onRef('users.id', '=', 'passkeys.user_id'),
        )
        .select([sql<string>`'passkey'::text`.as('method'), count])
        .where('passkeys.project_id', '=', projectId)
        .where('users.passkey_auth_enabled', '=', true),
    )
    .unionAll(
      db
        .selectFrom('oauth_accounts')
        .select([sql<string>`provider_id::text`.as('method'), count])
        .where('project_id', '=', projectId)
        .groupBy('provider_id'),
    )
    .execute();
  return rows
    .map((row) => ({ method: row.method, count: Number(row.count) }))
    .filter((row) => row.count > 0)
    .sort((a, b) => b.count - a.count || (a.method < b.method ? -1 : a.method > b.method ? 1 : 0));
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
