/**
 * The second factor in `ClientApp` (wire-protocol §10): a sign-in of a user
 * with TOTP (password, magic link, OAuth callback, passkey) throws
 * `MULTI_FACTOR_AUTHENTICATION_REQUIRED` with an attempt code, which
 * `signInWithMfa` finishes with a TOTP or recovery code. A project that
 * requires TOTP throws `MULTI_FACTOR_AUTHENTICATION_SETUP_REQUIRED` for a
 * user without one, and `startMfaSetup` / `confirmMfaSetup` enrol them and
 * sign them in. The mfa slice of `CurrentUser` enrols, turns off and renews
 * the recovery codes. The code loads on the first call (`deferred.ts`).
 */
import { isKnownError } from '@latchkey/protocol';
import type { SignInResult } from './client-sign-in.js';
import { flowReturnTo } from './oauth.js';

/**
 * The second factor a user proves: a 6-digit code of their authenticator
 * app, or one of their recovery codes (each works once).
 *
 * @example
 * ```ts
 * const proof: MfaProof = useRecovery ? { recoveryCode } : { totp: '123456' };
 * ```
 */
export type MfaProof = { totp: string; recoveryCode?: undefined } | { recoveryCode: string; totp?: undefined };

/**
 * The attempt code of a sign-in that asked for the second factor, and the proof.
 *
 * @example
 * ```ts
 * await app.signInWithMfa({ attemptCode, totp: '123456' } satisfies MfaSignInOptions);
 * ```
 */
export type MfaSignInOptions = MfaProof & { attemptCode: string };

/**
 * A new TOTP secret, not active until a code of it is confirmed.
 *
 * @example
 * ```ts
 * const { secret, otpauthUri }: TotpEnrolment = await user.enableTotp();
 * showQrCode(otpauthUri); // or let the user type `secret` into the app
 * ```
 */
export interface TotpEnrolment {
  /** The secret in base32, for typing into an authenticator app. */
  secret: string;
  /** `otpauth://totp/...`, for a QR code. */
  otpauthUri: string;
}

/**
 * Where a sign-in that asked for the second factor stands: its attempt code
 * (valid five minutes), and whether the user must first set up TOTP (the
 * project requires it: `startMfaSetup`) or enter a code (`signInWithMfa`).
 *
 * @example
 * ```ts
 * const attempt: MultiFactorAttempt | null = multiFactorAttempt(error);
 * ```
 */
export interface MultiFactorAttempt {
  attemptCode: string;
  setupRequired: boolean;
  /**
   * Where the first factor would have ended when it knew better than the
   * page: the `returnTo` of an OAuth sign-in whose callback asked for the
   * code. Pass it to `signInWithMfa` / `confirmMfaSetup`. Absent: the page's
   * `after_auth_return_to` (their default).
   */
  returnTo?: string;
}

/**
 * The attempt of `error` when it is `MULTI_FACTOR_AUTHENTICATION_REQUIRED` or
 * `MULTI_FACTOR_AUTHENTICATION_SETUP_REQUIRED`, else `null`.
 *
 * @example
 * ```ts
 * try {
 *   await app.signInWithCredential({ email, password });
 * } catch (error) {
 *   const attempt = multiFactorAttempt(error);
 *   if (!attempt) throw error;
 *   showCodeStep(attempt.attemptCode, attempt.setupRequired);
 * }
 * ```
 */
export function multiFactorAttempt(error: unknown): MultiFactorAttempt | null {
  let attempt: MultiFactorAttempt;
  if (isKnownError(error, 'MULTI_FACTOR_AUTHENTICATION_REQUIRED')) {
    attempt = { attemptCode: error.details.attempt_code, setupRequired: false };
  } else if (isKnownError(error, 'MULTI_FACTOR_AUTHENTICATION_SETUP_REQUIRED')) {
    attempt = { attemptCode: error.details.attempt_code, setupRequired: true };
  } else {
    return null;
  }
  const returnTo = flowReturnTo.get(error as object);
  return returnTo === undefined ? attempt : { ...attempt, returnTo };
}

