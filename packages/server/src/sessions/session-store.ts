/**
 * Sessions: one row per sign-in, found by the SHA-256 of its refresh token
 * (an opaque 45-character value), or of the one it replaced last when the
 * token was rotated (`refresh-rotation.ts`; the 2.7 protocol's clients never
 * rotate, decision b).
 */
import { randomUUID } from 'node:crypto';
import { constants } from '@latchkey/protocol';
import { type DeleteQueryBuilder, type DeleteResult, sql } from 'kysely';
import { isUuid } from '../common/ids.js';
import { sha256Hex } from '../crypto/hash.js';
import { randomToken } from '../crypto/random.js';
import { revokedNotice, rotatedNotice } from '../storage/change-feed.js';
import { type Db, type Write, writeTogether } from '../storage/db.js';
import type { Database, SessionRow } from '../storage/schema.js';

/** What a new session records besides its user. */
export interface NewSession {
  projectId: string;
  userId: string;
  now: number;
  /** Default: one year. */
  lifetimeMs?: number;
  /** Where it was opened from (`RouteInput.client`). */
  client?: { ip: string | null; userAgent: string | null; country: string | null };
  /** Opened by server code for the user. */
  isImpersonation?: boolean;
  /**
   * What else the moment writes (the user's activity, an audit event), given
   * the new session's id: sent with the session in one statement.
   */
  also?: (sessionId: string) => readonly Write[];
}

/**
 * Creates a session and returns its refresh token, the only copy in clear.
 * With `also`, one round trip writes everything a sign-in records.
 *
 * @example
 * await createSession(db, { projectId, userId, now, client, also: () => [auditWrite(db, source, 'sign_in.succeeded')] });
 */
export async function createSession(db: Db, input: NewSession): Promise<{ sessionId: string; refreshToken: string }> {
  const { write, ...session } = sessionInsert(db, input);
  await writeTogether(db, [write, ...(input.also?.(session.sessionId) ?? [])]);
  return session;
}

/** A new session's id and refresh token, and the write that creates it (unsent). */
function sessionInsert(db: Db, input: NewSession): { sessionId: string; refreshToken: string; write: Write } {
  const refreshToken = randomToken();
  const sessionId = randomUUID();
  const now = new Date(input.now);
  const write = db.insertInto('sessions').values({
    id: sessionId,
    project_id: input.projectId,
    user_id: input.userId,
    refresh_token_hash: sha256Hex(refreshToken),
    created_at: now,
    expires_at: new Date(input.now + (input.lifetimeMs ?? constants.defaultServerSessionExpiresInMs)),
    last_used_at: now,
    ip: input.client?.ip ?? null,
    user_agent: input.client?.userAgent ?? null,
    country: input.client?.country ?? null,
    is_impersonation: input.isImpersonation ?? false,
  });
  return { sessionId, refreshToken, write };
}

/**
 * The unexpired session of the project holding `refreshToken` as its current
 * refresh token or as the one it replaced last (`refresh-rotation.ts` tells
 * which), or null.
 */
export async function findSession(
  db: Db,
  projectId: string,
  refreshToken: string,
  now: number,
): Promise<SessionRow | null> {
  const hash = sha256Hex(refreshToken);
  const row = await db
    .selectFrom('sessions')
    .selectAll()
    .where((eb) => eb.or([eb('refresh_token_hash', '=', hash), eb('previous_refresh_token_hash', '=', hash)]))
    .where('project_id', '=', projectId)
    .where('expires_at', '>', new Date(now))
    .executeTakeFirst();
  return row ?? null;
}

/**
 * Makes `nextHash` the refresh token of the session in place of `fromHash`,
 * which becomes its previous one, rotated `now`; and tells every instance
 * that `fromHash` is no longer current (`rotatedNotice`). False when
 * `fromHash` is not the session's current token any more (another request
 * rotated it first, or the session went).
 */
