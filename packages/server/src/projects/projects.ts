/** Projects: records, creation and config changes. */
import { randomUUID } from 'node:crypto';
import { KnownError } from '@latchkey/protocol';
import { validate } from '../common/validate.js';
import type { Sealer } from '../crypto/encryption.js';
import type { Db } from '../storage/db.js';
import type { ProjectRow } from '../storage/schema.js';
import { hasConfigSecrets, sealConfigSecrets } from './config-secrets.js';
import {
  defaultProjectConfig,
  type ProjectConfig,
  type ProjectConfigPatch,
  parseStoredConfig,
  projectConfigPatchSchema,
} from './project-config.js';
import { changeProjectConfig, findProjectRow, insertProject } from './project-store.js';

/** A project as the service works with it. Secret fields of `config` are sealed. */
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
    config: parseStoredConfig(row.id, row.config),
  };
}

/** The project, or null. */
export async function findProject(db: Db, projectId: string): Promise<ProjectRecord | null> {
  const row = await findProjectRow(db, projectId);
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

/** Seals a validated patch's secrets; a secret with no sealer to protect it is refused. */
function sealed(patch: ProjectConfigPatch, projectId: string, sealer: Sealer | null): ProjectConfigPatch {
  if (!hasConfigSecrets(patch)) return patch;
  if (!sealer) throw new TypeError('storing OAuth client secrets or an SMTP password needs the service secret');
  return sealConfigSecrets(patch, projectId, sealer);
}

/** Creates a project (its signing key is created when first needed). With `ifAbsent`, an existing id gives null. */
export async function insertNewProject(
  db: Db,
  options: CreateProjectOptions,
  sealer: Sealer | null,
  { ifAbsent = false } = {},
): Promise<ProjectRecord | null> {
  const id = options.id ?? randomUUID();
  const patch = sealed(validate(projectConfigPatchSchema, options.config ?? {}, 'config'), id, sealer);
  const row = await insertProject(
    db,
    {
      id,
      displayName: options.displayName,
      description: options.description ?? null,
      createdAt: new Date(options.now ?? Date.now()),
      isProductionMode: options.isProductionMode ?? false,
      config: { ...defaultProjectConfig, ...patch },
    },
    { ifAbsent },
  );
  return row ? toRecord(row) : null;
}

/**
 * Merges `patch` into a project's config (lists replace the stored list) and
 * returns the new config. Throws SCHEMA_ERROR for an invalid patch and
 * PROJECT_NOT_FOUND for an unknown project.
 */
export async function changeConfig(
  db: Db,
  projectId: string,
  patch: ProjectConfigPatch,
  sealer: Sealer | null,
): Promise<ProjectConfig> {
  const changes = sealed(validate(projectConfigPatchSchema, patch, 'config'), projectId, sealer);
  const config = await changeProjectConfig(db, projectId, (stored) => ({
    ...parseStoredConfig(projectId, stored),
    ...changes,
  }));
  if (!config) throw new KnownError('PROJECT_NOT_FOUND', { project_id: projectId });
  return config;
}
