/** The team's wire views (wire-protocol §15.2): what a client and what server code sees. */
import type { ClientTeamWire, Json, ServerTeamWire } from '@latchkey/protocol';
import { z } from 'zod';
import { jsonValue, millis } from '../common/schemas.js';
import { defineViews } from '../http/views.js';
import type { TeamRow } from '../storage/schema.js';

/** The client view's schema. */
export const clientTeamSchema = z
  .object({
    id: z.uuid(),
    display_name: z.string(),
    profile_image_url: z.string().nullable(),
    client_metadata: jsonValue,
    client_read_only_metadata: jsonValue,
  })
  .strict()
  .meta({ id: 'ClientTeam', description: 'A team as its members see it.' });

/** The server view's schema: the client view plus creation time and server metadata. */
export const serverTeamSchema = clientTeamSchema
  .extend({ created_at_millis: millis, server_metadata: jsonValue })
  .meta({ id: 'ServerTeam', description: 'A team as server code and administrators see it.' });

/** The team as a client sees it. */
export function clientTeamView(
  row: TeamRow,
): ClientTeamWire & { client_metadata: Json; client_read_only_metadata: Json } {
  return {
    id: row.id,
    display_name: row.display_name,
    profile_image_url: row.profile_image_url,
    client_metadata: row.client_metadata as Json,
    client_read_only_metadata: row.client_read_only_metadata as Json,
  };
}

/** The team as server code sees it. */
export function serverTeamView(
  row: TeamRow,
): ServerTeamWire & { client_metadata: Json; client_read_only_metadata: Json } {
  return {
    ...clientTeamView(row),
    created_at_millis: row.created_at.getTime(),
    server_metadata: row.server_metadata as Json,
  };
}

/** A team row answered in the caller's view. */
export const teamViews = defineViews<TeamRow>({
  client: { schema: clientTeamSchema, render: clientTeamView },
  server: { schema: serverTeamSchema, render: serverTeamView },
});
