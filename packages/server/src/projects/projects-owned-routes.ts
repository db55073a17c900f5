/**
 * Owned projects (wire-protocol §7.1): on the `internal` project only, the
 * signed-in user lists the projects they own and creates new ones, in the
 * admin view (client access, as the dashboard's SDK calls them). A new project
 * has no key set: its owner reaches it with their access token as an admin
 * access token (§7.2) and creates keys there if an application needs them.
 */
import { internalProjectId, KnownError } from '@latchkey/protocol';
import { z } from 'zod';
import { requestContext } from '../events/recorder.js';
import { defineRoute, defineViews, type Route } from '../http/route.js';
import { adminProjectSchema, adminProjectView } from './project-views.js';
import { listOwnedProjects, type ProjectRecord } from './projects.js';
import { createOwnedProject } from './projects-actions.js';
import { projectUpdateBody } from './projects-routes.js';

/** Admin views whatever the access type: the caller owns these projects. */
const ownedProjectViews = defineViews<ProjectRecord>({
  client: { schema: adminProjectSchema, render: adminProjectView },
});

const ownedProjectListViews = defineViews<ProjectRecord[]>({
  client: {
    schema: z
      .object({ items: z.array(adminProjectSchema), is_paginated: z.literal(false) })
      .meta({ id: 'OwnedProjectList' }),
    render: async (projects, context) => ({
      items: await Promise.all(projects.map((project) => adminProjectView(project, context))),
      is_paginated: false as const,
    }),
  },
});

function requireInternal(projectId: string): void {
  if (projectId !== internalProjectId) throw new KnownError('EXPECTED_INTERNAL_PROJECT');
}

const listOwned = defineRoute({
  method: 'GET',
  path: '/internal/projects',
  tag: 'owned-projects',
  summary: 'The projects the signed-in dashboard user owns, in the admin view (internal project only).',
  access: 'client',
  user: true,
  signedOutError: 'USER_AUTHENTICATION_REQUIRED',
  answer: ownedProjectListViews,
  errors: ['EXPECTED_INTERNAL_PROJECT'],
  handler: async ({ auth, userId, deps }) => {
    requireInternal(auth.project.id);
    return listOwnedProjects(deps.db, userId);
  },
});

const createOwned = defineRoute({
  method: 'POST',
  path: '/internal/projects',
  tag: 'owned-projects',
  summary: 'Creates a project owned by the signed-in dashboard user, with no key set (internal project only).',
  access: 'client',
  user: true,
  signedOutError: 'USER_AUTHENTICATION_REQUIRED',
  body: projectUpdateBody.extend({ display_name: z.string().min(1).max(256) }),
  answer: ownedProjectViews,
  status: 201,
  errors: ['EXPECTED_INTERNAL_PROJECT', 'PROJECT_LIMIT_REACHED'],
  // A domain named twice (`mergeConfig`).
  refusals: [400],
  handler: async (input) => {
    const { auth, body, deps } = input;
    requireInternal(auth.project.id);
    // Outside development a new project trusts only the domains its owner adds, not any page on localhost,
    // and mails its users when their account signs in from a browser it has not used.
    const config = { allow_localhost: deps.development, new_device_alert_enabled: !deps.development, ...body.config };
    return createOwnedProject(
      requestContext(input),
      {
        displayName: body.display_name,
        description: body.description ?? '',
        isProductionMode: body.is_production_mode ?? false,
        config,
      },
      deps.configSealer,
      deps.maxProjectsPerOwner,
    );
  },
});

export const ownedProjectRoutes: Route[] = [listOwned, createOwned];
