/**
 * Teams and memberships: the queries every team feature shares. A membership
 * row is also the member's team profile (`display_name`, `profile_image_url`,
 * null until the member sets them).
 */

import { randomUUID } from 'node:crypto';
import { isUuid } from '../common/ids.js';
import { defaultPermissionIds, grantPermissions } from '../permissions/permission-store.js';
import type { ProjectConfig } from '../projects/project-config.js';
import type { Db } from '../storage/db.js';
import { type JsonValue, json, type TeamMemberRow, type TeamRow } from '../storage/schema.js';

/** The team, or null (also for a malformed id). */
export async function findTeam(db: Db, projectId: string, teamId: string): Promise<TeamRow | null> {
  if (!isUuid(teamId)) return null;
  const row = await db
    .selectFrom('teams')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', teamId.toLowerCase())
    .executeTakeFirst();
  return row ?? null;
}

/** The membership (and team profile) of a user in a team, or null. */
export async function findMembership(
  db: Db,
  projectId: string,
  teamId: string,
  userId: string,
): Promise<TeamMemberRow | null> {
  if (!isUuid(teamId) || !isUuid(userId)) return null;
  const row = await db
    .selectFrom('team_members')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('team_id', '=', teamId.toLowerCase())
    .where('user_id', '=', userId.toLowerCase())
    .executeTakeFirst();
  return row ?? null;
}

/** A new team's fields. */
export interface NewTeam {
  projectId: string;
  displayName: string;
  profileImageUrl?: string | null;
  clientMetadata?: JsonValue;
  clientReadOnlyMetadata?: JsonValue;
  serverMetadata?: JsonValue;
  now: number;
}

/** Inserts a team (without members: add its creator with `addMember` in the same transaction). */
export async function insertTeam(trx: Db, team: NewTeam): Promise<TeamRow> {
  return trx
    .insertInto('teams')
    .values({
      id: randomUUID(),
      project_id: team.projectId,
      display_name: team.displayName,
      profile_image_url: team.profileImageUrl ?? null,
      client_metadata: json(team.clientMetadata ?? {}),
      client_read_only_metadata: json(team.clientReadOnlyMetadata ?? {}),
      server_metadata: json(team.serverMetadata ?? {}),
      created_at: new Date(team.now),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Who joins and how: the creator of a team or a member (invited, or added by server code). */
export interface NewMember {
  project: { id: string; config: ProjectConfig };
  teamId: string;
  userId: string;
  role: 'creator' | 'member';
  now: number;
}

/**
 * Makes the user a member of the team with the project's default permissions
 * for `role`, in the caller's transaction. Returns false (and changes
 * nothing) when the user is a member already.
 */
export async function addMember(trx: Db, member: NewMember): Promise<boolean> {
  const { project, teamId, userId } = member;
  const inserted = await trx
    .insertInto('team_members')
    .values({
      project_id: project.id,
      team_id: teamId,
      user_id: userId,
      display_name: null,
      profile_image_url: null,
      created_at: new Date(member.now),
    })
    .onConflict((oc) => oc.doNothing())
    .returning('user_id')
    .executeTakeFirst();
  if (!inserted) return false;
  await grantPermissions(
    trx,
    { projectId: project.id, teamId, userId },
    defaultPermissionIds(project.config, member.role),
  );
  return true;
}