/**
 * Where a finished second step goes: nowhere with `noRedirect`; else to
 * `returnTo` when it is on this origin (`MultiFactorAttempt.returnTo`; by
 * default the page's `after_auth_return_to`), else to the after-sign-up (new
 * user) or after-sign-in page.
 *
 * @example
 * ```ts
 * await app.signInWithMfa({ attemptCode, totp }, { returnTo: attempt.returnTo } satisfies MfaRedirect);
 * ```
 */
export interface MfaRedirect {
  noRedirect?: boolean;
  returnTo?: string | undefined;
}

/**
 * Finishing a sign-in with the second factor.
 *
 * @example
 * ```ts
 * await app.signInWithMfa({ attemptCode, totp: '123456' });
 * // under the project's TOTP requirement:
 * const { otpauthUri } = await app.startMfaSetup(attemptCode);
 * const { recoveryCodes, redirect } = await app.confirmMfaSetup(attemptCode, '123456', { noRedirect: true });
 * showOnce(recoveryCodes, { onContinue: redirect });
 * ```
 */
export interface MfaSignIn {
  /**
   * Finishes the sign-in of `attemptCode` with a TOTP code or a recovery
   * code: stores the session, then goes where a sign-in goes (`MfaRedirect`:
   * pass the attempt's `returnTo`) unless `noRedirect`. A wrong code is `INVALID_TOTP_CODE` (the attempt code takes
   * five); an expired or used-up attempt code `VERIFICATION_CODE_EXPIRED`,
   * `..._ALREADY_USED`, `..._MAX_ATTEMPTS_REACHED` or `..._NOT_FOUND`: sign in again.
   */
  signInWithMfa(options: MfaSignInOptions, redirect?: MfaRedirect): Promise<SignInResult>;
  /**
   * A new TOTP secret for the user whose sign-in answered
   * `MULTI_FACTOR_AUTHENTICATION_SETUP_REQUIRED`, to show as a QR code.
   */
  startMfaSetup(attemptCode: string): Promise<TotpEnrolment>;
  /**
   * A code of the secret of `startMfaSetup` turns TOTP on and finishes the
   * sign-in; answers the ten recovery codes, shown this once (pass
   * `noRedirect` to show them, then call the answer's `redirect`, which goes
   * where the sign-in would have gone, `MfaRedirect`). A wrong code is
   * `INVALID_TOTP_CODE`.
   */
  confirmMfaSetup(
    attemptCode: string,
    totp: string,
    redirect?: MfaRedirect,
  ): Promise<SignInResult & { recoveryCodes: string[]; redirect(): Promise<void> }>;
}

/**
 * The mfa slice of `CurrentUser` (TOTP with an authenticator app;
 * `isMultiFactorRequired` says whether it is on).
 *
 * @example
 * ```ts
 * const { otpauthUri } = await user.enableTotp();
 * const { recoveryCodes } = await user.confirmTotp('123456');
 * await user.disableTotp({ recoveryCode: recoveryCodes[0] });
 * ```
 */
export interface MfaActions {
  /**
   * A new secret, pending until `confirmTotp` proves it (an active one stays
   * active until then; a second call replaces the pending one).
   */
  enableTotp(): Promise<TotpEnrolment>;
  /**
   * A code of the pending secret turns TOTP on (or replaces the active
   * secret); answers ten new recovery codes, shown this once, and re-reads
   * the user. A wrong code is `INVALID_TOTP_CODE`.
   */
  confirmTotp(totp: string): Promise<{ recoveryCodes: string[] }>;
  /** Turns TOTP off with a current code or a recovery code (`INVALID_TOTP_CODE` when wrong); re-reads the user. */
  disableTotp(proof: MfaProof): Promise<void>;
  /** Ten new recovery codes replace all of the user's, after a current TOTP code. */
  regenerateRecoveryCodes(totp: string): Promise<string[]>;
}
