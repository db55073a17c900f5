/**
 * What a user holds in a team, asked the same way by the signed-in user
 * (`me`) and by server code (a user id): one implementation for both.
 */
import type { Send } from '../internal/core.js';
import { accountQuery, type ClientQuery } from '../users/account-data.js';
import { listTeamPermissions, type TeamPermission } from './teams-api.js';

/** A team, or its id. */
export type TeamRef = { id: string } | string;

/** The id of a team given as an object or an id. */
export const teamIdOf = (team: TeamRef): string => (typeof team === 'string' ? team : team.id);

/**
 * A user's permissions in a team. `recursive` (default true) includes every
 * permission the granted ones contain.
 *
 * @example
 * ```ts
 * if (await user.hasPermission(team, '$invite_members')) showInviteForm();
 * const direct = await user.listPermissions(team, { recursive: false });
 * ```
 */
export interface TeamPermissionQueries {
  /** Every permission the user holds in the team. */
  listPermissions(team: TeamRef, options?: { recursive?: boolean }): Promise<TeamPermission[]>;
  /** The permission if the user holds it (directly or contained in another), else `null`. */
  getPermission(team: TeamRef, permissionId: string, options?: { recursive?: boolean }): Promise<TeamPermission | null>;
  /** Whether the user holds the permission (directly or contained in another). */
  hasPermission(team: TeamRef, permissionId: string): Promise<boolean>;
}

/** The permission queries of one user (`me` or an id). */
export function teamPermissionQueries(send: Send, userRef: string): TeamPermissionQueries {
  const listPermissions: TeamPermissionQueries['listPermissions'] = (team, options = {}) =>
    listTeamPermissions(send, teamIdOf(team), userRef, options.recursive ?? true);
  const getPermission: TeamPermissionQueries['getPermission'] = async (team, permissionId, options) =>
    (await listPermissions(team, options)).find((permission) => permission.id === permissionId) ?? null;
  return {
    listPermissions,
    getPermission,
    hasPermission: async (team, permissionId) => (await getPermission(team, permissionId)) !== null,
  };
}

/**
 * The permissions the signed-in user holds in a team (`recursive`, default
 * true, includes the ones the granted ones contain), as a query of `ClientApp`.
 *
 * @example
 * ```ts
 * const held = await app.load(teamPermissionsQuery(team));
 * if (held.some((permission) => permission.id === '$invite_members')) showInviteForm();
 * ```
 */
export function teamPermissionsQuery(
  team: TeamRef,
  options: { recursive?: boolean } = {},
): ClientQuery<TeamPermission[]> {
  const teamId = teamIdOf(team);
  const recursive = options.recursive ?? true;
  return accountQuery(['team', teamId, 'permissions', recursive], (scope) =>
    listTeamPermissions(scope.send, teamId, 'me', recursive),
  );
}
