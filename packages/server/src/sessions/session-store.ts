/**
 * Sessions: one row per sign-in, found by the SHA-256 of its refresh token
 * (an opaque 45-character value). Refresh tokens are not rotated (decision b).
 */
import { randomUUID } from 'node:crypto';
import { constants } from '@latchkey/protocol';
import { sha256Hex } from '../crypto/hash.js';
import { randomToken } from '../crypto/random.js';
import { type Db, inTransaction } from '../storage/db.js';
import type { SessionRow } from '../storage/schema.js';
import { markUserActive } from '../users/user-store.js';

/** Creates a session (default lifetime: one year) and returns its refresh token, the only copy in clear. */
export async function createSession(
  db: Db,
  input: { projectId: string; userId: string; now: number; lifetimeMs?: number },
): Promise<{ sessionId: string; refreshToken: string }> {
  const refreshToken = randomToken();
  const sessionId = randomUUID();
  const now = new Date(input.now);
  await db
    .insertInto('sessions')
    .values({
      id: sessionId,
      project_id: input.projectId,
      user_id: input.userId,
      refresh_token_hash: sha256Hex(refreshToken),
      created_at: now,
      expires_at: new Date(input.now + (input.lifetimeMs ?? constants.defaultServerSessionExpiresInMs)),
      last_used_at: now,
    })
    .execute();
  return { sessionId, refreshToken };
}

/** The unexpired session of the project holding `refreshToken`, or null. */
export async function findSession(
  db: Db,
  projectId: string,
  refreshToken: string,
  now: number,
): Promise<SessionRow | null> {
  const row = await db
    .selectFrom('sessions')
    .selectAll()
    .where('refresh_token_hash', '=', sha256Hex(refreshToken))
    .where('project_id', '=', projectId)
    .where('expires_at', '>', new Date(now))
    .executeTakeFirst();
  return row ?? null;
}

/** Marks the session and its user as active now. */
export async function touchSession(db: Db, session: SessionRow, now: number): Promise<void> {
  await inTransaction(db, async (trx) => {
    await trx
      .updateTable('sessions')
      .set({ last_used_at: new Date(now) })
      .where('id', '=', session.id)
      .execute();
    await markUserActive(trx, session.project_id, session.user_id, now);
  });
}

/** Deletes the unexpired session holding `refreshToken`; false when there is none. */
export async function revokeSession(db: Db, projectId: string, refreshToken: string, now: number): Promise<boolean> {
  const result = await db
    .deleteFrom('sessions')
    .where('refresh_token_hash', '=', sha256Hex(refreshToken))
    .where('project_id', '=', projectId)
    .where('expires_at', '>', new Date(now))
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}
