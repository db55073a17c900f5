/**
 * Multi-factor routes (wire-protocol §10, §14.1). The second step of a
 * sign-in: `POST /auth/mfa/sign-in` takes the attempt code a sign-in answered
 * with MULTI_FACTOR_AUTHENTICATION_REQUIRED and a TOTP code (or, a Latchkey
 * extension, a recovery code) and opens the session. Latchkey extensions
 * besides: the setup a project's `mfa_required` policy asks of a user without
 * TOTP (`/auth/mfa/setup`, `/auth/mfa/setup/confirm`, with the attempt code
 * of MULTI_FACTOR_AUTHENTICATION_SETUP_REQUIRED), and a signed-in user's
 * enrolment with confirm-before-enable, turning TOTP off and replacing the
 * recovery codes (`/users/me/mfa/...`). Each proof is checked by
 * `second-factor.ts`, under the project's per-account attempt limit.
 */
import { KnownError } from '@latchkey/protocol';
import { z } from 'zod';
import { checkClientCode } from '../codes/code-mail.js';
import { countFailedAttempt } from '../codes/code-store.js';
import { codeErrors, useCode, verificationCode } from '../codes/codes.js';
import { successAnswer } from '../common/schemas.js';
import { type ActionContext, act, type RequestParts, requestContext } from '../events/recorder.js';
import { defineRoute, type Route } from '../http/route.js';
import type { ProjectRecord } from '../projects/projects.js';
import { completeSignIn, type SecondStep, signInAnswer } from '../sessions/complete-sign-in.js';
import type { Db } from '../storage/db.js';
import type { VerificationCodeRow } from '../storage/schema.js';
import { findUser } from '../users/user-store.js';
import { confirmEnrolment, disableTotp, regenerateRecoveryCodes, startEnrolment } from './mfa-actions.js';
import { checkAttemptData, type PendingSignIn, type SecondFactorDue } from './mfa-attempts.js';
import { recoveryCode } from './recovery-codes.js';
import {
  type Proof,
  type ProofNeeds,
  type ProofSubject,
  type ProvenFactor,
  withSecondFactor,
} from './second-factor.js';
import { totpCode } from './totp.js';

const attemptCode = verificationCode.meta({
  description: 'The `attempt_code` of the MULTI_FACTOR_AUTHENTICATION_REQUIRED (or _SETUP_REQUIRED) answer.',
});

const enrolmentAnswer = z
  .object({
    secret_base32: z.string().meta({ description: 'The new secret, for typing into an authenticator app.' }),
    otpauth_uri: z.string().meta({ description: 'The `otpauth://totp/...` URI, for a QR code.' }),
  })
  .meta({ id: 'TotpEnrolment' });

const recoveryCodes = z
  .array(z.string())
  .meta({ description: 'Ten single-use recovery codes, shown this once: each stands in for a TOTP code.' });

const recoveryCodesAnswer = z.object({ recovery_codes: recoveryCodes }).meta({ id: 'RecoveryCodes' });

/** The pending sign-in of an attempt code, checked under the client's limit on code checks. */
async function pendingSignIn(
  input: {
    auth: { project: ProjectRecord };
    client: { ip: string | null };
    deps: Parameters<typeof checkClientCode>[0];
  },
  ctx: ActionContext,
  code: string,
  due: SecondFactorDue,
  now: number,
): Promise<{ row: VerificationCodeRow; pending: PendingSignIn }> {
  const row = await checkClientCode(
    input.deps,
    input.auth.project,
    { purpose: 'mfa_attempt', code, now, clientIp: input.client.ip },
    ctx,
  );
  return { row, pending: checkAttemptData(row, due) };
}

/** A wrong proof also counts against the attempt code: five, and it is dead. */
function countAgainst(ctx: ActionContext, row: VerificationCodeRow) {
  return () => act(ctx, (tx) => countFailedAttempt(tx.db, row.id));
}

/**
 * The end of a second step: the attempt code's pending sign-in, the proof checked against the user's secret
 * (a wrong one counts against the attempt code too), then the session, with the code used and `effects` of
 * the proof (`inside`) in the sign-in's own transaction.
 */
