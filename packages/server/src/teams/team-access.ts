/**
 * How every team route finds the team a request names and asks the caller's
 * permission there: one rule for the team, permission and invitation routes,
 * in the original backend's order.
 */
import { KnownError, type KnownErrorCode, type SystemTeamPermission } from '@latchkey/protocol';
import type { RequestAuth } from '../http/env.js';
import { requireTeamPermission } from '../permissions/permission-store.js';
import type { Db } from '../storage/db.js';
import type { TeamRow } from '../storage/schema.js';
import { findMembership, findTeam } from './team-store.js';

/** The known errors `teamFor` may throw. */
export const teamAccessErrors = [
  'TEAM_NOT_FOUND',
  'TEAM_MEMBERSHIP_NOT_FOUND',
  'TEAM_PERMISSION_REQUIRED',
  'CANNOT_GET_OWN_USER_WITHOUT_USER',
] as const satisfies readonly KnownErrorCode[];

/** The team a request names, or TEAM_NOT_FOUND (also for an id that is not one). */
export async function existingTeam(db: Db, projectId: string, teamId: string): Promise<TeamRow> {
  const team = await findTeam(db, projectId, teamId);
  if (!team) throw new KnownError('TEAM_NOT_FOUND', { team_id: teamId });
  return team;
}

/**
 * The team a request acts on. Server and admin access: the team, or
 * TEAM_NOT_FOUND. A client acts as its user (CANNOT_GET_OWN_USER_WITHOUT_USER
 * signed out), who must be a member: TEAM_MEMBERSHIP_NOT_FOUND otherwise,
 * also for a team that does not exist (no client learns which teams exist),
 * then hold each of `permissions` in turn (TEAM_PERMISSION_REQUIRED for the
 * first it lacks). A member holds no permission but those granted to it,
 * directly or through containment.
 */
export async function teamFor(
  db: Db,
  auth: RequestAuth,
  teamId: string,
  ...permissions: SystemTeamPermission[]
): Promise<TeamRow> {
  const projectId = auth.project.id;
  if (auth.accessType !== 'client') return existingTeam(db, projectId, teamId);
  if (!auth.userId) throw new KnownError('CANNOT_GET_OWN_USER_WITHOUT_USER');
  if (!(await findMembership(db, projectId, teamId, auth.userId))) {
    throw new KnownError('TEAM_MEMBERSHIP_NOT_FOUND', { team_id: teamId, user_id: auth.userId });
  }
  const team = await existingTeam(db, projectId, teamId);
  for (const permission of permissions) {
    await requireTeamPermission(db, auth.accessType, { projectId, teamId: team.id, userId: auth.userId }, permission);
  }
  return team;
}

/**
 * Refuses a signed-out client on a route that acts as its user without naming
 * one (creating, reading, changing or deleting a team, inviting):
 * USER_AUTHENTICATION_REQUIRED (401), before the team is looked up, as the
 * original backend. Server and admin access pass.
 */
export function requireClientUser(auth: RequestAuth): void {
  if (auth.accessType === 'client' && !auth.userId) throw new KnownError('USER_AUTHENTICATION_REQUIRED');
}
