/** Projects: records, admin functions and their wire views (wire-protocol §15.6). */
import { randomUUID } from 'node:crypto';
import { type AdminProjectWire, type ClientProjectWire, KnownError } from '@latchkey/protocol';
import type { Kysely } from 'kysely';
import { validate } from '../http/body.js';
import type { Storage } from '../storage/open-storage.js';
import { type Database, json, type ProjectRow } from '../storage/schema.js';
import {
  adminConfigView,
  clientConfigView,
  completeConfig,
  defaultProjectConfig,
  type ProjectConfig,
  type ProjectConfigPatch,
  projectConfigPatchSchema,
} from './project-config.js';

/** A project as the service works with it. */
export interface ProjectRecord {
  id: string;
  displayName: string;
  description: string | null;
  createdAt: Date;
  isProductionMode: boolean;
  config: ProjectConfig;
}

function toRecord(row: ProjectRow): ProjectRecord {
  return {
    id: row.id,
    displayName: row.display_name,
    description: row.description,
    createdAt: row.created_at,
    isProductionMode: row.is_production_mode,
    config: completeConfig(row.config),
  };
}

/** The project, or null. */
export async function findProject(db: Kysely<Database>, projectId: string): Promise<ProjectRecord | null> {
  const row = await db.selectFrom('projects').selectAll().where('id', '=', projectId).executeTakeFirst();
  return row ? toRecord(row) : null;
}

/** Options of `createProject`. */
export interface CreateProjectOptions {
  /** Default: a random UUID. */
  id?: string;
  displayName: string;
  description?: string | null;
  isProductionMode?: boolean;
  /** Merged over the defaults; validated like an admin config update. */
  config?: ProjectConfigPatch;
  /** Creation time in epoch ms; default now. */
  now?: number;
}

/**
 * Creates a project. Its signing key is created when the service first needs it.
 *
 * @example
 * const project = await createProject(storage, { displayName: 'My app', config: { allow_localhost: false } });
 */
export async function createProject(
  storage: Pick<Storage, 'db'>,
  options: CreateProjectOptions,
): Promise<ProjectRecord> {
  const config = { ...defaultProjectConfig, ...validate(projectConfigPatchSchema, options.config ?? {}) };
  const row = await storage.db
    .insertInto('projects')
    .values({
      id: options.id ?? randomUUID(),
      display_name: options.displayName,
      description: options.description ?? null,
      created_at: new Date(options.now ?? Date.now()),
      is_production_mode: options.isProductionMode ?? false,
      config: json(config),
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return toRecord(row);
}

/**
 * Merges `patch` into a project's config (lists replace the stored list) and
 * returns the new config. Throws SCHEMA_ERROR for an invalid patch and
 * PROJECT_NOT_FOUND for an unknown project.
 *
 * @example
 * await updateProjectConfig(storage, projectId, { client_user_deletion_enabled: true });
 */
export async function updateProjectConfig(
  storage: Pick<Storage, 'db'>,
  projectId: string,
  patch: ProjectConfigPatch,
): Promise<ProjectConfig> {
  const changes = validate(projectConfigPatchSchema, patch);
  return storage.db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('projects')
      .select('config')
      .where('id', '=', projectId)
      .forUpdate()
      .executeTakeFirst();
    if (!row) throw new KnownError('PROJECT_NOT_FOUND', { project_id: projectId });
    const config = { ...completeConfig(row.config), ...changes };
    await trx
      .updateTable('projects')
      .set({ config: json(config) })
      .where('id', '=', projectId)
      .execute();
    return config;
  });
}

/** Number of users of a project. */
export async function countUsers(db: Kysely<Database>, projectId: string): Promise<number> {
  const row = await db
    .selectFrom('users')
    .select((eb) => eb.fn.countAll<string | number>().as('count'))
    .where('project_id', '=', projectId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** `GET /projects/current` with client or server access. */
export function clientProjectView(project: ProjectRecord): ClientProjectWire {
  return { id: project.id, display_name: project.displayName, config: clientConfigView(project.config) };
}

/** `GET /projects/current` with admin access. */
export function adminProjectView(project: ProjectRecord, userCount: number): AdminProjectWire {
  return {
    id: project.id,
    display_name: project.displayName,
    description: project.description,
    created_at_millis: project.createdAt.getTime(),
    user_count: userCount,
    is_production_mode: project.isProductionMode,
    config: adminConfigView(project.id, project.config),
  };
}
