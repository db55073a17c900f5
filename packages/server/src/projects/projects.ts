/** Projects: records, creation, changes, deletion and ownership. */
import { randomUUID } from 'node:crypto';
import { internalProjectId, KnownError } from '@latchkey/protocol';
import { validate } from '../common/validate.js';
import type { Sealer } from '../crypto/encryption.js';
import { type Db, inTransaction } from '../storage/db.js';
import { lockProjectOwner } from '../storage/locks.js';
import type { ProjectRow } from '../storage/schema.js';
import { hasConfigSecrets, sealConfigSecrets } from './config-secrets.js';
import {
  defaultProjectConfig,
  mergeConfig,
  type ProjectConfig,
  type ProjectConfigPatch,
  parseStoredConfig,
  projectConfigPatchSchema,
} from './project-config.js';
import { countOwnedProjects, findOwnership, insertProjectOwner, listOwnedProjectRows } from './project-owner-store.js';
import { changeProject, deleteProjectRow, findProjectRow, insertProject, listProjectRows } from './project-store.js';

/** A project as the service works with it. Secret fields of `config` are sealed. */
export interface ProjectRecord {
  id: string;
  displayName: string;
  /** Empty when the project has none (never null on the wire, as in Stack). */
  description: string;
  createdAt: Date;
  isProductionMode: boolean;
  config: ProjectConfig;
}

function toRecord(row: ProjectRow): ProjectRecord {
  return {
    id: row.id,
    displayName: row.display_name,
    description: row.description ?? '',
    createdAt: row.created_at,
    isProductionMode: row.is_production_mode,
    config: parseStoredConfig(row.id, row.config),
  };
}

/** The project, or null. */
export async function findProject(db: Db, projectId: string): Promise<ProjectRecord | null> {
  const row = await findProjectRow(db, projectId);
  return row ? toRecord(row) : null;
}

