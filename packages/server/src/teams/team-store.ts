/**
 * Teams and memberships: the queries every team feature shares. A membership
 * row is also the member's team profile (`display_name`, `profile_image_url`,
 * null until the member sets them).
 */

import { randomUUID } from 'node:crypto';
import type { Insertable } from 'kysely';
import { isUuid } from '../common/ids.js';
import { type Db, idsByExternalId, insertChunks, takenIds } from '../storage/db.js';
import {
  type Database,
  type JsonValue,
  json,
  type TeamMemberRow,
  type TeamRow,
  type UserRow,
  withMetadataColumns,
} from '../storage/schema.js';

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

/** Inserts a team (without members: its creator joins in the same transaction, `teams-actions.ts`). */
export async function insertTeam(trx: Db, team: NewTeam): Promise<TeamRow> {
  return trx
    .insertInto('teams')
    .values({
      id: randomUUID(),
      project_id: team.projectId,
      display_name: team.displayName,
      profile_image_url: team.profileImageUrl ?? null,
      client_metadata: json(team.clientMetadata ?? null),
      client_read_only_metadata: json(team.clientReadOnlyMetadata ?? null),
      server_metadata: json(team.serverMetadata ?? null),
      created_at: new Date(team.now),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** A membership to insert: the row only (what it grants is the caller's, `teams-actions.ts`). */
export interface NewMembership {
  projectId: string;
  teamId: string;
  userId: string;
  now: number;
}

/** Inserts a membership with an empty team profile; false (nothing changed) when the user is a member already. */
export async function insertMember(db: Db, member: NewMembership): Promise<boolean> {
  const inserted = await db
    .insertInto('team_members')
    .values({
      project_id: member.projectId,
      team_id: member.teamId,
      user_id: member.userId,
      display_name: null,
      profile_image_url: null,
      created_at: new Date(member.now),
    })
    .onConflict((oc) => oc.doNothing())
    .returning('user_id')
    .executeTakeFirst();
  return inserted !== undefined;
}

/** Most teams or profiles a list answers (lists of the protocol are not paginated). */
const maxListed = 1000;

/** The teams of the project, or of one user when `userId` is given, oldest first. */
export async function listTeams(db: Db, projectId: string, userId: string | null): Promise<TeamRow[]> {
  let query = db.selectFrom('teams').selectAll('teams').where('teams.project_id', '=', projectId);
  if (userId !== null) {
    query = query
      .innerJoin('team_members as member', (join) =>
        join.onRef('member.project_id', '=', 'teams.project_id').onRef('member.team_id', '=', 'teams.id'),
      )
      .where('member.user_id', '=', userId);
  }
  return query.orderBy('teams.created_at').orderBy('teams.id').limit(maxListed).execute();
}

/** A change to a team's fields. */
export interface TeamChanges {
  display_name?: string;
  profile_image_url?: string | null;
  client_metadata?: JsonValue;
  client_read_only_metadata?: JsonValue;
  server_metadata?: JsonValue;
}

/** Applies `changes`; null when the team is gone. */
export async function updateTeam(
  db: Db,
  projectId: string,
  teamId: string,
  changes: TeamChanges,
): Promise<TeamRow | null> {
  const set = withMetadataColumns(changes);
  if (Object.keys(set).length === 0) return findTeam(db, projectId, teamId);
  const row = await db
    .updateTable('teams')
    .set(set)
    .where('project_id', '=', projectId)
    .where('id', '=', teamId)
    .returningAll()
    .executeTakeFirst();
  return row ?? null;
}

/**
 * Deletes the team; the foreign keys take its memberships, profiles and
 * grants with it, clear it as anyone's selected team, and void its
 * invitations. False when there was no such team.
 */
export async function deleteTeam(db: Db, projectId: string, teamId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('teams')
    .where('project_id', '=', projectId)
    .where('id', '=', teamId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Ends a membership (its profile and grants go with it); false when there was none. */
export async function deleteMembership(db: Db, projectId: string, teamId: string, userId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('team_members')
    .where('project_id', '=', projectId)
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** A member's team profile with their user row (for the server view's `user`). */
export interface MemberProfileRow {
  member: TeamMemberRow;
  user: UserRow;
}

/** Which profiles to list: of one team, of one user, or both (one profile). */
export interface ProfileFilter {
  teamId?: string;
  userId?: string;
}

/** The profiles matching `filter`, each with its user, in joining order. */
export async function listMemberProfiles(
  db: Db,
  projectId: string,
  filter: ProfileFilter,
): Promise<MemberProfileRow[]> {
  let query = db
    .selectFrom('team_members as member')
    .innerJoin('users', (join) =>
      join.onRef('users.project_id', '=', 'member.project_id').onRef('users.id', '=', 'member.user_id'),
    )
    .selectAll('users')
    .select([
      'member.team_id as member_team_id',
      'member.display_name as member_display_name',
      'member.profile_image_url as member_profile_image_url',
      'member.created_at as member_created_at',
    ])
    .where('member.project_id', '=', projectId);
  if (filter.teamId !== undefined) query = query.where('member.team_id', '=', filter.teamId);
  if (filter.userId !== undefined) query = query.where('member.user_id', '=', filter.userId);
  const rows = await query.orderBy('member.created_at').orderBy('member.user_id').limit(maxListed).execute();
  return rows.map(({ member_team_id, member_display_name, member_profile_image_url, member_created_at, ...user }) => ({
    member: {
      project_id: projectId,
      team_id: member_team_id,
      user_id: user.id,
      display_name: member_display_name,
      profile_image_url: member_profile_image_url,
      created_at: member_created_at,
    },
    user,
  }));
}

/** Changes a member's team profile; false when they are not a member. */
export async function updateMemberProfile(
  db: Db,
  projectId: string,
  teamId: string,
  userId: string,
  changes: { display_name?: string | null; profile_image_url?: string | null },
): Promise<boolean> {
  if (Object.keys(changes).length === 0) return (await findMembership(db, projectId, teamId, userId)) !== null;
  const result = await db
    .updateTable('team_members')
    .set(changes)
    .where('project_id', '=', projectId)
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * The name of the team every new user gets when the project has
 * `create_team_on_sign_up` on, as Stack names it: after their display name,
 * else their primary e-mail, else "Personal Team".
 */
export function personalTeamName(user: { display_name: string | null; primary_email: string | null }): string {
  const name = user.display_name || user.primary_email;
  return name ? `${name}'s Team` : 'Personal Team';
}

/** Imported teams' rows, many a statement (`import/`). */
export async function insertTeamRows(db: Db, rows: readonly Insertable<Database['teams']>[]): Promise<void> {
  for (const chunk of insertChunks(rows)) await db.insertInto('teams').values(chunk).execute();
}

/** Imported memberships (what they grant is `permission-store.ts`'s), many a statement. */
export async function insertMemberRows(db: Db, rows: readonly Insertable<Database['team_members']>[]): Promise<void> {
  for (const chunk of insertChunks(rows)) await db.insertInto('team_members').values(chunk).execute();
}

/** Of `externalIds`, those of teams of the project, with the team's id. */
export function findTeamsByExternalId(
  db: Db,
  projectId: string,
  externalIds: readonly string[],
): Promise<Map<string, string>> {
  return idsByExternalId(db, 'teams', projectId, externalIds);
}

/** Of the (lower-case) UUIDs, those a team of any project has already. */
export function findTakenTeamIds(db: Db, ids: readonly string[]): Promise<Set<string>> {
  return takenIds(db, 'teams', ids);
}

/** Every team of the project, in id order (the export). */
export function listProjectTeams(db: Db, projectId: string): Promise<TeamRow[]> {
  return db.selectFrom('teams').selectAll().where('project_id', '=', projectId).orderBy('id').execute();
}

/** The users' memberships (the export). */
export function listMembershipsOfUsers(
  db: Db,
  projectId: string,
  userIds: readonly string[],
): Promise<{ user_id: string; team_id: string }[]> {
  if (userIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('team_members')
    .select(['user_id', 'team_id'])
    .where('project_id', '=', projectId)
    .where('user_id', 'in', userIds)
    .orderBy('team_id')
    .execute();
}
