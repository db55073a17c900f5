/**
 * Recording what the metrics count: a user's activity on the day (sign-up,
 * sign-in, session refresh) and, when the service trusts a header for it
 * (`countryHeader`), the country they came from.
 */
import type { Db } from '../storage/db.js';
import { recordActivity } from './metrics-store.js';

/** `YYYY-MM-DD` of an instant, in UTC. */
export function utcDay(millis: number): string {
  return new Date(millis).toISOString().slice(0, 10);
}

/**
 * The ISO 3166 alpha-2 code in the trusted country header, upper-cased, or
 * null: no header configured, none sent, or not two letters (Cloudflare's
 * `XX` for unknown and `T1` for Tor count as none).
 */
export function countryOf(request: Request, countryHeader: string | null): string | null {
  const value = countryHeader ? request.headers.get(countryHeader)?.trim() : undefined;
  if (!value || !/^[A-Za-z]{2}$/.test(value)) return null;
  const code = value.toUpperCase();
  return code === 'XX' ? null : code;
}

/** Records that the user was active at `now` (once per UTC day) and, when known, their country. */
export function recordUserActivity(
  db: Db,
  input: { projectId: string; userId: string; now: number; country: string | null },
): Promise<void> {
  return recordActivity(db, {
    projectId: input.projectId,
    userId: input.userId,
    day: utcDay(input.now),
    country: input.country,
  });
}