export async function rotateSessionToken(
  db: Db,
  session: Pick<SessionRow, 'id' | 'project_id'>,
  fromHash: string,
  nextHash: string,
  now: number,
): Promise<boolean> {
  const rotated = db
    .updateTable('sessions')
    .set({
      refresh_token_hash: nextHash,
      previous_refresh_token_hash: fromHash,
      refresh_token_rotated_at: new Date(now),
    })
    .where('id', '=', session.id)
    .where('refresh_token_hash', '=', fromHash)
    .returning(['project_id', 'previous_refresh_token_hash']);
  const result = await sql`with rotated as (${rotated})
    select ${rotatedNotice(sql`project_id`, sql`previous_refresh_token_hash`)} as notice from rotated`.execute(db);
  return result.rows.length > 0;
}

/** The unexpired session `sessionId` of the project's user, locked until the transaction of `db` ends; or null. */
export async function lockUserSession(
  db: Db,
  projectId: string,
  userId: string,
  sessionId: string,
  now: number,
): Promise<SessionRow | null> {
  if (!isUuid(sessionId)) return null;
  const row = await db
    .selectFrom('sessions')
    .selectAll()
    .where('id', '=', sessionId.toLowerCase())
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('expires_at', '>', new Date(now))
    .forUpdate()
    .executeTakeFirst();
  return row ?? null;
}

/**
 * How old a session's `last_used_at` may be before a refresh writes it again
 * (with the user's `last_active_at` and the day's activity). A refresh used to
 * write all three every time, in a transaction that serialised the refreshes
 * of one session; a minute is as precise as the session list and
 * the metrics need.
 */
const activityWriteIntervalMs = 60_000;

/** True when a use at `now` should be written: a minute passed, or a new UTC day began (daily activity). */
export function isActivityStale(lastUsedAt: Date, now: number): boolean {
  const day = 24 * 60 * 60_000;
  const last = lastUsedAt.getTime();
  return now - last >= activityWriteIntervalMs || Math.floor(now / day) !== Math.floor(last / day);
}

/**
 * Marks the session as used at `now`; false when it went meanwhile. Its user
 * is marked first, in the same transaction (`session-activity.ts`).
 */
export async function touchSessionRow(db: Db, sessionId: string, now: number): Promise<boolean> {
  const touched = await db
    .updateTable('sessions')
    .set({ last_used_at: new Date(now) })
    .where('id', '=', sessionId)
    .executeTakeFirst();
  return touched.numUpdatedRows > 0n;
}

/**
 * Every deletion of sessions goes through here: one statement deletes them,
 * tells all instances which went (`revokedNotice`, sent at commit), so their
 * access tokens stop working everywhere within moments rather than when they
 * expire, and makes `also`'s writes, given the name of the deleted rows'
 * part so that they can depend on it (`auditWrite(…, ended)`: two sign-outs
 * of one session at once record one).
 * The deleted sessions are returned: the action that ended them tells this
 * instance with their ids (`sessionsEnded`, `events/recorder.ts`) once it commits.
 */
async function endSessions(
  db: Db,
  where: (query: SessionDelete) => SessionDelete,
  also?: (ended: string) => readonly Write[],
): Promise<EndedSession[]> {
  const deleted = where(db.deleteFrom('sessions')).returning(['id', 'user_id']);
  const parts = [
    sql`ended as (${deleted})`,
    ...(also?.('ended') ?? []).map((write, i) => sql`${sql.id(`also${i}`)} as (${write})`),
  ];
  // A notice per session: a plain statement for the database to plan (an aggregate in chunks cost more).
  const result = await sql<EndedSession & { notice: unknown }>`with ${sql.join(parts)}
    select id, user_id, ${revokedNotice(sql`json_build_array(id)`)} as notice from ended`.execute(db);
  return result.rows.map(({ id, user_id }) => ({ id, user_id }));
}

type SessionDelete = DeleteQueryBuilder<Database, 'sessions', DeleteResult>;

/** A session that was just ended: its id and its user's. */
export interface EndedSession {
  id: string;
  user_id: string;
}

/** Deletes the unexpired session holding `refreshToken`; null when there is none. */
export async function revokeSession(
  db: Db,
  projectId: string,
  refreshToken: string,
  now: number,
): Promise<EndedSession | null> {
  const ended = await endSessions(db, (query) =>
    query
      .where('refresh_token_hash', '=', sha256Hex(refreshToken))
      .where('project_id', '=', projectId)
      .where('expires_at', '>', new Date(now)),
  );
  return ended[0] ?? null;
}

