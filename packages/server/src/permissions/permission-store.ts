/**
 * Team permissions at their core: the definitions every project starts with,
 * what a member holds (directly or through containment: one recursive query,
 * however deep the graph), and granting. Client team routes ask
 * `requireTeamPermission` before they act; the permission routes
 * (`permissions-routes.ts`) manage definitions and grants on top of this.
 *
 * The graph of definitions is acyclic (the definition routes refuse a cycle),
 * but the queries use UNION, which stops on a cycle anyway.
 */
import { KnownError, type SystemTeamPermission, systemTeamPermissions } from '@latchkey/protocol';
import { type Insertable, sql } from 'kysely';
import { type Db, insertChunks } from '../storage/db.js';
import type { Database } from '../storage/schema.js';

/** The five system permission ids. */
export const systemPermissionIds: readonly SystemTeamPermission[] = Object.values(systemTeamPermissions);

/** True for a system permission id (`$...`): listed, granted, but never changed or deleted. */
export function isSystemPermissionId(id: string): boolean {
  return (systemPermissionIds as readonly string[]).includes(id);
}

/**
 * The definitions a new project has: the system permissions, `admin` (all of
 * them) and `member`, described as Stack describes them (migration 0017 brings
 * older projects' untouched descriptions to these).
 */
const initialDefinitions: readonly { id: string; description: string; contains: readonly string[] }[] = [
  { id: systemTeamPermissions.updateTeam, description: 'Update the team information', contains: [] },
  { id: systemTeamPermissions.deleteTeam, description: 'Delete the team', contains: [] },
  { id: systemTeamPermissions.readMembers, description: 'Read and list the other members of the team', contains: [] },
  { id: systemTeamPermissions.removeMembers, description: 'Remove other members from the team', contains: [] },
  { id: systemTeamPermissions.inviteMembers, description: 'Invite other users to the team', contains: [] },
  { id: 'admin', description: 'Default permission for team creators', contains: systemPermissionIds },
  {
    id: 'member',
    description: 'Default permission for team members',
    contains: [systemTeamPermissions.readMembers, systemTeamPermissions.inviteMembers],
  },
];

/** Writes `initialDefinitions` for a new project; call it in the transaction that inserts the project. */
export async function insertInitialDefinitions(trx: Db, projectId: string, now: Date): Promise<void> {
  await trx
    .insertInto('team_permission_definitions')
    .values(
      initialDefinitions.map((definition) => ({
        project_id: projectId,
        id: definition.id,
        description: definition.description,
        is_system: isSystemPermissionId(definition.id),
        created_at: now,
      })),
    )
    .execute();
  await trx
    .insertInto('team_permission_inclusions')
    .values(
      initialDefinitions.flatMap((definition) =>
        definition.contains.map((contained) => ({
          project_id: projectId,
          permission_id: definition.id,
          contained_id: contained,
        })),
      ),
    )
    .execute();
}

/** A member of a team, by ids. */
export interface MemberRef {
  projectId: string;
  teamId: string;
  userId: string;
}

/**
 * The permission ids a member holds in a team, sorted: those granted
 * directly, and with `recursive` every permission they contain, to any depth
 * (one recursive query). A non-member holds none.
 */
export async function heldPermissionIds(db: Db, member: MemberRef, recursive: boolean): Promise<string[]> {
  const { projectId, teamId, userId } = member;
  if (!recursive) {
    const rows = await db
      .selectFrom('team_member_permissions')
      .select('permission_id')
      .where('project_id', '=', projectId)
      .where('team_id', '=', teamId)
      .where('user_id', '=', userId)
      .orderBy('permission_id')
      .execute();
    return rows.map((row) => row.permission_id);
  }
  const { rows } = await sql<{ id: string }>`
    WITH RECURSIVE held (id) AS (
      SELECT permission_id FROM team_member_permissions
      WHERE project_id = ${projectId} AND team_id = ${teamId} AND user_id = ${userId}
      UNION
      SELECT i.contained_id FROM team_permission_inclusions i JOIN held h ON i.permission_id = h.id
      WHERE i.project_id = ${projectId}
    )
    SELECT id FROM held ORDER BY id`.execute(db);
  return rows.map((row) => row.id);
}

