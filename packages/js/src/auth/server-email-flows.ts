/**
 * The e-mail flows server code starts for a user who is not at the keyboard
 * (support tools, your own sign-in pages): a password-reset mail and a
 * magic-link mail. Server code has no page to default to, so the callback is
 * required. `ServerApp` and `AdminApp` mount it.
 */
import { requiredCallback } from '../contact-channels/server-contact-channel.js';
import type { AudienceScope } from '../internal/audience.js';
import { sendMagicLinkCode, sendPasswordResetCode } from './email-codes.js';

/**
 * The e-mails server code sends for a user.
 *
 * @example
 * ```ts
 * await serverApp.sendForgotPasswordEmail('ada@example.com', { callbackUrl: 'https://app.example.com/handler/password-reset' });
 * ```
 */
export interface ServerEmailFlows {
  /** Mails a password-reset link to `callbackUrl?code=...`; the same answer whether or not the address has an account. */
  sendForgotPasswordEmail(email: string, options: { callbackUrl: string }): Promise<void>;
  /** Mails a sign-in link and code; answers the nonce the typed code completes. */
  sendMagicLinkEmail(email: string, options: { callbackUrl: string }): Promise<{ nonce: string }>;
}

/** Mounts the e-mail flows on a server-side audience. */
export function serverEmailFlows(scope: AudienceScope): ServerEmailFlows {
  const { send } = scope;
  return {
    sendForgotPasswordEmail: async (email, options) =>
      sendPasswordResetCode(send, email, requiredCallback(options, `${scope.audience}.sendForgotPasswordEmail`)),
    sendMagicLinkEmail: async (email, options) =>
      sendMagicLinkCode(send, email, requiredCallback(options, `${scope.audience}.sendMagicLinkEmail`)),
  };
}