/** Whether the session still exists (expired or not). */
export async function sessionExists(db: Db, sessionId: string): Promise<boolean> {
  if (!isUuid(sessionId)) return false;
  const row = await db.selectFrom('sessions').select('id').where('id', '=', sessionId).executeTakeFirst();
  return row !== undefined;
}

/** When the user's session `sessionId` of the project was opened (its sign-in), or null when there is none. */
export async function sessionOpenedAt(
  db: Db,
  session: { projectId: string; userId: string; sessionId: string },
): Promise<Date | null> {
  if (!isUuid(session.sessionId)) return null;
  const row = await db
    .selectFrom('sessions')
    .select('created_at')
    .where('id', '=', session.sessionId)
    .where('project_id', '=', session.projectId)
    .where('user_id', '=', session.userId)
    .executeTakeFirst();
  return row?.created_at ?? null;
}

/** The user's unexpired sessions, most recently used first. */
export async function listUserSessions(db: Db, projectId: string, userId: string, now: number): Promise<SessionRow[]> {
  return db
    .selectFrom('sessions')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('expires_at', '>', new Date(now))
    .orderBy('last_used_at', 'desc')
    .orderBy('id')
    .execute();
}

/**
 * Deletes the session `sessionId` of the project (and of `userId`, when given);
 * null when there is none. `also` as for every deletion (`endSessions`).
 */
export async function deleteSessionById(
  db: Db,
  projectId: string,
  sessionId: string,
  userId?: string,
  also?: (ended: string) => readonly Write[],
): Promise<EndedSession | null> {
  if (!isUuid(sessionId)) return null;
  const ended = await endSessions(
    db,
    (query) =>
      query
        .where('project_id', '=', projectId)
        .where('id', '=', sessionId.toLowerCase())
        .$if(userId !== undefined, (filtered) => filtered.where('user_id', '=', userId!)),
    also,
  );
  return ended[0] ?? null;
}

/**
 * Deletes every session of the user (a password set by server code signs them
 * out everywhere); returns the ids of the sessions ended.
 */
export async function deleteUserSessions(db: Db, projectId: string, userId: string): Promise<string[]> {
  const ended = await endSessions(db, (query) =>
    query.where('project_id', '=', projectId).where('user_id', '=', userId),
  );
  return ended.map((session) => session.id);
}

/**
 * Deletes every session of the user but `keepSessionId` (the caller's, after a
 * password change); with null, every session. Returns the ids of the sessions ended.
 *
 * @example
 * sessionsEnded(tx, await deleteUserSessionsExcept(tx.db, project.id, userId, callerSession?.id ?? null));
 */
export async function deleteUserSessionsExcept(
  db: Db,
  projectId: string,
  userId: string,
  keepSessionId: string | null,
): Promise<string[]> {
  const ended = await endSessions(db, (query) =>
    query
      .where('project_id', '=', projectId)
      .where('user_id', '=', userId)
      .$if(keepSessionId !== null, (filtered) => filtered.where('id', '!=', keepSessionId!)),
  );
  return ended.map((session) => session.id);
}

/**
 * Whether the user has a current session that a person opened (not server
 * code's impersonation) at all, and one opened from a client with `userAgent`.
 *
 * @example
 * const { any, fromAgent } = await sessionsFromAgent(db, { projectId, userId, userAgent, now });
 */
export async function sessionsFromAgent(
  db: Db,
  query: { projectId: string; userId: string; userAgent: string; now: number },
): Promise<{ any: boolean; fromAgent: boolean }> {
  const sessions = db
    .selectFrom('sessions')
    .where('project_id', '=', query.projectId)
    .where('user_id', '=', query.userId)
    .where('is_impersonation', '=', false)
    .where('expires_at', '>', new Date(query.now));
  const row = await db
    .selectNoFrom((eb) => [
      eb.exists(sessions.select(sql`1`.as('one'))).as('any'),
      eb.exists(sessions.where('user_agent', '=', query.userAgent).select(sql`1`.as('one'))).as('from_agent'),
    ])
    .executeTakeFirstOrThrow();
  return { any: Boolean(row.any), fromAgent: Boolean(row.from_agent) };
}
