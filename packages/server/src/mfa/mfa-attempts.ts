/**
 * A sign-in waiting for its second factor. When the person proved a first
 * factor and the account has TOTP (or the project asks for it and the
 * account has none yet), `completeSignIn` opens no session: it issues an
 * attempt code (a verification code of purpose `mfa_attempt`: hashed, bound
 * to the project, five minutes, single use, dead after five wrong codes) that
 * remembers who signed in, how, and whether the account is new. The
 * second step (`mfa-routes.ts`) hands the code back with the TOTP code, or
 * sets TOTP up with it, and then the session opens.
 */
import { KnownError } from '@latchkey/protocol';
import { z } from 'zod';
import { issueCode } from '../codes/codes.js';
import type { Db } from '../storage/db.js';
import type { VerificationCodeRow } from '../storage/schema.js';
import { findUser } from '../users/user-store.js';

/** What the second step still needs: a TOTP code (`totp`), or setting TOTP up first (`setup`, the project's policy). */
export type SecondFactorDue = 'totp' | 'setup';

/** What an attempt code remembers. `method` is the first factor, as the sign-in events name it. */
const attemptData = z.object({
  user_id: z.uuid(),
  method: z.string(),
  is_new_user: z.boolean(),
  due: z.enum(['totp', 'setup']),
});

/** A pending sign-in, as its attempt code remembers it. */
export type PendingSignIn = z.infer<typeof attemptData>;

/**
 * The second factor the user's sign-in needs before a session opens, or null:
 * `totp` when they have TOTP, `setup` when they have none and the project
 * requires it. Read in the sign-in's transaction.
 */
export async function secondFactorDue(
  db: Db,
  user: { projectId: string; userId: string; mfaRequired: boolean },
): Promise<SecondFactorDue | null> {
  const row = await findUser(db, user.projectId, user.userId);
  if (row?.requires_totp_mfa) return 'totp';
  return user.mfaRequired ? 'setup' : null;
}

/**
 * Issues the attempt code of a pending sign-in, in the transaction that
 * commits its first factor; answers the code.
 */
export async function issueAttempt(
  db: Db,
  attempt: { projectId: string; now: number } & { pending: PendingSignIn },
): Promise<string> {
  const issued = await issueCode(db, {
    projectId: attempt.projectId,
    purpose: 'mfa_attempt',
    data: attempt.pending,
    now: attempt.now,
  });
  return issued.code;
}

/** The known errors of every route that ends a person's sign-in, for route declarations. */
export const secondFactorErrors = [
  'MULTI_FACTOR_AUTHENTICATION_REQUIRED',
  'MULTI_FACTOR_AUTHENTICATION_SETUP_REQUIRED',
] as const;

/** The known error a pending sign-in answers: the code the SDK reads and its attempt code. */
export function secondFactorRequired(due: SecondFactorDue, attemptCode: string): KnownError {
  return due === 'totp'
    ? new KnownError('MULTI_FACTOR_AUTHENTICATION_REQUIRED', { attempt_code: attemptCode })
    : new KnownError('MULTI_FACTOR_AUTHENTICATION_SETUP_REQUIRED', { attempt_code: attemptCode });
}

/**
 * The pending sign-in an attempt code remembers (checked by the codes module:
 * not found, also in another project, expired, used, out of attempts),
 * waiting for `due`: a code of the other kind is not found.
 */
export function checkAttemptData(row: VerificationCodeRow, due: SecondFactorDue): PendingSignIn {
  const pending = attemptData.safeParse(row.data);
  if (!pending.success || pending.data.due !== due) throw new KnownError('VERIFICATION_CODE_NOT_FOUND');
  return pending.data;
}
