/** `GET /projects/current` (spec §7), and the project as app data. */
import type { DataQuery } from '../internal/cache/data-store.js';
import type { Send } from '../internal/core.js';
import { decodeClientProject, type Project } from './project-decoder.js';

/** The project's client view. */
function fetchCurrentProject(send: Send): Promise<Project> {
  return send({ method: 'GET', path: '/projects/current' }, decodeClientProject);
}

/** The project as app data (`'project'` in the cache), loaded with `send`'s credentials. */
export function currentProjectQuery(send: Send): DataQuery<Project> {
  return { key: 'project', load: () => fetchCurrentProject(send) };
}
