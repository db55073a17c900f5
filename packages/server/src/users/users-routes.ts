/**
 * The signed-in user: `GET`, `PATCH` and `DELETE /users/me` (wire-protocol
 * §14.2). Client access sees and edits the client view; server and admin
 * access see the server view and may also write the read-only and server
 * metadata. A client may delete its user only when the project enables
 * `client_user_deletion_enabled`; otherwise the answer is
 * INSUFFICIENT_ACCESS_TYPE (only server and admin access may then delete).
 */
import { KnownError } from '@latchkey/protocol';
import type { Hono } from 'hono';
import { z } from 'zod';
import { requireAccess, requireUserId } from '../access/request-auth.js';
import { emptyBody, readJson } from '../http/body.js';
import type { AppEnv, Deps, RequestAuth } from '../http/env.js';
import { jsonResponse } from '../http/responses.js';
import type { UserRow } from '../storage/schema.js';
import { clientUserView, deleteUser, findUser, serverUserView, updateUser } from './user-store.js';

/** Largest metadata value, as JSON text. */
export const maxMetadataBytes = 16_384;

const metadata = z.json().refine((value) => Buffer.byteLength(JSON.stringify(value)) <= maxMetadataBytes, {
  message: `must be at most ${maxMetadataBytes} bytes as JSON`,
});

const imageUrl = z
  .string()
  .max(65_536)
  .refine(
    (value) => {
      if (/^data:image\/[a-z0-9.+-]+;base64,[A-Za-z0-9+/]+=*$/i.test(value)) return true;
      try {
        const { protocol } = new URL(value);
        return value.length <= 2048 && (protocol === 'https:' || protocol === 'http:');
      } catch {
        return false;
      }
    },
    { message: 'must be an http(s) URL (up to 2048 characters) or a base64 image data URL' },
  );

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

function view(auth: RequestAuth, row: UserRow) {
  return auth.accessType === 'client' ? clientUserView(row) : serverUserView(row);
}

export function registerUserRoutes(api: Hono<AppEnv>, deps: Deps): void {
  const { db } = deps.storage;

  api.get('/users/me', requireAccess(deps, 'client'), async (c) => {
    const auth = c.get('auth');
    const row = await findUser(db, auth.project.id, requireUserId(auth));
    if (!row) throw new KnownError('CANNOT_GET_OWN_USER_WITHOUT_USER');
    return jsonResponse(view(auth, row));
  });

  api.patch('/users/me', requireAccess(deps, 'client'), async (c) => {
    const auth = c.get('auth');
    const userId = requireUserId(auth);
    const schema = auth.accessType === 'client' ? clientPatch : serverPatch;
    const { totp_secret_base64: _disabled, ...changes } = await readJson(c.req.raw, schema, deps.bodyLimitBytes);
    // Teams come in a later slice: no team exists, so none can be selected.
    if (changes.selected_team_id) throw new KnownError('TEAM_NOT_FOUND', { team_id: changes.selected_team_id });
    const row = await updateUser(db, auth.project.id, userId, changes);
    if (!row) throw new KnownError('CANNOT_GET_OWN_USER_WITHOUT_USER');
    return jsonResponse(view(auth, row));
  });

  api.delete('/users/me', requireAccess(deps, 'client'), async (c) => {
    await readJson(c.req.raw, emptyBody, deps.bodyLimitBytes);
    const auth = c.get('auth');
    const userId = requireUserId(auth);
    if (auth.accessType === 'client' && !auth.project.config.client_user_deletion_enabled) {
      throw new KnownError('INSUFFICIENT_ACCESS_TYPE', {
        actual_access_type: 'client',
        allowed_access_types: ['server', 'admin'],
      });
    }
    if (!(await deleteUser(db, auth.project.id, userId))) throw new KnownError('CANNOT_GET_OWN_USER_WITHOUT_USER');
    return jsonResponse({ success: true });
  });
}
