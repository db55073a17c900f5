/**
 * `GET /projects/current` (client view for client and server access, admin
 * view for admin access) and the public JWKS of a project.
 */
import { KnownError } from '@latchkey/protocol';
import type { Hono } from 'hono';
import { requireAccess } from '../access/request-auth.js';
import { hasNul } from '../http/body.js';
import type { AppEnv, Deps } from '../http/env.js';
import { jsonResponse } from '../http/responses.js';
import { adminProjectView, clientProjectView, countUsers, findProject } from './project-store.js';

export function registerProjectRoutes(api: Hono<AppEnv>, deps: Deps): void {
  const { db } = deps.storage;

  api.get('/projects/current', requireAccess(deps, 'client'), async (c) => {
    const { accessType, project } = c.get('auth');
    if (accessType !== 'admin') return jsonResponse(clientProjectView(project));
    return jsonResponse(adminProjectView(project, await countUsers(db, project.id)));
  });

  api.get('/projects/:projectId/.well-known/jwks.json', async (c) => {
    const projectId = c.req.param('projectId');
    if (hasNul(projectId) || !(await findProject(db, projectId)))
      throw new KnownError('PROJECT_NOT_FOUND', { project_id: projectId });
    return jsonResponse({ keys: await deps.signingKeys.publicJwks(projectId) });
  });
}
