/**
 * Checking a second factor: a TOTP code of the user's secret (the active one,
 * or the one being enrolled) or one of their recovery codes. Every check is
 * counted per user under the project's sign-in limits
 * (`sign_in_failures_per_account`, the growing back-off of
 * `rate-limit/attempt-limits.ts`), across attempt codes and routes, so
 * guessing six digits is as slow as guessing a password. A wrong proof stays
 * counted and is recorded (`mfa.failed`); a right one is used up in the
 * transaction of what it allows (its time step taken, its recovery code
 * used), together with taking its attempt back.
 */
import { KnownError } from '@latchkey/protocol';
import type { Sealer } from '../crypto/encryption.js';
import type { EventData } from '../events/catalogue.js';
import { type ActionContext, act, record } from '../events/recorder.js';
import { accountBackOff, reserveAttempt } from '../rate-limit/attempt-limits.js';
import type { CounterStore } from '../rate-limit/counter-store.js';
import type { LimitedProject } from '../rate-limit/limit-settings.js';
import { type Db, writeTogether } from '../storage/db.js';
import { countUnusedRecoveryCodes, findUserMfa, takeTotpStep, totpSealContext, useRecoveryCode } from './mfa-store.js';
import { recoveryCodeHash } from './recovery-codes.js';
import { acceptedStep } from './totp.js';

/** What a check needs of the service. */
export interface ProofNeeds {
  configSealer: Sealer;
  counters: CounterStore;
  attemptLimits: boolean;
}

/** A proof as a request carries it. */
export type Proof = { type: 'totp'; totp: string } | { type: 'recovery_code'; recovery_code: string };

/** Whose proof, against which secret, and for what. */
export interface ProofSubject {
  project: LimitedProject;
  userId: string;
  /** `pending`: the secret being enrolled (recovery codes do not count then). */
  secret: 'active' | 'pending';
  during: EventData<'mfa.failed'>['during'];
  /** Called on a wrong proof before it is refused (an attempt code counts it too). */
  onWrong?: () => Promise<unknown>;
}

/** A right proof, not yet used up. */
export interface ProvenFactor {
  factor: 'totp' | 'recovery_code';
  /**
   * Uses the proof up in the transaction of what it allows (a TOTP code's
   * step, a recovery code) and takes its attempt back; INVALID_TOTP_CODE when
   * a request with the same proof got there first.
   */
  commit(db: Db): Promise<void>;
}

/** The per-user counter of second-factor checks, under the project's limit for an account's failures. */
function proofKey(project: LimitedProject, userId: string) {
  const backOff = { ...accountBackOff, free: project.config.rate_limits.sign_in_failures_per_account };
  return [[`mfa:${project.id}:${userId.toLowerCase()}`, backOff] as [string, typeof backOff]];
}

/**
 * Checks `proof` of the subject's user and runs `use` with the proven factor,
 * which must `commit` it in the transaction of what it allows. A wrong proof
 * is INVALID_TOTP_CODE (for a recovery code too: the SDK knows no other), a
 * user who failed too often waits (429).
 *
 * @example
 * await withSecondFactor(ctx, deps, subject, { type: 'totp', totp: body.totp }, (proven) =>
 *   act(ctx, async (tx) => { await proven.commit(tx.db); ... }),
 * );
 */
export async function withSecondFactor<T>(
  ctx: ActionContext,
  needs: ProofNeeds,
  subject: ProofSubject,
  proof: Proof,
  use: (proven: ProvenFactor) => Promise<T>,
): Promise<T> {
  const now = ctx.clock.now();
  const attempt = needs.attemptLimits
    ? await reserveAttempt(needs.counters, proofKey(subject.project, subject.userId), now)
    : null;
  try {
    const proven = await check(ctx, needs, subject, proof, now);
    if (!proven) {
      await subject.onWrong?.();
      await act(ctx, (tx) =>
        record(tx, 'mfa.failed', { userId: subject.userId, data: { factor: proof.type, during: subject.during } }),
      );
      throw new KnownError('INVALID_TOTP_CODE');
    }
    const release = attempt?.succeeding();
    const commit = async (db: Db) => {
      await proven(db);
      await writeTogether(db, release?.writes ?? []);
    };
    const [result] = await Promise.all([use({ factor: proof.type, commit }), release?.done]);
    return result;
  } finally {
    // Short of a success (a wrong proof, a failing store), the attempt stays counted.
    attempt?.failed();
  }
}

/** The use of a right proof, or null for a wrong one. */
async function check(
  ctx: ActionContext,
  needs: ProofNeeds,
  subject: ProofSubject,
  proof: Proof,
  now: number,
): Promise<((db: Db) => Promise<void>) | null> {
  const user = { projectId: subject.project.id, userId: subject.userId };
  const row = await findUserMfa(ctx.db, user);
  if (proof.type === 'recovery_code') {
    const hash =
      subject.secret === 'active' && row?.totp_secret_sealed
        ? recoveryCodeHash(user.userId, proof.recovery_code)
        : null;
    if (hash === null) return null;
    return async (db) => {
      if (!(await useRecoveryCode(db, user, hash, now))) throw new KnownError('INVALID_TOTP_CODE');
      const remaining = await countUnusedRecoveryCodes(db, user);
      await act(ctx, (tx) => record(tx, 'mfa.recovery_code_used', { userId: user.userId, data: { remaining } }));
    };
  }
  const sealed = subject.secret === 'active' ? row?.totp_secret_sealed : row?.pending_totp_secret_sealed;
  if (!row || !sealed) return null;
  const secret = needs.configSealer.open(sealed, totpSealContext(user, subject.secret));
  const step = acceptedStep(secret, proof.totp, now, row.last_totp_step);
  if (step === null) return null;
  return async (db) => {
    if (!(await takeTotpStep(db, user, step))) throw new KnownError('INVALID_TOTP_CODE');
  };
}
