/**
 * What changes projects, for the routes, the operator and the first start
 * alike: create one (or one owned by a dashboard user), change its names,
 * production mode and config, and delete it. Each is an action
 * (`events/recorder.ts`): the change, its audit event and the notice that
 * drops the project from every instance's request-authentication cache
 * commit together.
 */
import { internalProjectId } from '@latchkey/protocol';
import type { Sealer } from '../crypto/encryption.js';
import { type ActionContext, act, record } from '../events/recorder.js';
import { insertInitialDefinitions } from '../permissions/permission-store.js';
import {
  type CreateProjectOptions,
  deleteProject as deleteProjectRecord,
  insertNewProject,
  createOwnedProject as insertOwnedProject,
  type ProjectRecord,
  type ProjectUpdate,
  updateProject as updateProjectRecord,
} from './projects.js';

/**
 * Creates a project (its id from `options`, or a new one) with the permission
 * definitions its default lists name (every project starts with them); with `ifAbsent`,
 * an existing id is left as it is and null returned. A config with secrets
 * needs `sealer`.
 */
export function createProject(
  ctx: ActionContext,
  options: CreateProjectOptions,
  sealer: Sealer | null,
  { ifAbsent = false } = {},
): Promise<ProjectRecord | null> {
  return act(ctx, async (tx) => {
    const project = await insertNewProject(tx.db, { now: ctx.clock.now(), ...options }, sealer, { ifAbsent });
    if (!project) return null;
    await insertInitialDefinitions(tx.db, project.id, project.createdAt);
    await record(tx, 'project.created', { data: { project_id: project.id } });
    return project;
  });
}

/**
 * Creates a project owned by the context's signed-in user (a user of the
 * internal project); PROJECT_LIMIT_REACHED when they own `maxProjects` already.
 */
export function createOwnedProject(
  ctx: ActionContext,
  options: CreateProjectOptions,
  sealer: Sealer | null,
  maxProjects: number,
): Promise<ProjectRecord> {
  const ownerId = ctx.userId;
  if (ownerId === null) throw new TypeError('createOwnedProject: the context has no signed-in user');
  return act(ctx, async (tx) => {
    const project = await insertOwnedProject(tx.db, ownerId, { now: ctx.clock.now(), ...options }, sealer, maxProjects);
    await insertInitialDefinitions(tx.db, project.id, project.createdAt);
    await record(tx, 'project.created', { data: { project_id: project.id } });
    return project;
  });
}

/**
 * Changes the context's project (lists in the config replace the stored
 * ones; secrets are sealed with `sealer`). The audit event names the fields
 * changed, never their values: configs hold provider and SMTP secrets.
 */
export function updateProject(
  ctx: ActionContext,
  update: ProjectUpdate,
  sealer: Sealer | null,
): Promise<ProjectRecord> {
  return act(ctx, async (tx) => {
    const project = await updateProjectRecord(tx.db, ctx.projectId, update, sealer);
    const fields = [
      ...Object.keys(update).filter((field) => field !== 'config'),
      ...Object.keys(update.config ?? {}).map((field) => `config.${field}`),
    ].sort();
    await record(tx, 'project.updated', { userId: null, data: { fields } });
    return project;
  });
}

/**
 * Deletes the context's project and everything in it. Its own log goes with
 * it, so the deletion is kept in the internal project's log (the operator's).
 */
export function deleteProject(ctx: ActionContext, displayName: string): Promise<void> {
  return act(ctx, async (tx) => {
    await deleteProjectRecord(tx.db, ctx.projectId);
    await record(tx, 'project.deleted', {
      userId: null,
      projectId: internalProjectId,
      data: { project_id: ctx.projectId, display_name: displayName },
    });
  });
}
