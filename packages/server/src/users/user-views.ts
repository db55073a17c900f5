/** The user's wire views (wire-protocol §15.1): what a client and what server code sees. */
import type { ClientUserWire, Json, ServerUserWire } from '@latchkey/protocol';
import { z } from 'zod';
import { jsonValue, millis } from '../common/schemas.js';
import { defineViews } from '../http/route.js';
import type { UserRow } from '../storage/schema.js';

const oauthProviderLink = z.object({ id: z.string(), account_id: z.string(), email: z.string().nullable() });

/** The client view's schema. */
export const clientUserSchema = z
  .object({
    id: z.uuid(),
    primary_email: z.string().nullable(),
    primary_email_verified: z.boolean(),
    display_name: z.string().nullable(),
    // Teams arrive with the teams feature; until then no user has a selected team.
    selected_team: z.null(),
    selected_team_id: z.string().nullable(),
    profile_image_url: z.string().nullable(),
    signed_up_at_millis: millis,
    has_password: z.boolean(),
    otp_auth_enabled: z.boolean(),
    passkey_auth_enabled: z.boolean(),
    client_metadata: jsonValue,
    client_read_only_metadata: jsonValue,
    oauth_providers: z.array(oauthProviderLink),
    auth_with_email: z.boolean(),
    requires_totp_mfa: z.boolean(),
  })
  .strict()
  .meta({ id: 'ClientUser', description: 'A user as the user themselves sees it.' });

/** The server view's schema: the client view plus server-only fields. */
export const serverUserSchema = clientUserSchema
  .extend({
    primary_email_auth_enabled: z.boolean(),
    server_metadata: jsonValue,
    last_active_at_millis: millis,
  })
  .meta({ id: 'ServerUser', description: 'A user as server code and administrators see it.' });

/** The user as a client sees it (no user has a selected team until teams exist). */
export function clientUserView(row: UserRow): ClientUserWire & { selected_team: null } {
  const hasPassword = row.password_hash !== null;
  return {
    id: row.id,
    primary_email: row.primary_email,
    primary_email_verified: row.primary_email_verified,
    display_name: row.display_name,
    selected_team: null,
    selected_team_id: row.selected_team_id,
    profile_image_url: row.profile_image_url,
    signed_up_at_millis: row.signed_up_at.getTime(),
    has_password: hasPassword,
    otp_auth_enabled: row.otp_auth_enabled,
    passkey_auth_enabled: row.passkey_auth_enabled,
    client_metadata: row.client_metadata as Json,
    client_read_only_metadata: row.client_read_only_metadata as Json,
    oauth_providers: [],
    auth_with_email: row.primary_email_auth_enabled && (hasPassword || row.otp_auth_enabled),
    requires_totp_mfa: row.requires_totp_mfa,
  };
}

/** The user as server code sees it: the client view plus server-only fields. */
export function serverUserView(row: UserRow): ServerUserWire & { selected_team: null } {
  return {
    ...clientUserView(row),
    selected_team: null,
    primary_email_auth_enabled: row.primary_email_auth_enabled,
    server_metadata: row.server_metadata as Json,
    last_active_at_millis: row.last_active_at.getTime(),
  };
}

/** A user row answered in the caller's view. */
export const userViews = defineViews<UserRow>({
  client: { schema: clientUserSchema, render: clientUserView },
  server: { schema: serverUserSchema, render: serverUserView },
});
