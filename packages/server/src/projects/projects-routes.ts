/**
 * The project of the request (wire-protocol §14.7, §15.6): `GET` for every
 * access type (the client view, or the admin view with admin access), and
 * for admin access `PATCH` (names, production mode, config: lists replace
 * wholesale, unknown config keys are refused, omitted secrets are kept) and
 * `DELETE` (the project and everything in it).
 */
import { KnownError } from '@latchkey/protocol';
import { z } from 'zod';
import { successAnswer } from '../common/schemas.js';
import { listStoredTemplates } from '../email-templates/email-template-store.js';
import { requestContext } from '../events/recorder.js';
import { StatusRefusal } from '../http/responses.js';
import { defineRoute, type Route } from '../http/route.js';
import { findDefinition } from '../permissions/definition-store.js';
import { projectConfigPatchSchema } from './project-config.js';
import { projectViews } from './project-views.js';
import { deleteProject, updateProject } from './projects-actions.js';

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
  // A domain named twice (`mergeConfig`); the shared sender while edited templates exist.
  refusals: [400],
  handler: async (input) => {
    const { auth, body, deps } = input;
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
    // Edited templates would go out through the operator's server, which edits there are refused for
    // (`email-templates-routes.ts`), unless shared mail stays in the dev mailbox.
    if (
      config.email_config?.type === 'shared' &&
      !deps.sharedMailStaysLocal &&
      (await listStoredTemplates(deps.db, auth.project.id)).size > 0
    ) {
      throw new StatusRefusal(
        400,
        'Cannot change email service type to shared when custom templates are defined. Disable custom templates ' +
          'first, before changing the email service type.',
      );
    }
    return updateProject(requestContext(input), body, deps.configSealer);
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
  handler: async (input) => {
    await deleteProject(requestContext(input), input.auth.project.displayName);
    return { success: true as const };
  },
});

export const projectRoutes: Route[] = [getCurrentProject, updateCurrentProject, deleteCurrentProject];
