/**
 * Recording what the metrics count: a user's activity on the day (sign-up,
 * sign-in, session refresh) and, when the service trusts a header for it
 * (`countryHeader`), the country they came from.
 */
import { type Db, type Write, writeTogether } from '../storage/db.js';
import { userSeenUpdate } from '../users/user-store.js';
import { activityDayInsert } from './metrics-store.js';

/** `YYYY-MM-DD` of an instant, in UTC. */
export function utcDay(millis: number): string {
  return new Date(millis).toISOString().slice(0, 10);
}

/** What a user's activity records. */
export interface UserActivity {
  projectId: string;
  userId: string;
  now: number;
  /** Where they came from (`countryOf` of `http/client-address.ts`), when known. */
  country: string | null;
  /** Also set the user's `last_active_at` to `now` (a sign-in; a refresh marks it with its session). */
  markActive?: boolean;
}

/** Records that the user was active at `now` (once per UTC day) and, when known, their country. */
export async function recordUserActivity(db: Db, input: UserActivity): Promise<void> {
  await writeTogether(db, activityWrites(db, input));
}

/** The writes `recordUserActivity` sends, to send with others in one statement (`writeTogether`). */
export function activityWrites(db: Db, input: UserActivity): Write[] {
  const { projectId, userId } = input;
  const seen = userSeenUpdate(db, projectId, userId, {
    at: input.markActive ? input.now : null,
    country: input.country,
  });
  return [activityDayInsert(db, { projectId, userId, day: utcDay(input.now) }), ...(seen ? [seen] : [])];
}
