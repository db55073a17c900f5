/** `GET /projects/current` (spec §7), and the project as a query of `ClientApp`. */
import type { Send } from '../internal/core.js';
import type { ClientQuery } from '../users/account-data.js';
import { decodeClientProject, type Project } from './project-decoder.js';

/** The project's client view. */
function fetchCurrentProject(send: Send): Promise<Project> {
  return send({ method: 'GET', path: '/projects/current' }, decodeClientProject);
}

/**
 * The project's public settings, loaded with the publishable key, as a query
 * of `ClientApp` (also `app.load('project')`).
 *
 * @example
 * ```ts
 * const { config } = await app.load(projectQuery);
 * ```
 */
export const projectQuery: ClientQuery<Project> = {
  key: ['project'],
  load: (scope) => fetchCurrentProject(scope.sendAsApp),
};
