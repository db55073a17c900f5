/** Password sign-up and sign-in (spec §7, wire-protocol.md §5.4, §14.1). */
import type { SignInResponseWire } from '@latchkey/protocol';
import type { Send } from '../internal/core.js';
import { readFields } from '../internal/decode/fields.js';

/** The session a sign-in starts. */
export interface SignInTokens {
  accessToken: string;
  refreshToken: string;
  userId: string;
  /** `is_new_user` where the answer carries it. */
  newUser: boolean;
}

export interface SignUpRequest {
  email: string;
  password: string;
  /** Absolute URL of the e-mail verification page; omitted when unknown. */
  verificationCallbackUrl?: string;
}

/** `POST /auth/password/sign-up`. */
export function signUpWithPassword(send: Send, request: SignUpRequest): Promise<SignInTokens> {
  const body: Record<string, string> = { email: request.email, password: request.password };
  if (request.verificationCallbackUrl !== undefined) body.verification_callback_url = request.verificationCallbackUrl;
  return send({ method: 'POST', path: '/auth/password/sign-up', body }, decodeSignIn);
}

/** `POST /auth/password/sign-in`. */
export function signInWithPassword(send: Send, email: string, password: string): Promise<SignInTokens> {
  return send({ method: 'POST', path: '/auth/password/sign-in', body: { email, password } }, decodeSignIn);
}

/** Decodes the answer of a sign-in (`{access_token, refresh_token, user_id, is_new_user?}`). */
export function decodeSignIn(body: unknown): SignInTokens {
  return readFields<SignInResponseWire, SignInTokens>(body, (answer) => ({
    accessToken: answer.nonEmptyString('access_token'),
    refreshToken: answer.nonEmptyString('refresh_token'),
    userId: answer.nonEmptyString('user_id'),
    newUser: answer.optionalBoolean('is_new_user') ?? false,
  }));
}
