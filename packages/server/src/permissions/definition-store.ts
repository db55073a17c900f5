/**
 * Permission definitions and what each contains: the queries of the
 * definition routes, and the list of held permissions (grants read through
 * containment, one recursive query whatever the depth of the graph). Grants
 * themselves are `permission-store.ts`'s.
 */
import { sql } from 'kysely';
import { type Db, insertChunks } from '../storage/db.js';
import type { NewRow, PermissionDefinitionRow } from '../storage/schema.js';

/** The definition, or null. */
export async function findDefinition(db: Db, projectId: string, id: string): Promise<PermissionDefinitionRow | null> {
  const row = await db
    .selectFrom('team_permission_definitions')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ?? null;
}

/** A definition on the wire: `description` is left out when there is none. */
export interface DefinitionView {
  id: string;
  description?: string;
  contained_permission_ids: string[];
}

/** Every definition of the project with what it contains directly: system permissions first, then by id. */
export async function listDefinitions(db: Db, projectId: string): Promise<DefinitionView[]> {
  const [definitions, inclusions] = await Promise.all([
    db
      .selectFrom('team_permission_definitions')
      .select(['id', 'description', 'is_system'])
      .where('project_id', '=', projectId)
      .orderBy('is_system', 'desc')
      .orderBy('id')
      .execute(),
    db
      .selectFrom('team_permission_inclusions')
      .select(['permission_id', 'contained_id'])
      .where('project_id', '=', projectId)
      .orderBy('contained_id')
      .execute(),
  ]);
  const contained = new Map<string, string[]>();
  for (const { permission_id, contained_id } of inclusions) {
    contained.set(permission_id, [...(contained.get(permission_id) ?? []), contained_id]);
  }
  return definitions.map((row) => ({
    id: row.id,
    ...(row.description === null ? {} : { description: row.description }),
    contained_permission_ids: contained.get(row.id) ?? [],
  }));
}

export async function insertDefinition(
  trx: Db,
  projectId: string,
  id: string,
  description: string | null,
  now: number,
): Promise<void> {
  await trx
    .insertInto('team_permission_definitions')
    .values({ project_id: projectId, id, description, is_system: false, created_at: new Date(now) })
    .execute();
}

/** Inserts definitions, then what they contain (an import's batch, in the caller's transaction). */
export async function insertDefinitionRows(
  db: Db,
  definitions: readonly NewRow<'team_permission_definitions'>[],
  inclusions: readonly NewRow<'team_permission_inclusions'>[],
): Promise<void> {
  for (const chunk of insertChunks(definitions)) {
    await db.insertInto('team_permission_definitions').values(chunk).execute();
  }
  for (const chunk of insertChunks(inclusions)) {
    await db.insertInto('team_permission_inclusions').values(chunk).execute();
  }
}

/** Serializes the definition writes of a project (released at commit): two changes cannot together close a cycle. */
export async function lockDefinitions(trx: Db, projectId: string): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock(hashtext(${`latchkey:permissions:${projectId}`}))`.execute(trx);
}

/** Renames a definition (grants and containments follow by foreign key) or changes its description. */
export async function changeDefinition(
  trx: Db,
  projectId: string,
  id: string,
  changes: { id?: string; description?: string },
): Promise<void> {
  await trx
    .updateTable('team_permission_definitions')
    .set(changes)
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .execute();
}

/** Deletes a definition; its grants and containments go with it by foreign key. */
export async function deleteDefinition(trx: Db, projectId: string, id: string): Promise<void> {
  await trx
    .deleteFrom('team_permission_definitions')
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .execute();
}

/** Replaces what `id` contains directly. */
export async function setContainedPermissions(
  trx: Db,
  projectId: string,
  id: string,
  contained: readonly string[],
): Promise<void> {
  await trx
    .deleteFrom('team_permission_inclusions')
    .where('project_id', '=', projectId)
    .where('permission_id', '=', id)
    .execute();
  if (contained.length === 0) return;
  await trx
    .insertInto('team_permission_inclusions')
    .values(contained.map((other) => ({ project_id: projectId, permission_id: id, contained_id: other })))
    .execute();
}

/** True when holding `from` grants `to` through containment (a change making `to` contain `from` would close a cycle). */
export async function reachesPermission(db: Db, projectId: string, from: string, to: string): Promise<boolean> {
  const { rows } = await sql<{ found: boolean }>`
    WITH RECURSIVE reach (id) AS (
      SELECT ${from}::text
      UNION
      SELECT i.contained_id FROM team_permission_inclusions i JOIN reach r ON i.permission_id = r.id
      WHERE i.project_id = ${projectId}
    )
    SELECT EXISTS (SELECT 1 FROM reach WHERE id = ${to}) AS found`.execute(db);
  return rows[0]?.found === true;
}

/** Which held permissions to list; null filters nothing. */
export interface HeldFilter {
  teamId: string | null;
  userId: string | null;
  permissionId: string | null;
  /** Add every permission the granted ones contain, to any depth. */
  recursive: boolean;
}

/** Most held permissions a list answers. */
const maxHeldListed = 10_000;

/**
 * The permissions members hold, as `{id, user_id, team_id}` sorted by team,
 * user and id: granted directly, and with `recursive` everything those
 * contain, each once — in one query.
 */
export async function heldPermissions(
  db: Db,
  projectId: string,
  filter: HeldFilter,
): Promise<{ id: string; user_id: string; team_id: string }[]> {
  const granted = sql`
    SELECT team_id, user_id, permission_id AS id FROM team_member_permissions
    WHERE project_id = ${projectId}
      ${filter.teamId === null ? sql`` : sql`AND team_id = ${filter.teamId}`}
      ${filter.userId === null ? sql`` : sql`AND user_id = ${filter.userId}`}`;
  const held = filter.recursive
    ? sql`
      WITH RECURSIVE held (team_id, user_id, id) AS (
        ${granted}
        UNION
        SELECT h.team_id, h.user_id, i.contained_id FROM team_permission_inclusions i
        JOIN held h ON i.permission_id = h.id WHERE i.project_id = ${projectId}
      )
      SELECT team_id, user_id, id FROM held`
    : granted;
  const { rows } = await sql<{ id: string; user_id: string; team_id: string }>`
    SELECT id, user_id, team_id FROM (${held}) AS listed
    ${filter.permissionId === null ? sql`` : sql`WHERE id = ${filter.permissionId}`}
    ORDER BY team_id, user_id, id
    LIMIT ${maxHeldListed}`.execute(db);
  return rows.map((row) => ({ id: row.id, user_id: row.user_id, team_id: row.team_id }));
}

/** The permission ids the project defines. */
export async function listPermissionIds(db: Db, projectId: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('team_permission_definitions')
    .select('id')
    .where('project_id', '=', projectId)
    .execute();
  return new Set(rows.map((row) => row.id));
}
