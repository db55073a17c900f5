/**
 * Ending sessions: a sign-out (the session of the refresh token sent) and a
 * revocation (one session, by its id). Each deletes the session and records
 * `session.revoked` in one action; the deleting statement tells the other
 * instances, and this one hears of it when the action commits
 * (`sessionsEnded`), so the session's access tokens are refused at once.
 */
import { KnownError } from '@latchkey/protocol';
import { type ActionContext, act, record, recordWrite, sessionsEnded } from '../events/recorder.js';
import { deleteSessionById, type EndedSession } from './session-store.js';

/**
 * Ends the session `sessionId` of `userId` that a sign-out found, the
 * deletion and its event in one statement; REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED
 * when it ended meanwhile (another request, a revocation), recording nothing.
 */
export function signOutSession(ctx: ActionContext, sessionId: string, userId: string): Promise<void> {
  return act(ctx, async (tx) => {
    const facts = { userId, data: { session_id: sessionId, current: true } };
    const ended = await deleteSessionById(tx.db, ctx.projectId, sessionId, undefined, (deleted) => {
      const write = recordWrite(tx, 'session.revoked', facts, { onlyWith: deleted });
      return write ? [write] : [];
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
