/**
 * Passkeys in `ClientApp` (wire-protocol §11): the module that signs in with
 * one, and the passkeys slice of `CurrentUser` (register, list; each passkey
 * renames and removes itself), also as a query, `passkeysQuery`. The WebAuthn
 * ceremony runs `@simplewebauthn/browser`, loaded with the rest of the code
 * on the first call (`deferred.ts`). A ceremony the browser refuses is thrown
 * as `PASSKEY_WEBAUTHN_ERROR` with `details: { message, code }`, `code` the
 * library's (`ERROR_CEREMONY_ABORTED`, `ERROR_INVALID_RP_ID`, ...; wording in
 * `webAuthnErrorMessages` of `@latchkey/protocol`).
 */
import { accountQuery, type ClientQuery } from '../users/account-data.js';
import type { SignInResult } from './client-sign-in.js';

/**
 * Options of `signInWithPasskey`.
 *
 * @example
 * ```ts
 * const controller = new AbortController();
 * void app.signInWithPasskey({ autofill: true, signal: controller.signal } satisfies PasskeySignInOptions);
 * ```
 */
export interface PasskeySignInOptions {
  /**
   * Conditional mediation: the browser offers the passkeys in the autofill of
   * the page's `<input autocomplete="username webauthn">` and the promise
   * waits until one is picked. A browser without it ends quietly (`null`).
   */
  autofill?: boolean;
  /** Ends the ceremony quietly (`null`): e.g. when the page with the autofill goes away. */
  signal?: AbortSignal;
  /** Stay on the page instead of going to the after-sign-in page. */
  noRedirect?: boolean;
}

/**
 * Sign-in with a passkey.
 *
 * @example
 * ```ts
 * try {
 *   await app.signInWithPasskey();
 * } catch (error) {
 *   if (isKnownError(error, 'PASSKEY_WEBAUTHN_ERROR')) showError(error.details.code);
 *   else if (isKnownError(error, 'MULTI_FACTOR_AUTHENTICATION_REQUIRED')) askForCode(error.details.attempt_code);
 *   else throw error;
 * }
 * ```
 */
export interface PasskeySignIn {
  /**
   * Signs in with one of the site's passkeys (browser only): the service's
   * challenge, the browser's passkey prompt (or, with `autofill`, its
   * autofill), then the session is stored and the page goes where a sign-in
   * goes. `null` when `signal` ended it, or when an autofill ceremony was
   * replaced by another or the browser has no autofill for passkeys. The
   * browser's refusals (prompt closed, no passkey) are `PASSKEY_WEBAUTHN_ERROR`;
   * the service's are `PASSKEY_AUTHENTICATION_FAILED` (with `details.message`),
   * `PASSKEY_AUTHENTICATION_NOT_ENABLED`, and for a user with TOTP
   * `MULTI_FACTOR_AUTHENTICATION_REQUIRED` (`signInWithMfa` finishes it).
   */
  signInWithPasskey(options?: PasskeySignInOptions): Promise<SignInResult | null>;
}

/**
 * A passkey of the signed-in user, as the service lists it (never the key).
 *
 * @example
 * ```ts
 * const unused = (await user.listPasskeys()).filter((passkey: PasskeyData) => passkey.lastUsedAt === null);
 * ```
 */
export interface PasskeyData {
  id: string;
  /** The name the user gave it (`Passkey`, `Passkey 2`, ... when none was given). */
  name: string;
  createdAt: Date;
  /** The last sign-in with it; `null` when never used. */
  lastUsedAt: Date | null;
}

/**
 * A passkey of the signed-in user, with what the user may do to it.
 *
 * @example
 * ```ts
 * const [passkey] = await user.listPasskeys();
 * await passkey.rename('Work laptop');
 * await passkey.delete();
 * ```
 */
export interface Passkey extends PasskeyData {
  /** Renames it (1 to 64 characters); then re-reads the user's passkeys. */
  rename(name: string): Promise<void>;
  /**
   * Removes it; then re-reads the user's passkeys and the user (without
   * passkeys left, `passkeyAuthEnabled` turns off). `PASSKEY_NOT_FOUND` when it is gone already.
   */
  delete(): Promise<void>;
}

/**
 * The passkeys slice of `CurrentUser`.
 *
 * @example
 * ```ts
 * await user.registerPasskey({ name: 'Work laptop' });
 * const passkeys = await user.listPasskeys();
 * ```
 */
export interface PasskeyActions {
  /**
   * Creates a passkey for this site with the browser's prompt and registers
   * it (browser only); then re-reads the user's passkeys and the user (their
   * first passkey turns `passkeyAuthEnabled` on). The browser's refusals are
   * `PASSKEY_WEBAUTHN_ERROR` (`ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED`: this
   * authenticator holds one of the user's passkeys already), the service's
   * `PASSKEY_REGISTRATION_FAILED` with `details.message`.
   */
  registerPasskey(options?: { name?: string }): Promise<void>;
  /** The user's passkeys, oldest first (also app data: `app.load(passkeysQuery)`). */
  listPasskeys(): Promise<Passkey[]>;
}

/**
 * The signed-in user's passkeys, oldest first (`[]` when signed out), as a
 * query of `ClientApp`; registering, renaming and removing re-read it.
 *
 * @example
 * ```ts
 * const stop = app.subscribe(passkeysQuery, () => render(app.getSnapshot(passkeysQuery)));
 * ```
 */
export const passkeysQuery: ClientQuery<Passkey[]> = /* @__PURE__ */ accountQuery(
  ['passkeys'],
  // The same chunk `deferred.ts` loads for the methods; imported here so this module needs nothing of that one.
  async (scope) => (await import('./account-security.js')).listPasskeys(scope),
  [],
);
