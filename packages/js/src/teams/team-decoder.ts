/** The team entity (spec §3), decoded from its wire shape (wire-protocol.md §15.2). */
import type { ClientTeamWire, Json, ServerTeamWire } from '@latchkey/protocol';
import { asBaseFields, type Fields } from '../internal/decode/fields.js';

/**
 * A team as a client sees it (its data; `Team` adds what a member may do to it).
 *
 * @example
 * ```ts
 * const user = await app.getUser();
 * console.log(user?.selectedTeam?.displayName);
 * ```
 */
export interface TeamData {
  id: string;
  displayName: string;
  profileImageUrl: string | null;
  /** Any JSON value its members may change; `null` until set. */
  clientMetadata: Json;
  /** Any JSON value server code sets and the client reads; `null` until set. */
  clientReadOnlyMetadata: Json;
}

/**
 * A team as server code sees it: the client view plus its creation time and server metadata.
 *
 * @example
 * ```ts
 * const user = await serverApp.getUser(userId);
 * console.log(user?.selectedTeam?.createdAt.toISOString());
 * ```
 */
export interface ServerTeamData extends TeamData {
  createdAt: Date;
  /** Any JSON value only server code sees; `null` until set. */
  serverMetadata: Json;
}

/** Reads a client team; its metadata fields may be absent (read as `null`). */
export function readClientTeam(team: Fields<ClientTeamWire>): TeamData {
  return {
    id: team.string('id'),
    displayName: team.string('display_name'),
    profileImageUrl: team.stringOrNull('profile_image_url'),
    clientMetadata: team.optionalJson('client_metadata'),
    clientReadOnlyMetadata: team.optionalJson('client_read_only_metadata'),
  };
}

/** Reads a server team: the client team plus the server's fields. */
export function readServerTeam(team: Fields<ServerTeamWire>): ServerTeamData {
  return {
    ...readClientTeam(asBaseFields<ClientTeamWire, ServerTeamWire>(team)),
    createdAt: new Date(team.number('created_at_millis')),
    serverMetadata: team.json('server_metadata'),
  };
}
