/** Password sign-up and sign-in (spec §7, wire-protocol.md §5.4, §14.1). */
import type { SignInResponseWire } from '@latchkey/protocol';
import type { Send } from '../internal/core.js';
import { readFields } from '../internal/decode/fields.js';

/** The session a sign-in starts. */
export interface SignInTokens {
  accessToken: string;
  /** `null` in the refresh-token cookie mode: the service set it as its HttpOnly cookie. */
  refreshToken: string | null;
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

/** `POST /auth/password/sign-up`; `serviceCookie`: the refresh-token cookie mode (`decodeSignIn`). */
export function signUpWithPassword(send: Send, request: SignUpRequest, serviceCookie = false): Promise<SignInTokens> {
  const body: Record<string, string> = { email: request.email, password: request.password };
  if (request.verificationCallbackUrl !== undefined) body.verification_callback_url = request.verificationCallbackUrl;
  return send({ method: 'POST', path: '/auth/password/sign-up', body }, (answer) =>
    decodeSignIn(answer, serviceCookie),
  );
}

/** `POST /auth/password/sign-in`; `serviceCookie`: the refresh-token cookie mode (`decodeSignIn`). */
export function signInWithPassword(
  send: Send,
  email: string,
  password: string,
  serviceCookie = false,
): Promise<SignInTokens> {
  const request = { method: 'POST', path: '/auth/password/sign-in', body: { email, password } } as const;
  return send(request, (answer) => decodeSignIn(answer, serviceCookie));
}

/** Why an answer in the refresh-token cookie mode must not carry `refresh_token`. */
export const refreshTokenInBody = 'absent: the service runs without refreshTokenCookie';

/**
 * Decodes the answer of a sign-in (`{access_token, refresh_token, user_id,
 * is_new_user?}`). In the refresh-token cookie mode (`serviceCookie`) the
 * service sets `refresh_token` as its cookie instead, and one in the body
 * means the service does not run that mode.
 */
export function decodeSignIn(body: unknown, serviceCookie = false): SignInTokens {
  return readFields<SignInResponseWire, SignInTokens>(body, (answer) => ({
    accessToken: answer.nonEmptyString('access_token'),
    refreshToken: serviceCookie
      ? (answer.value<string | undefined>('refresh_token', () => false, refreshTokenInBody, true) ?? null)
      : answer.nonEmptyString('refresh_token'),
    userId: answer.nonEmptyString('user_id'),
    newUser: answer.optionalBoolean('is_new_user') ?? false,
  }));
}
