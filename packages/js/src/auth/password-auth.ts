/**
 * Passwords in `ClientApp`: the module that signs up and in with e-mail and
 * password, and the password slice of `CurrentUser` (change it, or set a
 * first one).
 */
import { absolutePageUrl } from '../internal/callback-url.js';
import type { ClientScope } from '../users/account-data.js';
import { setPassword, updatePassword } from '../users/users-api.js';
import { completeSignIn, type SignInResult } from './client-sign-in.js';
import { signInWithPassword, signUpWithPassword } from './password.js';

/**
 * E-mail and password for `signInWithCredential`.
 *
 * @example
 * ```ts
 * await app.signInWithCredential({ email: 'a@example.com', password: 'correct-horse-1', noRedirect: true });
 * ```
 */
export interface CredentialSignInOptions {
  email: string;
  password: string;
  /** Stay on the page instead of going to the after-sign-in page. */
  noRedirect?: boolean;
}

/**
 * E-mail and password for `signUpWithCredential`, and where verification links point.
 *
 * @example
 * ```ts
 * await app.signUpWithCredential({ email, password, verificationCallbackUrl: 'https://app.example.com/verify' });
 * ```
 */
export interface CredentialSignUpOptions extends CredentialSignInOptions {
  /**
   * Absolute URL of your e-mail verification page; defaults to `<origin><handler>/email-verification` in
   * browsers. `null` sends no verification mail (the address is proven another way, e.g. by the invitation
   * the person signs up from).
   */
  verificationCallbackUrl?: string | null;
}

/**
 * Sign-up and sign-in with e-mail and password.
 *
 * @example
 * ```ts
 * const { newUser } = await app.signUpWithCredential({ email, password, noRedirect: true });
 * ```
 */
export interface CredentialAuth {
  /** Creates an account with e-mail and password and signs it in. Refusals are thrown as `KnownError`s. */
  signUpWithCredential(options: CredentialSignUpOptions): Promise<SignInResult>;
  /** Signs in with e-mail and password. A wrong password is thrown as `EMAIL_PASSWORD_MISMATCH`. */
  signInWithCredential(options: CredentialSignInOptions): Promise<SignInResult>;
}

/** The credential module of `ClientApp`. */
export function credentialAuth(scope: ClientScope): CredentialAuth {
  return {
    async signUpWithCredential(options) {
      const verificationCallbackUrl =
        options.verificationCallbackUrl === null
          ? undefined
          : (options.verificationCallbackUrl ?? absolutePageUrl(scope.core.urls.emailVerification));
      const request = { email: options.email, password: options.password, verificationCallbackUrl };
      const tokens = await signUpWithPassword(scope.sendSignIn, request);
      return completeSignIn(scope, { ...tokens, newUser: true }, options.noRedirect);
    },
    async signInWithCredential(options) {
      const tokens = await signInWithPassword(scope.sendSignIn, options.email, options.password);
      return completeSignIn(scope, tokens, options.noRedirect);
    },
  };
}

/**
 * The password slice of `CurrentUser`.
 *
 * @example
 * ```ts
 * await user.updatePassword({ oldPassword: 'correct-horse-1', newPassword: 'correct-horse-2' });
 * ```
 */
export interface PasswordActions {
  /**
   * Changes the password; a wrong `oldPassword` is thrown as
   * `PASSWORD_CONFIRMATION_MISMATCH`. The user's other sessions end; this one stays.
   */
  updatePassword(options: { oldPassword: string; newPassword: string }): Promise<void>;
  /** Gives a password to a user who has none (`hasPassword` false), then re-reads the user. */
  setPassword(options: { password: string }): Promise<void>;
}

/** The password slice of the signed-in user of `scope`. */
export function passwordActions({ send, reloadUser }: ClientScope): PasswordActions {
  return {
    async updatePassword(options) {
      await updatePassword(send, options.oldPassword, options.newPassword);
    },
    async setPassword(options) {
      await setPassword(send, options.password);
      await reloadUser();
    },
  };
}