async function finishSignIn(
  input: Parameters<typeof completeSignIn>[0] &
    Parameters<typeof pendingSignIn>[0] &
    RequestParts & { deps: RequestParts['deps'] & ProofNeeds },
  code: string,
  step: { due: SecondFactorDue; secret: ProofSubject['secret']; during: ProofSubject['during'] },
  proof: Proof,
  inside: (proven: ProvenFactor, ctx: ActionContext, userId: string) => (trx: Db) => Promise<unknown>,
): ReturnType<typeof completeSignIn<'sign-in-or-up'>> {
  const { auth, deps } = input;
  const ctx = requestContext(input);
  const { row, pending } = await pendingSignIn(input, ctx, code, step.due, deps.clock.now());
  const subject = {
    project: auth.project,
    userId: pending.user_id,
    secret: step.secret,
    during: step.during,
    onWrong: countAgainst(ctx, row),
  };
  return withSecondFactor(ctx, deps, subject, proof, (proven) =>
    completeSignIn(input, {
      method: { secondFactor: { first: pending.method as SecondStep['first'], factor: proven.factor } },
      user: async (trx) => {
        await useCode(trx, row, deps.clock.now());
        await inside(proven, ctx, pending.user_id)(trx);
        return { userId: pending.user_id, isNewUser: pending.is_new_user };
      },
      answer: 'sign-in-or-up',
    }),
  );
}

const signInWithTotp = z.strictObject({ code: attemptCode, type: z.literal('totp'), totp: totpCode });
const signInWithRecoveryCode = z.strictObject({
  code: attemptCode,
  type: z.literal('recovery_code').meta({ description: 'Latchkey extension: a recovery code instead of a TOTP code.' }),
  recovery_code: recoveryCode,
});

const mfaSignIn = defineRoute({
  method: 'POST',
  path: '/auth/mfa/sign-in',
  tag: 'mfa',
  summary:
    'The second step of a sign-in: the attempt code and a TOTP code (or, an extension, a recovery code) open the session.',
  access: 'client',
  body: z.discriminatedUnion('type', [signInWithTotp, signInWithRecoveryCode]),
  answer: signInAnswer,
  errors: ['INVALID_TOTP_CODE', ...codeErrors],
  handler: async (input) => {
    const step = { due: 'totp', secret: 'active', during: 'sign_in' } as const;
    return finishSignIn(input, input.body.code, step, proofOf(input.body), (proven) => proven.commit.bind(proven));
  },
});

const mfaSetup = defineRoute({
  method: 'POST',
  path: '/auth/mfa/setup',
  tag: 'mfa',
  summary:
    'Latchkey extension: a new TOTP secret for the user whose sign-in answered MULTI_FACTOR_AUTHENTICATION_SETUP_REQUIRED (the project requires TOTP); it is active once `/auth/mfa/setup/confirm` proves it.',
  access: 'client',
  body: z.strictObject({ code: attemptCode }),
  answer: enrolmentAnswer,
  errors: [...codeErrors],
  handler: async (input) => {
    const { auth, body, deps } = input;
    const { pending } = await pendingSignIn(input, requestContext(input), body.code, 'setup', deps.clock.now());
    const user = await findUser(deps.db, auth.project.id, pending.user_id);
    if (!user) throw new KnownError('VERIFICATION_CODE_NOT_FOUND');
    const ctx = requestContext({ ...input, userId: user.id });
    return startEnrolment(ctx, deps.configSealer, { user, issuer: auth.project.displayName });
  },
});

const mfaSetupConfirm = defineRoute({
  method: 'POST',
  path: '/auth/mfa/setup/confirm',
  tag: 'mfa',
  summary:
    'Latchkey extension: a code of the secret `/auth/mfa/setup` gave turns TOTP on and opens the session; answers the tokens and ten recovery codes.',
  access: 'client',
  body: z.strictObject({ code: attemptCode, totp: totpCode }),
  answer: signInAnswer.extend({ recovery_codes: recoveryCodes }).meta({ id: 'MfaSetupAnswer' }),
  errors: ['INVALID_TOTP_CODE', ...codeErrors],
  handler: async (input) => {
    const { body, deps } = input;
    let codes: string[] = [];
    const tokens = await finishSignIn(
      input,
      body.code,
      { due: 'setup', secret: 'pending', during: 'setup' },
      { type: 'totp', totp: body.totp },
      (proven, ctx, userId) => async () => {
        codes = await confirmEnrolment({ ...ctx, userId }, deps.configSealer, userId, proven);
      },
    );
    return { ...tokens, recovery_codes: codes };
  },
});

