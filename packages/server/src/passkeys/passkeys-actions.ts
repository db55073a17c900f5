/**
 * What changes passkeys, for the routes: keep a verified credential, rename
 * and remove one, and spend a ceremony's challenge that was refused. Each is
 * an action (`events/recorder.ts`). Adding and removing run under a lock on
 * the user's row, so the user's `passkey_auth_enabled` always says whether
 * they have a passkey after the change: on with the first, off with the last.
 * (A sign-in's counter update is part of its session's transaction, in the
 * route, through `completeSignIn`.)
 */
import { KnownError } from '@latchkey/protocol';
import { markCodeUsed } from '../codes/code-store.js';
import { useCode } from '../codes/codes.js';
import { type ActionContext, act, record } from '../events/recorder.js';
import { isUniqueViolation, type VerificationCodeRow } from '../storage/schema.js';
import { lockUser, updateUser } from '../users/user-store.js';
import {
  countUserPasskeys,
  deletePasskeyRow,
  insertPasskey,
  type Passkey,
  passkeyCredentialIndex,
  renamePasskeyRow,
} from './passkey-store.js';
import type { VerifiedCredential } from './webauthn.js';

/** PASSKEY_REGISTRATION_FAILED with the sentence the caller reads. */
export const registrationFailed = (message: string) => new KnownError('PASSKEY_REGISTRATION_FAILED', { message });

const passkeyNotFound = (id: string) => new KnownError('PASSKEY_NOT_FOUND', { passkey_id: id });

/**
 * Keeps the verified credential for the user and uses the registration's
 * code, together: a used code registered its passkey, and a passkey is never
 * kept without its user's flag on. A credential the project has already is
 * PASSKEY_REGISTRATION_FAILED, with nothing kept and the code unused.
 */
export async function addPasskey(
  ctx: ActionContext,
  userId: string,
  code: VerificationCodeRow,
  credential: VerifiedCredential,
  name: string | undefined,
): Promise<Passkey> {
  const { projectId } = ctx;
  try {
    return await act(ctx, async (tx) => {
      const now = ctx.clock.now();
      const user = await lockUser(tx.db, projectId, userId);
      if (!user) throw registrationFailed('The user no longer exists.');
      await useCode(tx.db, code, now);
      const count = await countUserPasskeys(tx.db, projectId, userId);
      const passkey = await insertPasskey(tx.db, {
        projectId,
        userId,
        ...credential,
        name: name ?? (count === 0 ? 'Passkey' : `Passkey ${count + 1}`),
        now,
      });
      if (!user.passkey_auth_enabled) await updateUser(tx.db, projectId, userId, { passkey_auth_enabled: true });
      await record(tx, 'passkey.added', { userId, data: { passkey_id: passkey.id } });
      return passkey;
    });
  } catch (error) {
    if (isUniqueViolation(error, passkeyCredentialIndex))
      throw registrationFailed('This passkey is already registered.');
    throw error;
  }
}

/** Renames the user's passkey; PASSKEY_NOT_FOUND when it is not theirs (or gone). */
export function renamePasskey(ctx: ActionContext, userId: string, id: string, name: string): Promise<Passkey> {
  return act(ctx, async (tx) => {
    const renamed = await renamePasskeyRow(tx.db, ctx.projectId, userId, id, name);
    if (!renamed) throw passkeyNotFound(id);
    await record(tx, 'passkey.renamed', { userId, data: { passkey_id: renamed.id } });
    return renamed;
  });
}

/** Removes the user's passkey (the last one turns `passkey_auth_enabled` off); PASSKEY_NOT_FOUND when it is not theirs. */
export function removePasskey(ctx: ActionContext, userId: string, id: string): Promise<void> {
  const { projectId } = ctx;
  return act(ctx, async (tx) => {
    const user = await lockUser(tx.db, projectId, userId);
    if (!user || !(await deletePasskeyRow(tx.db, projectId, userId, id))) throw passkeyNotFound(id);
    if ((await countUserPasskeys(tx.db, projectId, userId)) === 0 && user.passkey_auth_enabled) {
      await updateUser(tx.db, projectId, userId, { passkey_auth_enabled: false });
    }
    await record(tx, 'passkey.removed', { userId, data: { passkey_id: id.toLowerCase() } });
  });
}

/**
 * Uses up the code of a ceremony whose response was refused: a challenge is
 * answered once, right or wrong. Nothing else changes, so nothing is recorded.
 */
export function spendChallenge(ctx: ActionContext, code: VerificationCodeRow): Promise<void> {
  return act(ctx, async (tx) => {
    await markCodeUsed(tx.db, code.id, ctx.clock.now());
  });
}
