/**
 * For commands that work on one project of a database they open themselves
 * (`import`, `export`): the project the flags name, and the master secret
 * that seals what is sealed at rest.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { CliContext } from './context.js';
import { CliError } from './errors.js';
import type { LocalStorage } from './local-storage.js';

/** `--project`, or on a data directory the development project; a `CliError` when there is none. */
export async function openProject(local: LocalStorage, project: string | undefined): Promise<string> {
  const projectId = project ?? (local.embedded ? await local.server.findDevProject(local.storage) : null);
  if (!projectId) {
    throw new CliError(
      local.embedded
        ? `${local.where} has no development project: pass --project <id>`
        : 'with DATABASE_URL, pass --project <id>',
    );
  }
  const known = await local.server.listProjects(local.storage);
  if (!known.some((summary) => summary.id === projectId))
    throw new CliError(`no project "${projectId}" in ${local.where}`);
  return projectId;
}

/** LATCHKEY_SECRET, else (on a data directory) the directory's secret file; undefined when neither. */
export async function secretOf(local: LocalStorage, context: CliContext): Promise<string | undefined> {
  if (context.env.LATCHKEY_SECRET) return context.env.LATCHKEY_SECRET;
  if (!local.embedded) return undefined;
  const saved = await readFile(join(local.where, 'secret'), 'utf8').catch(() => '');
  return saved.trim() || undefined;
}