/** Every project but the internal one, oldest first. */
export async function listProjects(db: Db): Promise<ProjectRecord[]> {
  return (await listProjectRows(db, internalProjectId)).map(toRecord);
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

/** Seals a validated patch's secrets; a secret with no sealer to protect it is refused. */
function sealed(patch: ProjectConfigPatch, projectId: string, sealer: Sealer | null): ProjectConfigPatch {
  if (!hasConfigSecrets(patch)) return patch;
  if (!sealer) throw new TypeError('storing OAuth client secrets or an SMTP password needs the service secret');
  return sealConfigSecrets(patch, projectId, sealer);
}

/**
 * Creates a project's row, in the caller's transaction (an action's, which
 * adds its first permission definitions: `projects-actions.ts`); its signing
 * key is created when first needed. With `ifAbsent`, an existing id gives null.
 */
export async function insertNewProject(
  db: Db,
  options: CreateProjectOptions,
  sealer: Sealer | null,
  { ifAbsent = false } = {},
): Promise<ProjectRecord | null> {
  const id = options.id ?? randomUUID();
  const patch = sealed(validate(projectConfigPatchSchema, options.config ?? {}, 'config'), id, sealer);
  const config = mergeConfig(defaultProjectConfig, patch);
  const isProductionMode = options.isProductionMode ?? false;
  const row = await insertProject(
    db,
    {
      id,
      displayName: options.displayName,
      description: options.description ?? '',
      createdAt: new Date(options.now ?? Date.now()),
      isProductionMode,
      config,
    },
    { ifAbsent },
  );
  return row && toRecord(row);
}

/** A change to a project, in the wire's names (the body of `PATCH /projects/current`, wire-protocol §15.6). */
export interface ProjectUpdate {
  display_name?: string;
  description?: string | null;
  is_production_mode?: boolean;
  config?: ProjectConfigPatch;
}

/**
 * Applies `update` to the project: the config patch is merged into the stored
 * config (lists replace, omitted secrets are kept: `mergeConfig`), new secrets
 * are sealed. Production mode is taken as asked, as the reference takes it:
 * its checks are advice (`productionModeErrors`, which the SDK's admin
 * project and the dashboard show), while a production project never uses
 * shared OAuth keys (`providerClient`). Throws SCHEMA_ERROR, or
 * PROJECT_NOT_FOUND for an unknown project.
 */
export async function updateProject(
  db: Db,
  projectId: string,
  update: ProjectUpdate,
  sealer: Sealer | null,
): Promise<ProjectRecord> {
  const patch = update.config
    ? sealed(validate(projectConfigPatchSchema, update.config, 'config'), projectId, sealer)
    : undefined;
  const row = await changeProject(db, projectId, (stored) => {
    const current = parseStoredConfig(projectId, stored.config);
    const config = patch ? mergeConfig(current, patch) : current;
    return {
      ...(update.display_name !== undefined ? { display_name: update.display_name } : {}),
      // null clears the description, as Stack stores it: empty.
      ...(update.description !== undefined ? { description: update.description ?? '' } : {}),
      ...(update.is_production_mode !== undefined ? { is_production_mode: update.is_production_mode } : {}),
      ...(patch ? { config } : {}),
    };
  });
  if (!row) throw new KnownError('PROJECT_NOT_FOUND', { project_id: projectId });
  return toRecord(row);
}

/**
 * Deletes the project and everything in it (users, sessions, keys, signing
 * keys, ownership). The internal project, home of every project owner, cannot
 * be deleted: SCHEMA_ERROR. PROJECT_NOT_FOUND when it is already gone.
 */
export async function deleteProject(db: Db, projectId: string): Promise<void> {
  if (projectId === internalProjectId) {
    throw new KnownError('SCHEMA_ERROR', {
      message: 'the internal project cannot be deleted: it holds the dashboard users who own every other project',
    });
  }
  if (!(await deleteProjectRow(db, projectId))) throw new KnownError('PROJECT_NOT_FOUND', { project_id: projectId });
}

/** Most projects one owner may own through the dashboard, unless the operator says otherwise. */
export const defaultMaxProjectsPerOwner = 100;

/**
 * Creates a project owned by `ownerId`, a user of the internal project
 * (wire-protocol §7.1), with no key set. PROJECT_LIMIT_REACHED when the owner
 * already owns `maxProjects` (counted under a lock of the owner, so a burst of
 * creations cannot pass it together).
 */
export function createOwnedProject(
  db: Db,
  ownerId: string,
  options: CreateProjectOptions,
  sealer: Sealer | null,
  maxProjects: number,
): Promise<ProjectRecord> {
  return inTransaction(db, async (trx) => {
    await lockProjectOwner(trx, ownerId);
    if ((await countOwnedProjects(trx, ownerId)) >= maxProjects) {
      throw new KnownError('PROJECT_LIMIT_REACHED', { limit: maxProjects });
    }
    const project = (await insertNewProject(trx, options, sealer))!;
    await insertProjectOwner(trx, project.id, ownerId, project.createdAt);
    return project;
  });
}

/** Most projects one owner lists. */
const maxOwnedProjectsListed = 1000;

/** The projects `userId` (a user of the internal project) owns, oldest first. */
export async function listOwnedProjects(db: Db, userId: string): Promise<ProjectRecord[]> {
  return (await listOwnedProjectRows(db, userId, maxOwnedProjectsListed)).map(toRecord);
}

/** Makes `userId`, a user of the internal project, an owner of the project; throws when either is missing. */
export async function addOwner(db: Db, projectId: string, userId: string): Promise<void> {
  const { userExists } = await findOwnership(db, projectId, userId);
  if (!userExists) throw new Error(`the internal project has no user ${userId}`);
  if (!(await findProjectRow(db, projectId))) throw new KnownError('PROJECT_NOT_FOUND', { project_id: projectId });
  await insertProjectOwner(db, projectId, userId, new Date());
}
