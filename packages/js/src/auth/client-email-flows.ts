/**
 * The e-mail flows of `ClientApp` (spec §7): password reset, e-mail
 * verification and magic-link sign-in. Their code (`email-flows.ts`) loads on
 * the first call: only the handler pages use them.
 */
import type { ClientScope } from '../users/account-data.js';
import type { SignInResult } from './client-sign-in.js';
import { deferred } from './deferred.js';

export interface ClientEmailFlows {
  /**
   * Mails a password-reset link to `email`. The service answers the same
   * whether or not the address has an account, so nothing here tells.
   * `callbackUrl` (your password-reset page, on a trusted domain) defaults to
   * `<origin><handler>/password-reset` in browsers; elsewhere pass it.
   *
   * @example
   * ```ts
   * await app.sendForgotPasswordEmail('ada@example.com');
   * ```
   */
  sendForgotPasswordEmail(email: string, options?: { callbackUrl?: string }): Promise<void>;
  /**
   * Checks a password-reset code without using it; a code that would not
   * reset is thrown as its `VERIFICATION_CODE_*` error.
   *
   * @example
   * ```ts
   * await app.verifyPasswordResetCode(new URL(location.href).searchParams.get('code') ?? '');
   * ```
   */
  verifyPasswordResetCode(code: string): Promise<void>;
  /**
   * Sets a new password with the code of a reset link. Every session of the
   * user ends, this app's too; sign in with the new password afterwards.
   *
   * @example
   * ```ts
   * await app.resetPassword({ code, password: 'new-correct-horse-2' });
   * ```
   */
  resetPassword(options: { code: string; password: string }): Promise<void>;
  /**
   * Verifies the address a verification link was sent to, with the link's
   * code; then re-reads the signed-in user, if any.
   *
   * @example
   * ```ts
   * await app.verifyEmail(new URL(location.href).searchParams.get('code') ?? '');
   * ```
   */
  verifyEmail(code: string): Promise<void>;
  /**
   * Mails a sign-in link and a six-character code to `email` (magic link must
   * be enabled for the project). Keep the answer's `nonce`: the typed code
   * plus the nonce is the code `signInWithMagicLink` takes. `callbackUrl`
   * defaults to `<origin><handler>/magic-link-callback` in browsers, carrying
   * the page's `after_auth_return_to` so the link ends where a typed code would.
   *
   * @example
   * ```ts
   * const { nonce } = await app.sendMagicLinkEmail('ada@example.com');
   * await app.signInWithMagicLink(typedCode + nonce);
   * ```
   */
  sendMagicLinkEmail(email: string, options?: { callbackUrl?: string }): Promise<{ nonce: string }>;
  /**
   * Signs in with a magic-link code: the link's `code`, or the six typed
   * characters followed by the nonce (any case). An address without an account
   * signs up (when the project allows it) and goes to the after-sign-up page.
   *
   * @example
   * ```ts
   * const { newUser } = await app.signInWithMagicLink(code, { noRedirect: true });
   * ```
   */
  signInWithMagicLink(code: string, options?: { noRedirect?: boolean }): Promise<SignInResult>;
}

/** The e-mail flows module of `ClientApp`. */
export const clientEmailFlows = (scope: ClientScope): ClientEmailFlows =>
  deferred<ClientEmailFlows>(
    scope,
    () => import('./email-flows.js'),
    'sendForgotPasswordEmail verifyPasswordResetCode resetPassword verifyEmail sendMagicLinkEmail signInWithMagicLink',
  );
