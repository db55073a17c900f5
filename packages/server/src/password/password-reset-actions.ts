/**
 * What changes passwords outside a sign-in, for the routes: mail a reset
 * code, reset with one (proving the mailbox), change a password with the old
 * one, and set a first one. Each is an action (`events/recorder.ts`): the
 * password, the sessions and codes it ends and its event commit together.
 * Passwords are hashed by the caller before the action opens its transaction.
 */
import { KnownError } from '@latchkey/protocol';
import { z } from 'zod';
import { mailCode } from '../codes/code-mail.js';
import { expireOutstandingCodes } from '../codes/code-store.js';
import { useCode } from '../codes/codes.js';
import { settleProof } from '../contact-channels/mailbox-proof.js';
import { type ActionContext, act, record, sessionsEnded } from '../events/recorder.js';
import { StatusRefusal } from '../http/responses.js';
import type { ProjectRecord } from '../projects/projects.js';
import { deleteUserSessionsExcept } from '../sessions/session-store.js';
import type { Db } from '../storage/db.js';
import type { UserRow, VerificationCodeRow } from '../storage/schema.js';
import { findUser, findUserByAuthEmail, updateUser } from '../users/user-store.js';
import { addUser } from '../users/users-actions.js';

const resetCodeData = z.object({ user_id: z.string(), email: z.string() });

/**
 * The user a reset code acts on, if they still sign in with the address it was
 * mailed to; VERIFICATION_CODE_NOT_FOUND otherwise (the code's subject is gone).
 */
export async function resetSubject(db: Db, projectId: string, row: VerificationCodeRow): Promise<UserRow> {
  const data = resetCodeData.safeParse(row.data);
  if (!data.success) throw new KnownError('VERIFICATION_CODE_NOT_FOUND');
  const user = await findUserByAuthEmail(db, projectId, data.data.email);
  if (!user || user.id !== data.data.user_id) throw new KnownError('VERIFICATION_CODE_NOT_FOUND');
  return user;
}

/** Rolls back the stand-in work done for an unknown e-mail. */
class RollBack extends Error {}

/** A reset code to mail: to the user who signs in with `email`, or (the same work, undone) to nobody. */
export interface ResetMail {
  project: ProjectRecord;
  user: UserRow | null;
  email: string;
  callbackUrl: string;
}

/**
 * Issues a reset code and queues its mail. For an address nobody signs in
 * with, the same work is done and rolled back, so the answer takes as long.
 */
export async function mailResetCode(ctx: ActionContext, mail: ResetMail): Promise<void> {
  const { project, user, email } = mail;
  try {
    await act(ctx, async (tx) => {
      await mailCode(tx.db, {
        project,
        type: 'password_reset',
        to: email,
        data: { user_id: user?.id ?? null, email },
        callbackUrl: mail.callbackUrl,
        now: ctx.clock.now(),
        variables: (link) => ({ userDisplayName: user?.display_name ?? null, passwordResetLink: link }),
      });
      if (!user) throw new RollBack();
    });
  } catch (error) {
    if (!(error instanceof RollBack)) throw error;
  }
}

/**
 * Uses the checked reset code and gives its user the new password: the
 * address is settled first (`mailbox-proof.ts`), every session of the user
 * ends and their other reset and sign-in codes expire. When the address was
 * another account's claim, now detached, the prover gets an account of her
 * own with it (SIGN_UP_NOT_ENABLED when the project takes no sign-ups).
 */
export function resetPassword(
  ctx: ActionContext,
  project: ProjectRecord,
  code: VerificationCodeRow,
  passwordHash: string,
): Promise<void> {
  return act(ctx, async (tx) => {
    const now = ctx.clock.now();
    await useCode(tx.db, code, now);
    // Read again inside the transaction: the subject may have changed while the password was hashed.
    await resetSubject(tx.db, project.id, code);
    const address = resetCodeData.parse(code.data).email;
    const owner = await settleProof(tx, { projectId: project.id, address, now, codeId: code.id });
    if (!owner) {
      if (!project.config.sign_up_enabled) throw new KnownError('SIGN_UP_NOT_ENABLED');
      const user = await addUser(tx.db, {
        projectId: project.id,
        primaryEmail: address,
        primaryEmailVerified: true,
        primaryEmailAuthEnabled: true,
        passwordHash,
        now,
        projectConfig: project.config,
      });
      await record(tx, 'sign_up', { userId: user.id, data: { method: 'password_reset' } });
      return;
    }
    await updateUser(tx.db, project.id, owner.id, { password_hash: passwordHash });
    sessionsEnded(tx, await deleteUserSessionsExcept(tx.db, project.id, owner.id, null));
    await endPasswordCodes(tx.db, project.id, owner.id, now);
    await record(tx, 'password.reset', { userId: owner.id });
  });
}

/**
 * Changes the context's user's password (the old one checked by the caller)
 * and ends their sessions but `keepSessionId`, and their reset and sign-in codes.
 */
export function changePassword(ctx: ActionContext, passwordHash: string, keepSessionId: string | null): Promise<void> {
  const userId = ownUser(ctx);
  return act(ctx, async (tx) => {
    const now = ctx.clock.now();
    await updateUser(tx.db, ctx.projectId, userId, { password_hash: passwordHash });
    sessionsEnded(tx, await deleteUserSessionsExcept(tx.db, ctx.projectId, userId, keepSessionId));
    await endPasswordCodes(tx.db, ctx.projectId, userId, now);
    await record(tx, 'password.changed', { data: { by: 'user' } });
  });
}

/**
 * Gives the context's user a first password, ending their reset and sign-in
 * codes; a plain 400 when they have one (`requireNoPassword`).
 */
export function setPassword(ctx: ActionContext, passwordHash: string): Promise<void> {
  const userId = ownUser(ctx);
  return act(ctx, async (tx) => {
    const now = ctx.clock.now();
    await requireNoPassword(tx.db, ctx.projectId, userId);
    await updateUser(tx.db, ctx.projectId, userId, { password_hash: passwordHash });
    await endPasswordCodes(tx.db, ctx.projectId, userId, now);
    await record(tx, 'password.set');
  });
}

/**
 * Refuses a user who has a password already as the original backend does: a
 * plain 400 `User already has a password set.` (wire-protocol §4.2).
 */
export async function requireNoPassword(db: Db, projectId: string, userId: string): Promise<void> {
  const user = await findUser(db, projectId, userId);
  if (!user) throw new KnownError('CANNOT_GET_OWN_USER_WITHOUT_USER');
  if (user.password_hash !== null) throw new StatusRefusal(400, 'User already has a password set.');
}

function ownUser(ctx: ActionContext): string {
  if (ctx.userId === null) throw new KnownError('CANNOT_GET_OWN_USER_WITHOUT_USER');
  return ctx.userId;
}

/**
 * Ends the user's outstanding reset and sign-in codes once their password
 * changed: whoever asked for them before (maybe the person the new password
 * keeps out) must not get in with them now.
 */
function endPasswordCodes(db: Db, projectId: string, userId: string, now: number): Promise<number> {
  return expireOutstandingCodes(db, { projectId, purposes: ['password_reset', 'magic_link'], userId }, now);
}
