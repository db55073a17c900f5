/**
 * The session a person's sign-in or sign-up opens, with what every one of
 * them records: the day's activity (and the country they came from), the
 * event in the audit log, and for a sign-in the user's last activity. One
 * statement writes it all (`createSession` with `also`).
 */
import { type AuditSource, auditWrite } from '../audit/audit-log.js';
import { activityWrites, countryOf } from '../metrics/activity.js';
import type { Db } from '../storage/db.js';
import { createSession } from './session-store.js';

export interface SignInSession {
  /** The request's caller (`{ auth, client, deps }`); the project is theirs. */
  source: AuditSource & { auth: { project: { id: string } }; deps: { countryHeader: string | null } };
  request: Request;
  userId: string;
  now: number;
  /** A new account's first session, or a sign-in to an existing one (which marks the user active). */
  event: 'sign_up' | 'sign_in.succeeded';
  /** How they proved who they are, as the audit log names it (`password`, `otp`). */
  method: string;
}

/**
 * Opens the session and records the sign-in; returns its id and refresh token.
 *
 * @example
 * const session = await openSignInSession(trx, { source: { auth, client, deps }, request, userId, now, event: 'sign_up', method: 'password' });
 */
export function openSignInSession(db: Db, input: SignInSession): Promise<{ sessionId: string; refreshToken: string }> {
  const { source, userId, now } = input;
  const projectId = source.auth.project.id;
  const country = countryOf(input.request, source.deps.countryHeader);
  return createSession(db, {
    projectId,
    userId,
    now,
    client: source.client,
    also: () => [
      ...activityWrites(db, { projectId, userId, now, country, markActive: input.event === 'sign_in.succeeded' }),
      auditWrite(db, source, input.event, { userId, data: { method: input.method } }),
    ],
  });
}
