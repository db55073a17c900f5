/**
 * What changes sessions, besides opening one (`complete-sign-in.ts`): a
 * sign-out (the session of the refresh token sent), a revocation (one
 * session, by its id), and what a refresh does (`refresh-rotation.ts`):
 * rotate the refresh token, note the session's use, and end a session whose
 * replaced token came back too late. A session ended is deleted by a
 * statement that tells the other instances, and this one hears of it when the
 * action commits (`sessionsEnded`), so its access tokens are refused at once.
 */
import { KnownError } from '@latchkey/protocol';
import { type ActionContext, act, actInOneStatement, record, recordWrites, sessionsEnded } from '../events/recorder.js';
import { recordUserActivity } from '../metrics/activity.js';
import type { Db } from '../storage/db.js';
import type { SessionRow } from '../storage/schema.js';
import { touchSession } from './session-activity.js';
import { deleteSessionById, type EndedSession, rotateSessionToken } from './session-store.js';

/**
 * Ends the session `sessionId` of `userId` that a sign-out found, the
 * deletion and its event in one statement; REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED
 * when it ended meanwhile (another request, a revocation), recording nothing.
 */
export function signOutSession(ctx: ActionContext, sessionId: string, userId: string): Promise<void> {
  // One statement, no transaction: sign-outs come in bursts (every tab of a browser at once).
  return actInOneStatement(ctx, async (tx) => {
    const facts = { userId, data: { session_id: sessionId, current: true } };
    const ended = await deleteSessionById(tx.db, ctx.projectId, sessionId, undefined, (deleted) => {
      return recordWrites(tx, 'session.revoked', facts, { onlyWith: deleted });
    });
    if (!ended) throw new KnownError('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
    sessionsEnded(tx, [ended.id]);
  });
}

/**
 * Ends the session `sessionId` of the project (of `owner` only, when given);
 * SESSION_NOT_FOUND when there is none.
 */
export function revokeSession(ctx: ActionContext, sessionId: string, owner?: string): Promise<EndedSession> {
  return act(ctx, async (tx) => {
    const ended = await deleteSessionById(tx.db, ctx.projectId, sessionId, owner);
    if (!ended) throw new KnownError('SESSION_NOT_FOUND', { session_id: sessionId });
    sessionsEnded(tx, [ended.id]);
    await record(tx, 'session.revoked', { userId: ended.user_id, data: { session_id: ended.id, current: false } });
    return ended;
  });
}

/**
 * Makes `nextHash` the session's refresh token in place of `presentedHash`,
 * rotated `now` (the refresh of a client that rotates); false when another
 * request rotated it first or the session went. The replaced token's hash is
 * announced by the rotating statement itself (`rotatedNotice`).
 */
export function rotateRefreshToken(
  ctx: ActionContext,
  session: SessionRow,
  presentedHash: string,
  nextHash: string,
  now: number,
): Promise<boolean> {
  return act(ctx, (tx) => rotateSessionToken(tx.db, session, presentedHash, nextHash, now));
}

/**
 * Notes a refresh's use of the session at `now`: the session's and its
 * user's last use, and the user's activity of the day (and `country`, when
 * known), in the one transaction `touchSession` takes; records `session.used`
 * (the user's last activity shows in the server view). False when the
 * session or its user went meanwhile.
 */
export function noteSessionUse(
  ctx: ActionContext,
  session: SessionRow,
  now: number,
  country: string | null,
): Promise<boolean> {
  const activity = (trx: Db) =>
    recordUserActivity(trx, { projectId: session.project_id, userId: session.user_id, now, country });
  return act(ctx, async (tx) => {
    const touched = await touchSession(tx.db, session, now, activity);
    // Recorded either way: the user may have been marked before the session was found gone (unaudited, it costs a notice).
    await record(tx, 'session.used', { userId: session.user_id, data: { session_id: session.id } });
    return touched;
  });
}

/**
 * Ends the session whose replaced refresh token came back after its grace
 * window (`session.refresh_token_reused`, recorded only when this request
 * ended it).
 */
export function endReusedSession(ctx: ActionContext, session: SessionRow): Promise<void> {
  return act(ctx, async (tx) => {
    const facts = { userId: session.user_id, data: { session_id: session.id } };
    const ended = await deleteSessionById(tx.db, ctx.projectId, session.id, undefined, (deleted) => {
      return recordWrites(tx, 'session.refresh_token_reused', facts, { onlyWith: deleted });
    });
    if (ended) sessionsEnded(tx, [ended.id]);
  });
}
