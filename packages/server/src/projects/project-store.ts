/**
 * Projects: every query on the `projects` table. The actions that write them
 * (`projects-actions.ts`) record events that drop the project every instance
 * cached (`access/auth-cache.ts`); `changeProject` still notifies by itself
 * for its callers that are not actions yet (the permission routes' default
 * lists, secret rotation).
 */
import { notifyProjectChanged } from '../storage/change-feed.js';
import { type Db, inTransaction } from '../storage/db.js';
import { json, type ProjectRow } from '../storage/schema.js';

/** The project's row, or null. */
export async function findProjectRow(db: Db, projectId: string): Promise<ProjectRow | null> {
  if (projectId.includes('\u0000')) return null;
  const row = await db.selectFrom('projects').selectAll().where('id', '=', projectId).executeTakeFirst();
  return row ?? null;
}

/** The oldest project other than `except` (the development project beside `internal`), or null. */
export async function findOldestProjectId(db: Db, except: string): Promise<string | null> {
  const row = await db
    .selectFrom('projects')
    .select('id')
    .where('id', '!=', except)
    .orderBy('created_at')
    .orderBy('id')
    .executeTakeFirst();
  return row?.id ?? null;
}

/** Every project but `except`, oldest first. */
export function listProjectRows(db: Db, except: string): Promise<ProjectRow[]> {
  return db.selectFrom('projects').selectAll().where('id', '!=', except).orderBy('created_at').orderBy('id').execute();
}

/** What a new project row holds. */
export interface NewProjectRow {
  id: string;
  displayName: string;
  description: string | null;
  createdAt: Date;
  isProductionMode: boolean;
  config: unknown;
}

/** Inserts a project; with `ifAbsent`, an existing id is left as it is (and null returned). */
export async function insertProject(
  db: Db,
  project: NewProjectRow,
  options: { ifAbsent?: boolean } = {},
): Promise<ProjectRow | null> {
  const row = await db
    .insertInto('projects')
    .values({
      id: project.id,
      display_name: project.displayName,
      description: project.description,
      created_at: project.createdAt,
      is_production_mode: project.isProductionMode,
      config: json(project.config),
    })
    .$if(options.ifAbsent === true, (query) => query.onConflict((oc) => oc.column('id').doNothing()))
    .returningAll()
    .executeTakeFirst();
  return row ?? null;
}

/**
 * Replaces a project's stored config with `change(stored)`, the row locked
 * meanwhile so concurrent changes apply one after the other. Returns what
 * was stored, or null when there is no such project.
 */
export async function changeProjectConfig<C>(
  db: Db,
  projectId: string,
  change: (stored: unknown) => C,
): Promise<C | null> {
  const row = await changeProject(db, projectId, (stored) => ({ config: change(stored.config) }));
  return row ? (row.config as C) : null;
}

/** Columns of a project an update may set. */
export interface ProjectRowChanges {
  display_name?: string;
  description?: string | null;
  is_production_mode?: boolean;
  config?: unknown;
}

/**
 * Applies `change(stored)` to the project's row, locked meanwhile so
 * concurrent changes apply one after the other; `change` may throw to change
 * nothing. Returns the updated row, or null when there is no such project.
 */
export async function changeProject(
  db: Db,
  projectId: string,
  change: (stored: ProjectRow) => ProjectRowChanges,
): Promise<ProjectRow | null> {
  if (projectId.includes('\u0000')) return null;
  return inTransaction(db, async (trx) => {
    const stored = await trx
      .selectFrom('projects')
      .selectAll()
      .where('id', '=', projectId)
      .forUpdate()
      .executeTakeFirst();
    if (!stored) return null;
    const { config, ...columns } = change(stored);
    const set = { ...columns, ...(config !== undefined ? { config: json(config) } : {}) };
    // Nothing to change (an empty PATCH): the project as it is; an UPDATE needs at least one column.
    if (Object.keys(set).length === 0) return stored;
    const row = await trx
      .updateTable('projects')
      .set(set)
      .where('id', '=', projectId)
      .returningAll()
      .executeTakeFirstOrThrow();
    await notifyProjectChanged(trx, projectId);
    return row;
  });
}

/** Deletes the project and, by cascade, everything in it. False when there was no such project. */
export async function deleteProjectRow(db: Db, projectId: string): Promise<boolean> {
  if (projectId.includes('\u0000')) return false;
  const result = await db.deleteFrom('projects').where('id', '=', projectId).executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** The ids of every project, the internal one included. */
export async function listProjectIds(db: Db): Promise<string[]> {
  return (await db.selectFrom('projects').select('id').execute()).map((row) => row.id);
}
