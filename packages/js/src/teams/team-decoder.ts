/** The team entity (spec §3), decoded from its wire shape (wire-protocol.md §15.2). */
import type { ClientTeamWire, Json } from '@latchkey/protocol';
import type { Fields } from '../internal/decode/fields.js';

/**
 * A team as a client sees it.
 *
 * @example
 * ```ts
 * const user = await app.getUser();
 * console.log(user?.selectedTeam?.displayName);
 * ```
 */
export interface Team {
  id: string;
  displayName: string;
  profileImageUrl: string | null;
  clientMetadata: Json;
  clientReadOnlyMetadata: Json;
}

/** Reads a client team; its metadata fields may be absent (read as `null`). */
export function readClientTeam(team: Fields<ClientTeamWire>): Team {
  return {
    id: team.string('id'),
    displayName: team.string('display_name'),
    profileImageUrl: team.stringOrNull('profile_image_url'),
    clientMetadata: team.optionalJson('client_metadata'),
    clientReadOnlyMetadata: team.optionalJson('client_read_only_metadata'),
  };
}
