/** The team entity (spec §3), mapped from its wire shape (wire-protocol.md §15.2). */
import type { ClientTeamWire, Json } from '@latchkey/protocol';

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

export function mapClientTeam(wire: ClientTeamWire): Team {
  return {
    id: wire.id,
    displayName: wire.display_name,
    profileImageUrl: wire.profile_image_url,
    clientMetadata: wire.client_metadata ?? null,
    clientReadOnlyMetadata: wire.client_read_only_metadata ?? null,
  };
}
