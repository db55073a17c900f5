/**
 * The e-mail flows that need no signed-in user (spec §7; wire-protocol.md
 * §12, §14.1, §14.6): password reset, e-mail verification and magic-link
 * sign-in. Each is a send plus a pure decoder; `ClientApp` and the
 * server-side audiences share them.
 */
import type { OtpSendResponseWire } from '@latchkey/protocol';
import type { Send } from '../internal/core.js';
import { readFields } from '../internal/decode/fields.js';
import { ignoreAnswer } from '../users/users-api.js';
import { decodeSignIn, type SendSignIn, type SignInTokens } from './password.js';

/** `POST /auth/password/send-reset-code`: the same answer whether or not the address has an account. */
export function sendPasswordResetCode(send: Send, email: string, callbackUrl: string): Promise<void> {
  return send(
    { method: 'POST', path: '/auth/password/send-reset-code', body: { email, callback_url: callbackUrl } },
    ignoreAnswer,
  );
}

/** `POST /auth/password/reset/check-code`: throws the code's known error when it would not reset. */
export function checkPasswordResetCode(send: Send, code: string): Promise<void> {
  return send({ method: 'POST', path: '/auth/password/reset/check-code', body: { code: trimmed(code) } }, ignoreAnswer);
}

/** `POST /auth/password/reset`: uses the code and sets the password (every session of the user ends). */
export function resetPasswordWithCode(send: Send, code: string, password: string): Promise<void> {
  return send({ method: 'POST', path: '/auth/password/reset', body: { code: trimmed(code), password } }, ignoreAnswer);
}

/** `POST /contact-channels/verify`: marks the address the code was sent to as verified. */
export function verifyEmailCode(send: Send, code: string): Promise<void> {
  return send({ method: 'POST', path: '/contact-channels/verify', body: { code: trimmed(code) } }, ignoreAnswer);
}

/** `POST /auth/otp/send-sign-in-code`: mails a link and a six-character code; answers the code's nonce. */
export function sendMagicLinkCode(send: Send, email: string, callbackUrl: string): Promise<{ nonce: string }> {
  return send(
    { method: 'POST', path: '/auth/otp/send-sign-in-code', body: { email, callback_url: callbackUrl } },
    decodeMagicLinkSent,
  );
}

/** `POST /auth/otp/sign-in` with the 45-character code (the link's, or the typed code + the nonce; any case). */
export function signInWithMagicLinkCode(send: SendSignIn, code: string): Promise<SignInTokens> {
  return send({ method: 'POST', path: '/auth/otp/sign-in', body: { code: trimmed(code) } }, decodeSignIn);
}

/** Decodes the answer of `POST /auth/otp/send-sign-in-code` (`{nonce}`). */
export function decodeMagicLinkSent(body: unknown): { nonce: string } {
  return readFields<OtpSendResponseWire, { nonce: string }>(body, (answer) => ({
    nonce: answer.nonEmptyString('nonce'),
  }));
}

/** Pasted codes often carry spaces or a line break; the service refuses anything but the 45 characters. */
export function trimmed(code: string): string {
  return code.trim();
}
