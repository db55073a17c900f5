/** Password sign-up and sign-in (spec §7, wire-protocol.md §5.4, §14.1). */
import type { SignInResponseWire } from '@latchkey/protocol';
import { type Fields, readFields } from '../internal/decode/fields.js';
import type { ApiRequest } from '../internal/http/request.js';

/** The session a sign-in starts. */
export interface SignInTokens {
  accessToken: string;
  /** `null` in the refresh-token cookie mode: the service set it as its HttpOnly cookie. */
  refreshToken: string | null;
  userId: string;
  /** `is_new_user` where the answer carries it. */
  newUser: boolean;
}

/** A pure decoder of a sign-in answer, given the mode of the session it starts (`decodeSignIn`). */
type SignInDecoder<T> = (body: unknown, serviceCookie: boolean) => T;

/**
 * Sends a sign-in with the app's credentials and decodes its answer in the
 * mode of the session it will start: the session is asked, not the caller.
 */
export type SendSignIn = <T>(request: ApiRequest, decode: SignInDecoder<T>) => Promise<T>;

export interface SignUpRequest {
  email: string;
  password: string;
  /** Absolute URL of the e-mail verification page; omitted when unknown. */
  verificationCallbackUrl?: string;
}

/** `POST /auth/password/sign-up`. */
export function signUpWithPassword(send: SendSignIn, request: SignUpRequest): Promise<SignInTokens> {
  const body: Record<string, string> = { email: request.email, password: request.password };
  if (request.verificationCallbackUrl !== undefined) body.verification_callback_url = request.verificationCallbackUrl;
  return send({ method: 'POST', path: '/auth/password/sign-up', body }, decodeSignIn);
}

/** `POST /auth/password/sign-in`. */
export function signInWithPassword(send: SendSignIn, email: string, password: string): Promise<SignInTokens> {
  return send({ method: 'POST', path: '/auth/password/sign-in', body: { email, password } }, decodeSignIn);
}

/** Why an answer in the refresh-token cookie mode must not carry `refresh_token`. */
const refreshTokenInBody = 'absent: the service runs without refreshTokenCookie';

/**
 * Decodes the answer of a sign-in (`{access_token, refresh_token, user_id,
 * is_new_user?}`). In the refresh-token cookie mode (`serviceCookie`) the
 * service sets `refresh_token` as its cookie instead, and one in the body
 * means the service does not run that mode.
 */
export function decodeSignIn(body: unknown, serviceCookie = false): SignInTokens {
  return readFields<SignInResponseWire, SignInTokens>(body, (answer) => readSignIn(answer, serviceCookie));
}

/** Reads the session of a sign-in answer, or of an answer that extends it (the OAuth code exchange). */
export function readSignIn(answer: Fields<SignInResponseWire>, serviceCookie: boolean): SignInTokens {
  return {
    accessToken: answer.nonEmptyString('access_token'),
    refreshToken: serviceCookie
      ? (answer.value<string | undefined>('refresh_token', () => false, refreshTokenInBody, true) ?? null)
      : answer.nonEmptyString('refresh_token'),
    userId: answer.nonEmptyString('user_id'),
    newUser: answer.optionalBoolean('is_new_user') ?? false,
  };
}
