/** Projects: every query on the `projects` table. */
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
  return inTransaction(db, async (trx) => {
    const row = await trx
      .selectFrom('projects')
      .select('config')
      .where('id', '=', projectId)
      .forUpdate()
      .executeTakeFirst();
    if (!row) return null;
    const config = change(row.config);
    await trx
      .updateTable('projects')
      .set({ config: json(config) })
      .where('id', '=', projectId)
      .execute();
    return config;
  });
}
