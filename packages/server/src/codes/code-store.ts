/** Verification codes: every query on `verification_codes`. Only hashes of codes are stored. */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../storage/db.js';
import { type JsonValue, json, type VerificationCodeRow } from '../storage/schema.js';

/** A code to store. */
export interface NewCodeRow {
  projectId: string;
  purpose: string;
  lookupHash: string;
  codeHash: string;
  data: Record<string, JsonValue>;
  now: number;
  expiresAt: number;
  teamId: string | null;
}

export async function insertCode(db: Db, code: NewCodeRow): Promise<VerificationCodeRow> {
  return db
    .insertInto('verification_codes')
    .values({
      id: randomUUID(),
      project_id: code.projectId,
      purpose: code.purpose,
      lookup_hash: code.lookupHash,
      code_hash: code.codeHash,
      data: json(code.data),
      created_at: new Date(code.now),
      expires_at: new Date(code.expiresAt),
      used_at: null,
      team_id: code.teamId,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * The code of the purpose with this lookup hash, in the project, or in any
 * project when `projectId` is null (the OAuth callback learns the project from
 * its flow); null when there is none.
 */
export async function findCodeByLookup(
  db: Db,
  projectId: string | null,
  purpose: string,
  lookupHash: string,
): Promise<VerificationCodeRow | null> {
  let query = db
    .selectFrom('verification_codes')
    .selectAll()
    .where('lookup_hash', '=', lookupHash)
    .where('purpose', '=', purpose);
  if (projectId !== null) query = query.where('project_id', '=', projectId);
  return (await query.executeTakeFirst()) ?? null;
}

/** Counts a wrong guess; returns the attempts made so far. */
export async function countFailedAttempt(db: Db, id: string): Promise<number> {
  const row = await db
    .updateTable('verification_codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .returning('attempts')
    .executeTakeFirst();
  return row?.attempts ?? 0;
}

/** Marks the code used unless it was already; true when this call used it (single use under concurrency). */
export async function markCodeUsed(db: Db, id: string, now: number): Promise<boolean> {
  const result = await db
    .updateTable('verification_codes')
    .set({ used_at: new Date(now) })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Removes codes that expired before `before` (kept a while so a late click says "expired", not "not found"). */
export async function deleteCodesExpiredBefore(db: Db, before: number): Promise<number> {
  const result = await db
    .deleteFrom('verification_codes')
    .where('expires_at', '<', new Date(before))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes the unused codes of a purpose (in-flight OAuth flows, whose verifiers a new master secret cannot open). */
export async function deleteUnusedCodes(db: Db, purpose: string): Promise<number> {
  const result = await db
    .deleteFrom('verification_codes')
    .where('purpose', '=', purpose)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Which outstanding codes `expireOutstandingCodes` ends. */
export interface OutstandingCodes {
  projectId: string;
  purposes: readonly string[];
  /** Codes issued for this user (`data.user_id`). */
  userId: string;
  /** Only those mailed to this address (`data.email`, any case). */
  email?: string;
  /** A code to leave alone (the one being used). */
  exceptId?: string;
}

/**
 * Makes the unused codes `which` names expire at `now`, so that a late use
 * answers VERIFICATION_CODE_EXPIRED; returns how many. Call it in the
 * transaction of the change that makes them stale.
 */
export async function expireOutstandingCodes(db: Db, which: OutstandingCodes, now: number): Promise<number> {
  const result = await db
    .updateTable('verification_codes')
    .set({ expires_at: new Date(now) })
    .where('project_id', '=', which.projectId)
    .where('purpose', 'in', [...which.purposes])
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date(now))
    .where(sql<string>`data->>'user_id'`, '=', which.userId)
    .$if(which.email !== undefined, (query) =>
      query.where(sql<string>`lower(data->>'email')`, '=', which.email!.toLowerCase()),
    )
    .$if(which.exceptId !== undefined, (query) => query.where('id', '!=', which.exceptId!))
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}
