/** `GET /projects/current` (spec §7). */
import type { Send } from '../internal/core.js';
import { decodeClientProject, type Project } from './project-decoder.js';

/** The project's client view. */
export function fetchCurrentProject(send: Send): Promise<Project> {
  return send({ method: 'GET', path: '/projects/current' }, decodeClientProject);
}
