/** The user's wire views (wire-protocol §15.1): what a client and what server code sees. */
import type { ClientUserWire, Json, ServerUserWire } from '@latchkey/protocol';
import { z } from 'zod';
import { jsonValue, millis } from '../common/schemas.js';
import { defineViews } from '../http/views.js';
import type { TeamRow, UserRow } from '../storage/schema.js';
import { clientTeamSchema, clientTeamView, serverTeamSchema, serverTeamView } from '../teams/team-views.js';

/** A user row with its selected team, as the views render it (`attachSelectedTeams` makes one). */
export type UserWithTeam = UserRow & { selected_team: TeamRow | null };

const oauthProviderLink = z.object({ id: z.string(), account_id: z.string(), email: z.string().nullable() });

/** The client view's schema. */
const clientUserSchema = z
  .object({
    id: z.uuid(),
    primary_email: z.string().nullable(),
    primary_email_verified: z.boolean(),
    display_name: z.string().nullable(),
    selected_team: clientTeamSchema.nullable(),
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
    selected_team: serverTeamSchema.nullable(),
    primary_email_auth_enabled: z.boolean(),
    server_metadata: jsonValue,
    last_active_at_millis: millis,
  })
  .meta({ id: 'ServerUser', description: 'A user as server code and administrators see it.' });

/** The user as a client sees it. */
function clientUserView(row: UserWithTeam): ClientUserWire & z.infer<typeof clientUserSchema> {
  const hasPassword = row.password_hash !== null;
  return {
    id: row.id,
    primary_email: row.primary_email,
    primary_email_verified: row.primary_email_verified,
    display_name: row.display_name,
    selected_team: row.selected_team && clientTeamView(row.selected_team),
    selected_team_id: row.selected_team_id,
    profile_image_url: row.profile_image_url,
    signed_up_at_millis: row.signed_up_at.getTime(),
    has_password: hasPassword,
    otp_auth_enabled: row.otp_auth_enabled,
    passkey_auth_enabled: row.passkey_auth_enabled,
    client_metadata: row.client_metadata as Json,
    client_read_only_metadata: row.client_read_only_metadata as Json,
    oauth_providers: row.oauth_providers,
    // As the original backend: the user has an e-mail way in (a password or codes), whatever their channels.
    auth_with_email: hasPassword || row.otp_auth_enabled,
    requires_totp_mfa: row.requires_totp_mfa,
  };
}

/** The user as server code sees it: the client view plus server-only fields. */
export function serverUserView(row: UserWithTeam): ServerUserWire & z.infer<typeof serverUserSchema> {
  return {
    ...clientUserView(row),
    selected_team: row.selected_team && serverTeamView(row.selected_team),
    primary_email_auth_enabled: row.primary_email_auth_enabled,
    server_metadata: row.server_metadata as Json,
    last_active_at_millis: row.last_active_at.getTime(),
  };
}

/** A user row answered in the caller's view. */
export const userViews = defineViews<UserWithTeam>({
  client: { schema: clientUserSchema, render: clientUserView },
  server: { schema: serverUserSchema, render: serverUserView },
});
