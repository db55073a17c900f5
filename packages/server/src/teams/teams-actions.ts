/**
 * What changes teams, for the routes: create a team (with its creator as a
 * member), change or delete it, add and remove members, and change a
 * member's team profile. Each is an action (`events/recorder.ts`): its writes
 * and its events commit together. The routes check who may act first.
 */
import { type ActionContext, act, record } from '../events/recorder.js';
import { defaultPermissionIds, grantPermissions } from '../permissions/permission-store.js';
import type { ProjectConfig } from '../projects/project-config.js';
import type { Db } from '../storage/db.js';
import type { TeamRow } from '../storage/schema.js';
import {
  deleteMembership,
  deleteTeam as deleteTeamRow,
  insertMember,
  insertTeam,
  type TeamChanges,
  updateMemberProfile as updateMemberProfileRow,
  updateTeam as updateTeamRow,
} from './team-store.js';

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
 * for `role`, inside the caller's transaction (a step of an action, not an
 * action: it records nothing). False (and nothing changed) when the user is a
 * member already.
 *
 * @example
 * if (await joinTeam(tx.db, { project, teamId, userId, role: 'member', now })) await record(tx, 'team.member_added', ...);
 */
export async function joinTeam(db: Db, member: NewMember): Promise<boolean> {
  const { project, teamId, userId } = member;
  if (!(await insertMember(db, { projectId: project.id, teamId, userId, now: member.now }))) return false;
  await grantPermissions(
    db,
    { projectId: project.id, teamId, userId },
    defaultPermissionIds(project.config, member.role),
  );
  return true;
}

/** A new team's fields, in wire names. */
export interface TeamFields {
  display_name: string;
  profile_image_url?: string | null;
  client_metadata?: TeamChanges['client_metadata'];
  client_read_only_metadata?: TeamChanges['client_read_only_metadata'];
  server_metadata?: TeamChanges['server_metadata'];
}

/** Creates a team of the context's project; its creator, if any, joins it with the creator permissions. */
export function createTeam(
  ctx: ActionContext,
  project: NewMember['project'],
  fields: TeamFields,
  creatorId: string | null,
): Promise<TeamRow> {
  return act(ctx, async (tx) => {
    const now = ctx.clock.now();
    const team = await insertTeam(tx.db, {
      projectId: ctx.projectId,
      displayName: fields.display_name,
      profileImageUrl: fields.profile_image_url,
      clientMetadata: fields.client_metadata,
      clientReadOnlyMetadata: fields.client_read_only_metadata,
      serverMetadata: fields.server_metadata,
      now,
    });
    await record(tx, 'team.created', { userId: creatorId, data: { team_id: team.id } });
    if (creatorId !== null) {
      await joinTeam(tx.db, { project, teamId: team.id, userId: creatorId, role: 'creator', now });
      await record(tx, 'team.member_added', { userId: creatorId, data: { team_id: team.id } });
    }
    return team;
  });
}

/** Changes a team's fields; null when the team is gone. */
export function updateTeam(ctx: ActionContext, teamId: string, changes: TeamChanges): Promise<TeamRow | null> {
  // The names of the fields changed, never their values (metadata may hold anything).
  const fields = Object.keys(changes).filter((field) => changes[field as keyof TeamChanges] !== undefined);
  return act(ctx, async (tx) => {
    const row = await updateTeamRow(tx.db, ctx.projectId, teamId, changes);
    if (row && fields.length > 0) await record(tx, 'team.updated', { data: { team_id: teamId, fields } });
    return row;
  });
}

/** Deletes a team with its memberships, grants and invitations; false when it was gone. */
export function deleteTeam(ctx: ActionContext, teamId: string): Promise<boolean> {
  return act(ctx, async (tx) => {
    const gone = await deleteTeamRow(tx.db, ctx.projectId, teamId);
    if (gone) await record(tx, 'team.deleted', { data: { team_id: teamId } });
    return gone;
  });
}

/** Adds a user to a team with the project's member permissions; false when they are a member already. */
export function addMember(
  ctx: ActionContext,
  project: NewMember['project'],
  teamId: string,
  userId: string,
): Promise<boolean> {
  return act(ctx, async (tx) => {
    const joined = await joinTeam(tx.db, { project, teamId, userId, role: 'member', now: ctx.clock.now() });
    if (joined) await record(tx, 'team.member_added', { userId, data: { team_id: teamId } });
    return joined;
  });
}

/** Ends a membership (its profile and grants go with it); false when there was none. */
export function removeMember(ctx: ActionContext, teamId: string, userId: string): Promise<boolean> {
  return act(ctx, async (tx) => {
    const gone = await deleteMembership(tx.db, ctx.projectId, teamId, userId);
    if (gone) await record(tx, 'team.member_removed', { userId, data: { team_id: teamId } });
    return gone;
  });
}

/** A change to a member's team profile. */
export interface MemberProfileChanges {
  display_name?: string | null;
  profile_image_url?: string | null;
}

/** Changes a member's team profile; false when they are not a member. */
export function updateMemberProfile(
  ctx: ActionContext,
  teamId: string,
  userId: string,
  changes: MemberProfileChanges,
): Promise<boolean> {
  const fields = Object.keys(changes).sort();
  return act(ctx, async (tx) => {
    const member = await updateMemberProfileRow(tx.db, ctx.projectId, teamId, userId, changes);
    if (member && fields.length > 0) {
      await record(tx, 'team.member_profile_updated', { userId, data: { team_id: teamId, fields } });
    }
    return member;
  });
}