/** True when the member holds `permissionId` in the team, directly or through containment. */
export async function holdsPermission(db: Db, member: MemberRef, permissionId: string): Promise<boolean> {
  const { projectId, teamId, userId } = member;
  const { rows } = await sql<{ held: boolean }>`
    WITH RECURSIVE held (id) AS (
      SELECT permission_id FROM team_member_permissions
      WHERE project_id = ${projectId} AND team_id = ${teamId} AND user_id = ${userId}
      UNION
      SELECT i.contained_id FROM team_permission_inclusions i JOIN held h ON i.permission_id = h.id
      WHERE i.project_id = ${projectId}
    )
    SELECT EXISTS (SELECT 1 FROM held WHERE id = ${permissionId}) AS held`.execute(db);
  return rows[0]?.held === true;
}

/**
 * Refuses a client action the member may not take: TEAM_PERMISSION_REQUIRED
 * (401) with the team, user and permission. Server and admin access skip the
 * check (they act on any team); pass `accessType` so every route asks the
 * same way.
 */
export async function requireTeamPermission(
  db: Db,
  accessType: 'client' | 'server' | 'admin',
  member: MemberRef,
  permissionId: SystemTeamPermission,
): Promise<void> {
  if (accessType !== 'client') return;
  if (await holdsPermission(db, member, permissionId)) return;
  throw new KnownError('TEAM_PERMISSION_REQUIRED', {
    team_id: member.teamId,
    user_id: member.userId,
    permission_id: permissionId,
  });
}

/**
 * Grants the definitions among `permissionIds` that exist (ids the project
 * does not define are skipped: a default list may name one deleted since);
 * a permission already held stays. Answers the ids newly granted. Call it
 * where the membership was written.
 */
export async function grantPermissions(
  trx: Db,
  member: MemberRef,
  permissionIds: readonly string[],
): Promise<string[]> {
  if (permissionIds.length === 0) return [];
  const { projectId, teamId, userId } = member;
  const result = await sql<{ permission_id: string }>`
    INSERT INTO team_member_permissions (project_id, team_id, user_id, permission_id)
    SELECT ${projectId}, ${teamId}, ${userId}, id FROM team_permission_definitions
    WHERE project_id = ${projectId} AND id IN (${sql.join(permissionIds)})
    ON CONFLICT DO NOTHING
    RETURNING permission_id`.execute(trx);
  return result.rows.map((row) => row.permission_id);
}

/** Ends a direct grant; false when the member did not hold it directly. */
export async function revokePermission(db: Db, member: MemberRef, permissionId: string): Promise<boolean> {
  const result = await db
    .deleteFrom('team_member_permissions')
    .where('project_id', '=', member.projectId)
    .where('team_id', '=', member.teamId)
    .where('user_id', '=', member.userId)
    .where('permission_id', '=', permissionId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** What a new member of a team is granted: the project's creator or member defaults. */
export function defaultPermissionIds(
  config: { team_creator_default_permissions: { id: string }[]; team_member_default_permissions: { id: string }[] },
  role: 'creator' | 'member',
): string[] {
  const list = role === 'creator' ? config.team_creator_default_permissions : config.team_member_default_permissions;
  return list.map((permission) => permission.id);
}

/** Imported members' grants, many a statement (`import/`). */
export async function insertGrantRows(
  db: Db,
  rows: readonly Insertable<Database['team_member_permissions']>[],
): Promise<void> {
  for (const chunk of insertChunks(rows)) await db.insertInto('team_member_permissions').values(chunk).execute();
}

/** The users' direct grants (the export). */
export function listGrantsOfUsers(
  db: Db,
  projectId: string,
  userIds: readonly string[],
): Promise<{ user_id: string; team_id: string; permission_id: string }[]> {
  if (userIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('team_member_permissions')
    .select(['user_id', 'team_id', 'permission_id'])
    .where('project_id', '=', projectId)
    .where('user_id', 'in', userIds)
    .orderBy('permission_id')
    .execute();
}
