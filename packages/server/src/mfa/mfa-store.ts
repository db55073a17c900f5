/**
 * Multi-factor storage: every query on `user_mfa` and `mfa_recovery_codes`.
 * Secrets arrive sealed and codes hashed; `users.requires_totp_mfa` is
 * written in the same statement group as the active secret.
 */
import type { Insertable } from 'kysely';
import type { Sealer } from '../crypto/encryption.js';
import { type Db, insertChunks } from '../storage/db.js';
import type { Database, UserMfaRow } from '../storage/schema.js';

/** Who: a user of a project. */
export interface UserKey {
  projectId: string;
  userId: string;
}

/** What a sealed TOTP secret is bound to: the user, and whether it is the active or the enrolling one. */
export function totpSealContext(user: UserKey, kind: 'active' | 'pending'): string {
  return `totp:${kind}:${user.projectId}:${user.userId.toLowerCase()}`;
}

/** The user's TOTP row, or null when they never had one. */
export async function findUserMfa(db: Db, user: UserKey): Promise<UserMfaRow | null> {
  const row = await db
    .selectFrom('user_mfa')
    .selectAll()
    .where('project_id', '=', user.projectId)
    .where('user_id', '=', user.userId)
    .executeTakeFirst();
  return row ?? null;
}

/** Sets the columns of the user's TOTP row, adding the row when there is none. */
async function upsertMfa(
  db: Db,
  user: UserKey,
  set: Partial<Pick<UserMfaRow, 'totp_secret_sealed' | 'pending_totp_secret_sealed' | 'last_totp_step'>>,
  now: number,
): Promise<void> {
  const values = { ...set, updated_at: new Date(now) };
  await db
    .insertInto('user_mfa')
    .values({
      project_id: user.projectId,
      user_id: user.userId,
      totp_secret_sealed: null,
      pending_totp_secret_sealed: null,
      last_totp_step: null,
      ...values,
    })
    .onConflict((conflict) => conflict.columns(['project_id', 'user_id']).doUpdateSet(values))
    .execute();
}

/**
 * Makes `sealed` the user's active secret (the enrolling one is dropped; the
 * action marks the user as needing it). The last accepted step stays: time only moves
 * on, and the code that proved an enrolment must not sign in too.
 */
export async function activateTotp(db: Db, user: UserKey, sealed: string, now: number): Promise<void> {
  await upsertMfa(db, user, { totp_secret_sealed: sealed, pending_totp_secret_sealed: null }, now);
}

/** Keeps `sealed` as the secret the user is enrolling (not active until proven). */
export function savePendingTotp(db: Db, user: UserKey, sealed: string, now: number): Promise<void> {
  return upsertMfa(db, user, { pending_totp_secret_sealed: sealed }, now);
}

/** Turns the user's TOTP off: no secret, no enrolment, no recovery codes. */
export async function clearTotp(db: Db, user: UserKey, now: number): Promise<void> {
  await db
    .updateTable('user_mfa')
    .set({ totp_secret_sealed: null, pending_totp_secret_sealed: null, updated_at: new Date(now) })
    .where('project_id', '=', user.projectId)
    .where('user_id', '=', user.userId)
    .execute();
  await deleteRecoveryCodes(db, user);
}

/**
 * Records `step` as the last accepted for the user, unless one as late was
 * accepted meanwhile (two requests with the same code): true when this call
 * took it.
 */
export async function takeTotpStep(db: Db, user: UserKey, step: number): Promise<boolean> {
  const taken = await db
    .updateTable('user_mfa')
    .set({ last_totp_step: step })
    .where('project_id', '=', user.projectId)
    .where('user_id', '=', user.userId)
    .where((eb) => eb.or([eb('last_totp_step', 'is', null), eb('last_totp_step', '<', step)]))
    .executeTakeFirst();
  return taken.numUpdatedRows > 0n;
}

async function deleteRecoveryCodes(db: Db, user: UserKey): Promise<void> {
  await db
    .deleteFrom('mfa_recovery_codes')
    .where('project_id', '=', user.projectId)
    .where('user_id', '=', user.userId)
    .execute();
}

/** Replaces the user's recovery codes with these hashes. */
export async function replaceRecoveryCodes(
  db: Db,
  user: UserKey,
  hashes: readonly string[],
  now: number,
): Promise<void> {
  await deleteRecoveryCodes(db, user);
  await db
    .insertInto('mfa_recovery_codes')
    .values(
      hashes.map((hash) => ({
        project_id: user.projectId,
        user_id: user.userId,
        code_hash: hash,
        created_at: new Date(now),
        used_at: null,
      })),
    )
    .execute();
}

/** Uses the user's unused recovery code with this hash: true when there was one (and this call used it). */
export async function useRecoveryCode(db: Db, user: UserKey, hash: string, now: number): Promise<boolean> {
  const used = await db
    .updateTable('mfa_recovery_codes')
    .set({ used_at: new Date(now) })
    .where('project_id', '=', user.projectId)
    .where('user_id', '=', user.userId)
    .where('code_hash', '=', hash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return used.numUpdatedRows > 0n;
}

/** How many of the user's recovery codes are left. */
export async function countUnusedRecoveryCodes(db: Db, user: UserKey): Promise<number> {
  const row = await db
    .selectFrom('mfa_recovery_codes')
    .select((eb) => eb.fn.countAll<string | number>().as('count'))
    .where('project_id', '=', user.projectId)
    .where('user_id', '=', user.userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Re-seals every TOTP secret, active and enrolling, from `from` to `to` (a new master secret); returns how many users. */
export async function resealTotpSecrets(db: Db, from: Sealer, to: Sealer): Promise<number> {
  const rows = await db
    .selectFrom('user_mfa')
    .selectAll()
    .where((eb) => eb.or([eb('totp_secret_sealed', 'is not', null), eb('pending_totp_secret_sealed', 'is not', null)]))
    .execute();
  for (const row of rows) {
    const user = { projectId: row.project_id, userId: row.user_id };
    const reseal = (sealed: string | null, kind: 'active' | 'pending') =>
      sealed && to.seal(from.open(sealed, totpSealContext(user, kind)), totpSealContext(user, kind));
    await db
      .updateTable('user_mfa')
      .set({
        totp_secret_sealed: reseal(row.totp_secret_sealed, 'active'),
        pending_totp_secret_sealed: reseal(row.pending_totp_secret_sealed, 'pending'),
      })
      .where('project_id', '=', row.project_id)
      .where('user_id', '=', row.user_id)
      .execute();
  }
  return rows.length;
}

/** Imported users' TOTP rows (their secrets sealed), many a statement (`import/`). */
export async function insertMfaRows(db: Db, rows: readonly Insertable<Database['user_mfa']>[]): Promise<void> {
  for (const chunk of insertChunks(rows)) await db.insertInto('user_mfa').values(chunk).execute();
}

/** The users' sealed active TOTP secrets (the export). */
export async function listActiveTotpSecrets(
  db: Db,
  projectId: string,
  userIds: readonly string[],
): Promise<Map<string, string>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('user_mfa')
    .select(['user_id', 'totp_secret_sealed'])
    .where('project_id', '=', projectId)
    .where('user_id', 'in', userIds)
    .where('totp_secret_sealed', 'is not', null)
    .execute();
  return new Map(rows.map((row) => [row.user_id, row.totp_secret_sealed!]));
}
