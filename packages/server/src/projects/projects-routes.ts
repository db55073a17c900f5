/**
 * The project of the request (wire-protocol §14.7, §15.6): `GET` for every
 * access type (the client view, or the admin view with admin access), and
 * for admin access `PATCH` (names, production mode, config: lists replace
 * wholesale, unknown config keys are refused, omitted secrets are kept) and
 * `DELETE` (the project and everything in it).
 */
import { internalProjectId, KnownError } from '@latchkey/protocol';
import { z } from 'zod';
import { audit } from '../audit/audit-log.js';
import { successAnswer } from '../common/schemas.js';
import { defineRoute, type Route } from '../http/route.js';
import { findDefinition } from '../permissions/definition-store.js';
import { inTransaction } from '../storage/db.js';
import { projectConfigPatchSchema } from './project-config.js';
import { projectViews } from './project-views.js';
import { deleteProject, updateProject } from './projects.js';

/** The admin project-update body (wire-protocol §15.6); every key optional. */
export const projectUpdateBody = z.strictObject({
  display_name: z.string().min(1).max(256).optional(),
  description: z.string().max(4096).nullable().optional(),
  is_production_mode: z.boolean().optional(),
  config: projectConfigPatchSchema.optional(),
});

const getCurrentProject = defineRoute({
  method: 'GET',
  path: '/projects/current',
  tag: 'projects',
  summary: 'The project of the request: its sign-in settings, or everything with admin access.',
  access: 'client',
  answer: projectViews,
  errors: [],
  handler: async ({ auth }) => auth.project,
});

const updateCurrentProject = defineRoute({
  method: 'PATCH',
  path: '/projects/current',
  tag: 'projects',
  summary:
    'Changes the project: names, production mode (refused while a production-mode check fails) and config; ' +
    'lists replace the stored ones, and a standard provider or SMTP config sent without its secret keeps the stored one.',
  access: 'admin',
  body: projectUpdateBody,
  answer: projectViews,
  errors: ['PERMISSION_NOT_FOUND'],
  handler: async ({ auth, body, client, deps }) => {
    const config = body.config ?? {};
    const defaults = [
      ...(config.team_creator_default_permissions ?? []),
      ...(config.team_member_default_permissions ?? []),
    ];
    for (const { id } of defaults) {
      if (!(await findDefinition(deps.db, auth.project.id, id))) {
        throw new KnownError('PERMISSION_NOT_FOUND', { permission_id: id });
      }
    }
    const project = await inTransaction(deps.db, async (trx) => {
      const project = await updateProject(trx, auth.project.id, body, deps.configSealer);
      // The names of what changed, never the values (the config holds provider and SMTP secrets).
      const fields = [
        ...Object.keys(body).filter((field) => field !== 'config'),
        ...Object.keys(config).map((field) => `config.${field}`),
      ].sort();
      await audit(trx, { auth, client, deps }, 'project.updated', { userId: null, data: { fields } });
      return project;
    });
    deps.changes.publishLocal(project.id);
    return project;
  },
});

const deleteCurrentProject = defineRoute({
  method: 'DELETE',
  path: '/projects/current',
  tag: 'projects',
  summary:
    'Deletes the project and everything in it: users, sessions, keys, signing keys. The internal project cannot be deleted.',
  access: 'admin',
  answer: successAnswer,
  errors: [],
  handler: async ({ auth, client, deps }) => {
    await inTransaction(deps.db, async (trx) => {
      await deleteProject(trx, auth.project.id);
      // The project's own log goes with it: the deletion is kept in the internal project's, the operator's.
      await audit(trx, { auth, client, deps, projectId: internalProjectId }, 'project.deleted', {
        userId: null,
        data: { project_id: auth.project.id, display_name: auth.project.displayName },
      });
    });
    deps.changes.publishLocal(auth.project.id);
    return { success: true as const };
  },
});

export const projectRoutes: Route[] = [getCurrentProject, updateCurrentProject, deleteCurrentProject];
