/**
 * Verification codes (wire-protocol §12): e-mail verification, password
 * reset, magic link, team invitation. A code is 45 lowercase Crockford base32
 * characters (225 bits) and is stored only as hashes. Its first six
 * characters are the part a person may type (the magic-link OTP); the other
 * 39 are the nonce a magic-link caller already holds. So every code is looked
 * up by the hash of its last 39 characters and then compared whole in
 * constant time, and a wrong first part counts as a failed attempt: after
 * `maxCodeAttempts` the code is dead. A code is bound to its project and
 * purpose, expires, and is used once.
 */
import { KnownError } from '@latchkey/protocol';
import { z } from 'zod';
import { constantTimeEqual, sha256Hex } from '../crypto/hash.js';
import { randomToken } from '../crypto/random.js';
import type { Db } from '../storage/db.js';
import type { JsonValue, VerificationCodeRow } from '../storage/schema.js';
import { countFailedAttempt, findCodeByLookup, insertCode, markCodeUsed } from './code-store.js';

/** What a code is for. A code of one purpose is not found under another. */
export type CodePurpose =
  | 'email_verification'
  | 'password_reset'
  | 'magic_link'
  | 'team_invitation'
  | 'oauth_flow'
  | 'oauth_authorization_code'
  | 'passkey_registration'
  | 'passkey_authentication'
  | 'mfa_attempt';

const minute = 60_000;

/** How long a code of each purpose lives. */
export const codeLifetimeMs: Record<CodePurpose, number> = {
  email_verification: 24 * 60 * minute,
  password_reset: 60 * minute,
  magic_link: 10 * minute,
  team_invitation: 7 * 24 * 60 * minute,
  // The service's state at the provider, and its browser cookie: 10 minutes there, as the original backend gives.
  oauth_flow: 10 * minute,
  // The code handed to the app's callback page, which exchanges it at once.
  oauth_authorization_code: 2 * minute,
  // A WebAuthn ceremony's challenge: the browser's prompt, then the answer.
  passkey_registration: 5 * minute,
  passkey_authentication: 5 * minute,
  // A sign-in waiting for its second factor: the time to open an authenticator app (`mfa/mfa-attempts.ts`).
  mfa_attempt: 5 * minute,
};

/** Wrong guesses of a code's first part before the code stops working. */
export const maxCodeAttempts = 5;

/** Length of the part of a code a person types. */
export const otpLength = 6;

/**
 * A code in a request body: any 45 characters (SCHEMA_ERROR otherwise, as the
 * original backend), lower-cased. Whether it is a code at all is `checkCode`'s
 * one question: characters no code has simply match no code, so an unknown
 * code of the right length answers VERIFICATION_CODE_NOT_FOUND whatever it holds.
 */
export const verificationCode = z
  .string()
  .length(45, { error: 'must be the 45-character code from the e-mail' })
  .transform((value) => value.toLowerCase())
  .meta({ description: 'The 45-character code from the e-mail link.' });

/** A new code and the parts a magic-link e-mail shows separately. */
export interface IssuedCode {
  id: string;
  /** The whole code, for links (`<callback>?code=<code>`). */
  code: string;
  /** The first six characters, upper-cased: what a person types. */
  otp: string;
  /** The other 39 characters, returned to a magic-link caller. */
  nonce: string;
  expiresAt: number;
}

/** What to issue. `data` is what the code acts on (user id, e-mail, team...). */
export interface IssueCodeOptions {
  projectId: string;
  purpose: CodePurpose;
  data: Record<string, JsonValue>;
  now: number;
  /** Default `codeLifetimeMs[purpose]`. */
  lifetimeMs?: number;
  /** The team of a team invitation (set to null when the team is deleted). */
  teamId?: string;
}

/** Issues and stores a code. Call it in the transaction that queues the mail carrying it. */
export async function issueCode(db: Db, options: IssueCodeOptions): Promise<IssuedCode> {
  const code = randomToken();
  const expiresAt = options.now + (options.lifetimeMs ?? codeLifetimeMs[options.purpose]);
  const row = await insertCode(db, {
    projectId: options.projectId,
    purpose: options.purpose,
    lookupHash: sha256Hex(code.slice(otpLength)),
    codeHash: sha256Hex(code),
    data: options.data,
    now: options.now,
    expiresAt,
    teamId: options.teamId ?? null,
  });
  return { id: row.id, code, otp: code.slice(0, otpLength).toUpperCase(), nonce: code.slice(otpLength), expiresAt };
}

/** Where to look a code up. */
export interface CodeLookup {
  projectId: string;
  purpose: CodePurpose;
  /** A code as `verificationCode` parsed it (45 characters, lower-cased). */
  code: string;
  now: number;
  /** Called (before the refusal) when the code exists but its typed part was wrong: to record the failure. */
  onWrongGuess?: (row: VerificationCodeRow) => Promise<void>;
  /** Counts a wrong guess and answers the attempts so far (default: `countFailedAttempt` on the database). */
  countWrongGuess?: (row: VerificationCodeRow) => Promise<number>;
}

/**
 * The stored code, if it may be used now; otherwise the known error:
 * VERIFICATION_CODE_NOT_FOUND, _MAX_ATTEMPTS_REACHED, _ALREADY_USED or
 * _EXPIRED. A wrong first part is counted, so call this with the database,
 * not inside a transaction that the error would roll back.
 */
export async function checkCode(db: Db, lookup: CodeLookup): Promise<VerificationCodeRow> {
  const row = await findCodeByLookup(db, lookup.projectId, lookup.purpose, sha256Hex(lookup.code.slice(otpLength)));
  if (!row) throw new KnownError('VERIFICATION_CODE_NOT_FOUND');
  if (row.attempts >= maxCodeAttempts) throw new KnownError('VERIFICATION_CODE_MAX_ATTEMPTS_REACHED');
  if (!constantTimeEqual(row.code_hash, sha256Hex(lookup.code))) {
    const attempts = await (lookup.countWrongGuess?.(row) ?? countFailedAttempt(db, row.id));
    await lookup.onWrongGuess?.(row);
    if (attempts >= maxCodeAttempts) throw new KnownError('VERIFICATION_CODE_MAX_ATTEMPTS_REACHED');
    throw new KnownError('VERIFICATION_CODE_NOT_FOUND');
  }
  if (row.used_at !== null) throw new KnownError('VERIFICATION_CODE_ALREADY_USED');
  if (row.expires_at.getTime() <= lookup.now) throw new KnownError('VERIFICATION_CODE_EXPIRED');
  return row;
}

/**
 * Uses a code `checkCode` returned, in the transaction that does what the
 * code allows: of two concurrent uses one wins, the other gets
 * VERIFICATION_CODE_ALREADY_USED.
 */
export async function useCode(db: Db, row: VerificationCodeRow, now: number): Promise<void> {
  if (!(await markCodeUsed(db, row.id, now))) throw new KnownError('VERIFICATION_CODE_ALREADY_USED');
}

/** The codes' known errors, for route declarations. */
export const codeErrors = [
  'VERIFICATION_CODE_NOT_FOUND',
  'VERIFICATION_CODE_EXPIRED',
  'VERIFICATION_CODE_ALREADY_USED',
  'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED',
] as const;

/** `{is_code_valid: true}`: the answer of every `/check-code` route. */
export const codeValidAnswer = z.object({ is_code_valid: z.literal(true) }).meta({ id: 'CodeValidAnswer' });
