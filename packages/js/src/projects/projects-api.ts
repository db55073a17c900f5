/** `GET /projects/current` (spec §7). */
import type { ClientProjectWire } from '@latchkey/protocol';
import type { Send } from '../internal/http/request.js';
import { mapClientProject, type Project } from './project-mapper.js';

export async function fetchCurrentProject(send: Send): Promise<Project> {
  return mapClientProject((await send({ method: 'GET', path: '/projects/current' })) as ClientProjectWire);
}
