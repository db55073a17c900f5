/** The `/users/me` and `/auth/sessions/current` calls of a signed-in client (spec §7). */
import { type ClientUserWire, isKnownError, type Json } from '@latchkey/protocol';
import type { Send } from '../internal/http/request.js';

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
}

/** `GET /users/me`; `null` when no user is signed in. */
export async function fetchCurrentUser(send: Send): Promise<ClientUserWire | null> {
  try {
    return (await send({ method: 'GET', path: '/users/me' })) as ClientUserWire;
  } catch (error) {
    if (isKnownError(error, 'CANNOT_GET_OWN_USER_WITHOUT_USER')) return null;
    throw error;
  }
}

/** The wire body of an update: snake_case, fields left `undefined` omitted. */
export function userUpdateBody(update: UserUpdate): Record<string, unknown> {
  const body: Record<string, unknown> = {
    display_name: update.displayName,
    client_metadata: update.clientMetadata,
    profile_image_url: update.profileImageUrl,
  };
  return Object.fromEntries(Object.entries(body).filter(([, value]) => value !== undefined));
}

/** `PATCH /users/me`. */
export async function updateCurrentUser(send: Send, update: UserUpdate): Promise<void> {
  await send({ method: 'PATCH', path: '/users/me', body: userUpdateBody(update) });
}

/** `DELETE /users/me`, sent without a body. */
export async function deleteCurrentUser(send: Send): Promise<void> {
  await send({ method: 'DELETE', path: '/users/me' });
}

/** `DELETE /auth/sessions/current` with body `{}`: revokes the refresh token sent with it. */
export async function deleteCurrentSession(send: Send): Promise<void> {
  await send({ method: 'DELETE', path: '/auth/sessions/current', body: {} });
}
