/**
 * How every team route finds the team a request names and asks the caller's
 * permission there: one rule for the team, permission and invitation routes.
 */
import { KnownError, type SystemTeamPermission } from '@latchkey/protocol';
import type { RequestAuth } from '../http/env.js';
import { requireTeamPermission } from '../permissions/permission-store.js';
import type { Db } from '../storage/db.js';
import type { TeamRow } from '../storage/schema.js';
import { findTeam } from './team-store.js';

/** The team a request names, or TEAM_NOT_FOUND (also for an id that is not one). */
export async function existingTeam(db: Db, projectId: string, teamId: string): Promise<TeamRow> {
  const team = await findTeam(db, projectId, teamId);
  if (!team) throw new KnownError('TEAM_NOT_FOUND', { team_id: teamId });
  return team;
}

/**
 * Refuses a signed-out client on a route that acts as its user without naming
 * one (creating, reading, changing or deleting a team): USER_AUTHENTICATION_REQUIRED
 * (401), before the team is looked up, as the original backend. Server and admin access pass.
 */
export function requireClientUser(auth: RequestAuth): void {
  if (auth.accessType === 'client' && !auth.userId) throw new KnownError('USER_AUTHENTICATION_REQUIRED');
}

/** A client's permission check in `team` (TEAM_PERMISSION_REQUIRED); server and admin access pass. */
export function requireOn(db: Db, auth: RequestAuth, team: TeamRow, permission: SystemTeamPermission): Promise<void> {
  return requireTeamPermission(
    db,
    auth.accessType,
    { projectId: team.project_id, teamId: team.id, userId: auth.userId ?? '' },
    permission,
  );
}
