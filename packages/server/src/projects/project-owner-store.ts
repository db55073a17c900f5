/**
 * Project owners: every query on the `project_owners` table. An owner is a
 * user of the `internal` project; the table's foreign keys drop ownership with
 * the user or the project.
 */
import { internalProjectId } from '@latchkey/protocol';
import { isUuid } from '../common/ids.js';
import type { Db } from '../storage/db.js';
import type { ProjectRow } from '../storage/schema.js';

/** Records `userId` (a user of `internal`) as an owner of the project. */
export async function insertProjectOwner(db: Db, projectId: string, userId: string, now: Date): Promise<void> {
  await db
    .insertInto('project_owners')
    .values({ project_id: projectId, user_id: userId, created_at: now })
    .onConflict((oc) => oc.columns(['project_id', 'user_id']).doNothing())
    .execute();
}

/** Whether the internal user exists, and whether they own the project. */
export async function findOwnership(
  db: Db,
  projectId: string,
  userId: string,
): Promise<{ userExists: boolean; owns: boolean }> {
  if (!isUuid(userId)) return { userExists: false, owns: false };
  const row = await db
    .selectFrom('users')
    .leftJoin('project_owners', (join) =>
      join
        .onRef('project_owners.user_id', '=', 'users.id')
        .on('project_owners.project_id', '=', projectId.includes('\u0000') ? '' : projectId),
    )
    .select('project_owners.project_id')
    .where('users.project_id', '=', internalProjectId)
    .where('users.id', '=', userId.toLowerCase())
    .executeTakeFirst();
  return { userExists: row !== undefined, owns: row?.project_id != null };
}

/** The projects the user owns, oldest first (at most `limit`). */
export function listOwnedProjectRows(db: Db, userId: string, limit: number): Promise<ProjectRow[]> {
  return db
    .selectFrom('projects')
    .innerJoin('project_owners', 'project_owners.project_id', 'projects.id')
    .selectAll('projects')
    .where('project_owners.user_id', '=', userId)
    .orderBy('projects.created_at')
    .orderBy('projects.id')
    .limit(limit)
    .execute();
}

/** How many projects the user owns. */
export async function countOwnedProjects(db: Db, userId: string): Promise<number> {
  const row = await db
    .selectFrom('project_owners')
    .select((eb) => eb.fn.countAll<string | number>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}
