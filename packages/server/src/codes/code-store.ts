/** Verification codes: every query on `verification_codes`. Only hashes of codes are stored. */
import { randomUUID } from 'node:crypto';
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

/** The code of the project and purpose with this lookup hash, or null. */
export async function findCodeByLookup(
  db: Db,
  projectId: string,
  purpose: string,
  lookupHash: string,
): Promise<VerificationCodeRow | null> {
  const row = await db
    .selectFrom('verification_codes')
    .selectAll()
    .where('lookup_hash', '=', lookupHash)
    .where('project_id', '=', projectId)
    .where('purpose', '=', purpose)
    .executeTakeFirst();
  return row ?? null;
}

/** The code of the purpose with this lookup hash in any project (the OAuth callback learns the project from it), or null. */
export async function findCodeOfAnyProject(
  db: Db,
  purpose: string,
  lookupHash: string,
): Promise<VerificationCodeRow | null> {
  const row = await db
    .selectFrom('verification_codes')
    .selectAll()
    .where('lookup_hash', '=', lookupHash)
    .where('purpose', '=', purpose)
    .executeTakeFirst();
  return row ?? null;
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