/** The signed-in user's row; a token whose user is gone reads as no user. */
async function signedInUser(deps: { db: Parameters<typeof findUser>[0] }, projectId: string, userId: string) {
  const user = await findUser(deps.db, projectId, userId);
  if (!user) throw new KnownError('CANNOT_GET_OWN_USER_WITHOUT_USER');
  return user;
}

/** A proof as a body carries it: a TOTP code, or a recovery code in its place. */
function proofOf(body: { totp?: string | undefined; recovery_code?: string | undefined }): Proof {
  return body.totp !== undefined
    ? { type: 'totp', totp: body.totp }
    : { type: 'recovery_code', recovery_code: body.recovery_code ?? '' };
}

/** Runs `work` for the signed-in user once the body's proof of their (`secret`) TOTP holds. */
function withOwnProof<T>(
  input: RequestParts & {
    auth: { project: ProjectRecord };
    userId: string;
    body: { totp?: string; recovery_code?: string };
    deps: RequestParts['deps'] & ProofNeeds;
  },
  secret: ProofSubject['secret'],
  during: ProofSubject['during'],
  work: (ctx: ActionContext, proven: ProvenFactor) => Promise<T>,
): Promise<T> {
  const ctx = requestContext(input);
  const subject = { project: input.auth.project, userId: input.userId, secret, during };
  return withSecondFactor(ctx, input.deps, subject, proofOf(input.body), (proven) => work(ctx, proven));
}

const startOwnEnrolment = defineRoute({
  method: 'POST',
  path: '/users/me/mfa/totp',
  tag: 'mfa',
  summary:
    'Latchkey extension: a new TOTP secret for the signed-in user, pending until `/users/me/mfa/totp/confirm` proves it (an active one stays active until then).',
  access: 'client',
  user: true,
  answer: enrolmentAnswer,
  errors: [],
  handler: async (input) => {
    const { auth, userId, deps } = input;
    const user = await signedInUser(deps, auth.project.id, userId);
    return startEnrolment(requestContext(input), deps.configSealer, { user, issuer: auth.project.displayName });
  },
});

const confirmOwnEnrolment = defineRoute({
  method: 'POST',
  path: '/users/me/mfa/totp/confirm',
  tag: 'mfa',
  summary:
    'Latchkey extension: a code of the pending secret turns TOTP on (or replaces the active secret); answers ten new recovery codes, shown once.',
  access: 'client',
  user: true,
  body: z.strictObject({ totp: totpCode }),
  answer: recoveryCodesAnswer,
  errors: ['INVALID_TOTP_CODE'],
  handler: async (input) => ({
    recovery_codes: await withOwnProof(input, 'pending', 'enrolment', (ctx, proven) =>
      confirmEnrolment(ctx, input.deps.configSealer, input.userId, proven),
    ),
  }),
});

const proofBody = z
  .strictObject({ totp: totpCode.optional(), recovery_code: recoveryCode.optional() })
  .refine((body) => (body.totp === undefined) !== (body.recovery_code === undefined), {
    error: 'send either totp or recovery_code',
  });

const disableOwnTotp = defineRoute({
  method: 'DELETE',
  path: '/users/me/mfa/totp',
  tag: 'mfa',
  summary:
    'Latchkey extension: turns the signed-in user’s TOTP off, with a current code or a recovery code; the recovery codes are deleted.',
  access: 'client',
  user: true,
  body: proofBody,
  answer: successAnswer,
  errors: ['INVALID_TOTP_CODE'],
  handler: async (input) => {
    await withOwnProof(input, 'active', 'disable', (ctx, proven) => disableTotp(ctx, input.userId, proven));
    return { success: true as const };
  },
});

const regenerateOwnRecoveryCodes = defineRoute({
  method: 'POST',
  path: '/users/me/mfa/recovery-codes',
  tag: 'mfa',
  summary: 'Latchkey extension: ten new recovery codes replace all of the signed-in user’s, after a current TOTP code.',
  access: 'client',
  user: true,
  body: z.strictObject({ totp: totpCode }),
  answer: recoveryCodesAnswer,
  errors: ['INVALID_TOTP_CODE'],
  handler: async (input) => ({
    recovery_codes: await withOwnProof(input, 'active', 'recovery_codes', (ctx, proven) =>
      regenerateRecoveryCodes(ctx, input.userId, proven),
    ),
  }),
});

export const mfaRoutes: Route[] = [
  mfaSignIn,
  mfaSetup,
  mfaSetupConfirm,
  startOwnEnrolment,
  confirmOwnEnrolment,
  disableOwnTotp,
  regenerateOwnRecoveryCodes,
];
