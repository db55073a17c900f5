/** Password sign-up and sign-in (spec §7, wire-protocol.md §5.4, §14.1). */
import type { SignInResponseWire } from '@latchkey/protocol';
import { HttpError } from '../errors.js';
import type { Send } from '../internal/http/request.js';

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
export async function signUpWithPassword(send: Send, request: SignUpRequest): Promise<SignInTokens> {
  const body: Record<string, string> = { email: request.email, password: request.password };
  if (request.verificationCallbackUrl !== undefined) body.verification_callback_url = request.verificationCallbackUrl;
  return readSignInResponse(await send({ method: 'POST', path: '/auth/password/sign-up', body }));
}

/** `POST /auth/password/sign-in`. */
export async function signInWithPassword(send: Send, email: string, password: string): Promise<SignInTokens> {
  return readSignInResponse(await send({ method: 'POST', path: '/auth/password/sign-in', body: { email, password } }));
}

/** The tokens of a sign-in answer; an answer without them is a protocol failure. */
export function readSignInResponse(body: unknown): SignInTokens {
  const wire = (body ?? {}) as Partial<SignInResponseWire>;
  if (typeof wire.access_token !== 'string' || typeof wire.refresh_token !== 'string') {
    throw new HttpError('/auth/password', 200, JSON.stringify(body), 'The sign-in answer carries no tokens.');
  }
  return {
    accessToken: wire.access_token,
    refreshToken: wire.refresh_token,
    userId: String(wire.user_id ?? ''),
    newUser: wire.is_new_user ?? false,
  };
}
