/**
 * What changes a user's second factor, as actions (`events/recorder.ts`):
 * setting or clearing the secret outright (`totp_secret_base64` of the user
 * routes, the 2.7 SDK's way), enrolling with confirm-before-enable (a pending
 * secret, active once a code of it is proven, with ten recovery codes shown
 * once), turning it off with a proof, and replacing the recovery codes.
 * Secrets are sealed with the master secret, bound to the user; codes are
 * stored hashed. No event carries a secret or a code.
 */
import type { Sealer } from '../crypto/encryption.js';
import { type ActionContext, type ActionTx, act, record } from '../events/recorder.js';
import type { UserRow } from '../storage/schema.js';
import { findUser, updateUser } from '../users/user-store.js';
import {
  activateTotp,
  clearTotp,
  findUserMfa,
  replaceRecoveryCodes,
  savePendingTotp,
  totpSealContext,
  type UserKey,
} from './mfa-store.js';
import { newRecoveryCodes, recoveryCodeHash } from './recovery-codes.js';
import type { ProvenFactor } from './second-factor.js';
import { enrolmentOf, newTotpSecret } from './totp.js';

/** Makes `sealed` the user's active secret and marks the user as needing a second factor. */
async function turnOn(tx: ActionTx, user: UserKey, sealed: string): Promise<void> {
  await activateTotp(tx.db, user, sealed, tx.clock.now());
  await updateUser(tx.db, user.projectId, user.userId, { requires_totp_mfa: true });
}

/** Turns the user's TOTP off (secret, enrolment, recovery codes) and marks the user as not needing it. */
async function turnOff(tx: ActionTx, user: UserKey): Promise<void> {
  await clearTotp(tx.db, user, tx.clock.now());
  await updateUser(tx.db, user.projectId, user.userId, { requires_totp_mfa: false });
}

/** Who changed a user's TOTP: the user themself, or server code. */
type ChangedBy = 'user' | 'server';

/**
 * Sets the user's active secret (base64 of its bytes), or with null turns
 * TOTP off and deletes the recovery codes, inside the action `tx` that
 * changes the rest of the user; answers the user's row after it.
 */
async function setTotpSecret(
  tx: ActionTx,
  sealer: Sealer,
  change: { userId: string; secretBase64: string | null; by: ChangedBy },
): Promise<UserRow | null> {
  const user = { projectId: tx.projectId, userId: change.userId };
  const before = await findUser(tx.db, user.projectId, user.userId);
  if (!before) return null;
  if (change.secretBase64 === null) {
    await turnOff(tx, user);
    if (before.requires_totp_mfa) await record(tx, 'mfa.disabled', { userId: user.userId, data: { by: change.by } });
  } else {
    await turnOn(tx, user, sealer.seal(change.secretBase64, totpSealContext(user, 'active')));
    await record(tx, 'mfa.enabled', { userId: user.userId, data: { by: change.by } });
  }
  return findUser(tx.db, user.projectId, user.userId);
}

/**
 * The change `totp_secret_base64` of a user write asks for, as the user
 * action's `also`: none when the field was left out.
 *
 * @example
 * await updateUser(ctx, userId, changes, passwords, totpSecretChange(deps.configSealer, body.totp_secret_base64, 'server'));
 */
export function totpSecretChange(
  sealer: Sealer,
  secretBase64: string | null | undefined,
  by: ChangedBy,
): ((tx: ActionTx, row: UserRow) => Promise<UserRow | null>) | undefined {
  if (secretBase64 === undefined) return undefined;
  return (tx, row) => setTotpSecret(tx, sealer, { userId: row.id, secretBase64, by });
}

/** What an authenticator app is given: the secret in base32 and an `otpauth://` URI. */
export interface Enrolment {
  secret_base32: string;
  otpauth_uri: string;
}

/**
 * Starts an enrolment: a new secret, kept sealed as the user's pending one
 * (an earlier pending one is replaced; an active one stays active until the
 * new one is proven). Issuer: the project's name; label: the user's e-mail.
 */
export function startEnrolment(
  ctx: ActionContext,
  sealer: Sealer,
  who: { user: UserRow; issuer: string },
): Promise<Enrolment> {
  const user = { projectId: ctx.projectId, userId: who.user.id };
  const secret = newTotpSecret();
  return act(ctx, async (tx) => {
    await savePendingTotp(tx.db, user, sealer.seal(secret, totpSealContext(user, 'pending')), tx.clock.now());
    return enrolmentOf(secret, {
      issuer: who.issuer,
      label: who.user.primary_email ?? who.user.display_name ?? who.user.id,
    });
  });
}

/**
 * Ends an enrolment whose pending secret a code proved: the secret becomes
 * the active one, and ten new recovery codes replace any old ones; answers
 * the codes (shown once). Joins the caller's action when there is one (the
 * sign-in that a project's policy sent here).
 */
export function confirmEnrolment(
  ctx: ActionContext,
  sealer: Sealer,
  userId: string,
  proven: ProvenFactor,
): Promise<string[]> {
  const user = { projectId: ctx.projectId, userId };
  return act(ctx, async (tx) => {
    await proven.commit(tx.db);
    const pending = (await findUserMfa(tx.db, user))?.pending_totp_secret_sealed;
    // The proof was of the pending secret, read before this transaction; a new enrolment since replaced it.
    if (!pending) throw new Error('confirmEnrolment: no pending secret');
    const secret = sealer.open(pending, totpSealContext(user, 'pending'));
    await turnOn(tx, user, sealer.seal(secret, totpSealContext(user, 'active')));
    const codes = await newCodesIn(tx, userId);
    await record(tx, 'mfa.enabled', { userId, data: { by: 'user' } });
    return codes;
  });
}

/** Turns the user's TOTP off after a proof (a code, or a recovery code); the recovery codes go too. */
export function disableTotp(ctx: ActionContext, userId: string, proven: ProvenFactor): Promise<void> {
  return act(ctx, async (tx) => {
    await proven.commit(tx.db);
    await turnOff(tx, { projectId: ctx.projectId, userId });
    await record(tx, 'mfa.disabled', { userId, data: { by: 'user' } });
  });
}

/** Replaces the user's recovery codes after a proof; answers the new ones (shown once). */
export function regenerateRecoveryCodes(ctx: ActionContext, userId: string, proven: ProvenFactor): Promise<string[]> {
  return act(ctx, async (tx) => {
    await proven.commit(tx.db);
    const codes = await newCodesIn(tx, userId);
    await record(tx, 'mfa.recovery_codes_regenerated', { userId });
    return codes;
  });
}

async function newCodesIn(tx: ActionTx, userId: string): Promise<string[]> {
  const codes = newRecoveryCodes();
  const hashes = codes.map((code) => recoveryCodeHash(userId, code)!);
  await replaceRecoveryCodes(tx.db, { projectId: tx.projectId, userId }, hashes, tx.clock.now());
  return codes;
}
