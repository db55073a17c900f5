/**
 * The signed-in user: `GET`, `PATCH` and `DELETE /users/me` (wire-protocol
 * §14.2). Client access sees and edits the client view; server and admin
 * access see the server view and may also write the read-only and server
 * metadata. A client may delete its user only when the project enables
 * `client_user_deletion_enabled`; otherwise the answer is
 * INSUFFICIENT_ACCESS_TYPE (only server and admin access may then delete).
 */
import { KnownError } from '@latchkey/protocol';
import { z } from 'zod';
import { imageUrl, metadata, successAnswer } from '../common/schemas.js';
import { defineRoute, type Route } from '../http/route.js';
import type { UserRow } from '../storage/schema.js';
import { deleteUser, findUser, updateUser } from './user-store.js';
import { userViews } from './user-views.js';

const clientPatch = z.strictObject({
  display_name: z.string().max(256).nullable().optional(),
  client_metadata: metadata.optional(),
  profile_image_url: imageUrl.nullable().optional(),
  selected_team_id: z.string().max(100).nullable().optional(),
  otp_auth_enabled: z.boolean().optional(),
  passkey_auth_enabled: z.boolean().optional(),
  totp_secret_base64: z
    .null({ error: 'multi-factor authentication is not available yet; only null (disabled) is accepted' })
    .optional(),
});

const serverPatch = clientPatch.extend({
  client_read_only_metadata: metadata.optional(),
  server_metadata: metadata.optional(),
});

/** The signed-in user's row; a token whose user is gone reads as no user. */
function ownUser(row: UserRow | null): UserRow {
  if (!row) throw new KnownError('CANNOT_GET_OWN_USER_WITHOUT_USER');
  return row;
}

const getCurrentUser = defineRoute({
  method: 'GET',
  path: '/users/me',
  tag: 'users',
  summary: 'The signed-in user, in the client view (client access) or the server view.',
  access: 'client',
  user: true,
  answer: userViews,
  errors: [],
  handler: async ({ auth, userId, deps }) => ownUser(await findUser(deps.db, auth.project.id, userId)),
});

const updateCurrentUser = defineRoute({
  method: 'PATCH',
  path: '/users/me',
  tag: 'users',
  summary: 'Changes fields of the signed-in user; server access may also write read-only and server metadata.',
  access: 'client',
  user: true,
  body: { client: clientPatch, server: serverPatch },
  answer: userViews,
  errors: ['TEAM_NOT_FOUND'],
  handler: async ({ auth, userId, body, deps }) => {
    const { totp_secret_base64: _disabled, ...changes } = body;
    // Teams come in a later slice: no team exists, so none can be selected.
    if (changes.selected_team_id) throw new KnownError('TEAM_NOT_FOUND', { team_id: changes.selected_team_id });
    return ownUser(await updateUser(deps.db, auth.project.id, userId, changes));
  },
});

const deleteCurrentUser = defineRoute({
  method: 'DELETE',
  path: '/users/me',
  tag: 'users',
  summary: 'Deletes the signed-in user and their sessions (clients only where the project allows it).',
  access: 'client',
  user: true,
  answer: successAnswer,
  errors: ['INSUFFICIENT_ACCESS_TYPE'],
  handler: async ({ auth, userId, deps }) => {
    if (auth.accessType === 'client' && !auth.project.config.client_user_deletion_enabled) {
      throw new KnownError('INSUFFICIENT_ACCESS_TYPE', {
        actual_access_type: 'client',
        allowed_access_types: ['server', 'admin'],
      });
    }
    if (!(await deleteUser(deps.db, auth.project.id, userId))) throw new KnownError('CANNOT_GET_OWN_USER_WITHOUT_USER');
    return { success: true as const };
  },
});

export const userRoutes: Route[] = [getCurrentUser, updateCurrentUser, deleteCurrentUser];
