/** `GET /projects/current`: the client view for client and server access, the admin view for admin access. */
import { defineRoute, type Route } from '../http/route.js';
import { projectViews } from './project-views.js';

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

export const projectRoutes: Route[] = [getCurrentProject];
