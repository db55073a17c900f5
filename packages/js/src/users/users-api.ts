/** The `/users/me` and `/auth/sessions/current` calls of a signed-in client (spec §7). */
import { isKnownError, type Json } from '@latchkey/protocol';
import type { Send } from '../internal/core.js';
import type { Decoder } from '../internal/decode/fields.js';
import { definedFields } from '../internal/defined-fields.js';

/**
 * Fields a user may change about themselves.
 *
 * @example
 * ```ts
 * await user.update({ displayName: 'Alice', clientMetadata: { theme: 'dark' } });
 * ```
 */
export interface UserUpdate {
  displayName?: string | null;
  clientMetadata?: Json;
  profileImageUrl?: string | null;
  /** A team the user is a member of, or `null` for none (`user.setSelectedTeam` says it more plainly). */
  selectedTeamId?: string | null;
  /**
   * Turns TOTP on with these secret bytes (base64 on the wire, wire-protocol
   * §10), or off with `null`, without a code. `user.enableTotp()` and
   * `user.confirmTotp(code)` enrol with a proof instead.
   */
  totpMultiFactorSecret?: Uint8Array | null;
}

/** Answers whose body the SDK does not read (`{"success": true}` and the like). */
export const ignoreAnswer = (): void => {};

/** `GET /users/me`, decoded in the view the credentials of `send` get; `null` when no user is signed in. */
export function fetchCurrentUser<U>(send: Send, decode: Decoder<U>): Promise<U | null> {
  return signedInOnly(send({ method: 'GET', path: '/users/me' }, decode), null);
}

/** What `loading` resolves to, or `fallback` when the service says nobody is signed in. */
export async function signedInOnly<T, F>(loading: Promise<T>, fallback: F): Promise<T | F> {
  try {
    return await loading;
  } catch (error) {
    if (isKnownError(error, 'CANNOT_GET_OWN_USER_WITHOUT_USER')) return fallback;
    throw error;
  }
}

/** The wire body of an update: snake_case, fields left `undefined` omitted. */
export function userUpdateBody(update: UserUpdate): Record<string, unknown> {
  return definedFields({
    display_name: update.displayName,
    client_metadata: update.clientMetadata,
    profile_image_url: update.profileImageUrl,
    selected_team_id: update.selectedTeamId,
    totp_secret_base64: update.totpMultiFactorSecret && btoa(String.fromCharCode(...update.totpMultiFactorSecret)),
  });
}

/** `PATCH /users/me`; the caller re-reads the user (as the 2.7 SDK does). */
export function updateCurrentUser(send: Send, update: UserUpdate): Promise<void> {
  return send({ method: 'PATCH', path: '/users/me', body: userUpdateBody(update) }, ignoreAnswer);
}

/** `DELETE /users/me`, sent without a body. */
export function deleteCurrentUser(send: Send): Promise<void> {
  return send({ method: 'DELETE', path: '/users/me' }, ignoreAnswer);
}

/** `DELETE /auth/sessions/current` with body `{}`: revokes the refresh token sent with it. */
export function deleteCurrentSession(send: Send): Promise<void> {
  return send({ method: 'DELETE', path: '/auth/sessions/current', body: {} }, ignoreAnswer);
}

/** `POST /auth/password/update`: a wrong old password is `PASSWORD_CONFIRMATION_MISMATCH`; other sessions end. */
export function updatePassword(send: Send, oldPassword: string, newPassword: string): Promise<void> {
  return send(
    { method: 'POST', path: '/auth/password/update', body: { old_password: oldPassword, new_password: newPassword } },
    ignoreAnswer,
  );
}

/** `POST /auth/password/set`: for a user who has no password yet. */
export function setPassword(send: Send, password: string): Promise<void> {
  return send({ method: 'POST', path: '/auth/password/set', body: { password } }, ignoreAnswer);
}
