import type { NewKeySet } from '../internal/admin-target.js';
import { parseCommandLine } from '../internal/args.js';
import type { CliContext } from '../internal/context.js';
import { CliError, UsageError } from '../internal/errors.js';
import { formatRows, formatTable, formatTime } from '../internal/format.js';
import { rethrowKnown } from '../internal/local-storage.js';
import { localFlags, localHelp, openLocal } from '../internal/local-target.js';
import type { ServerModule } from '../internal/service.js';

const projectsUsage = `Usage: latchkey projects <list|create> [options]

Lists and creates projects.

  latchkey projects list                 every project (the internal one aside)
  latchkey projects create --name <name> [--owner <address>]
                                         a project with a full key set, shown this
                                         once; --owner makes that owner (see
                                         \`latchkey owners create\`) its owner

Options:
  -h, --help             show this help

${localHelp}
`;

const flags = {
  ...localFlags,
  name: { type: 'string' },
  owner: { type: 'string' },
} as const;

type ProjectSummary = Awaited<ReturnType<ServerModule['listProjects']>>[number];

/** `latchkey projects list|create`. */
export async function runProjects(args: string[], context: CliContext): Promise<number> {
  const { flags: values, positionals } = parseCommandLine('projects', args, flags, 1);
  const [action] = positionals;
  if (values.help || action === undefined) {
    (values.help ? context.stdout : context.stderr).write(projectsUsage);
    return values.help ? 0 : 2;
  }
  if (action !== 'list' && action !== 'create') {
    throw new UsageError(`unknown action "${action}": use list or create`, 'projects');
  }
  if (action === 'list') {
    const stray = (['name', 'owner'] as const).find((name) => values[name] !== undefined);
    if (stray) throw new UsageError(`--${stray} goes with \`projects create\``, 'projects');
  }
  if (action === 'create' && !values.name?.trim()) throw new UsageError('create needs --name <name>', 'projects');

  const local = await openLocal('projects', values, context);
  const { server, storage } = local;
  try {
    if (action === 'list') {
      const items = await server.listProjects(storage);
      context.stdout.write(values.json ? `${JSON.stringify({ items, is_paginated: false })}\n` : projectTable(items));
      return 0;
    }
    const owner = values.owner === undefined ? null : await server.findOwner(storage, values.owner);
    if (values.owner !== undefined && !owner) {
      throw new CliError(
        `no owner signs in with ${values.owner}: create one with \`latchkey owners create --email ${values.owner}\``,
      );
    }
    const record = await server.createProject(storage, { displayName: values.name!.trim() }).catch(rethrowKnown);
    if (owner) await server.addProjectOwner(storage, record.id, owner.id);
    const keySet: NewKeySet = server.apiKeySetFirstView(
      await server.createApiKeySet(storage, record.id, { description: 'Created with the project' }),
    );
    const project = (await server.listProjects(storage)).find((item) => item.id === record.id)!;
    const answer = { project, owner_email: owner?.primary_email ?? null, key_set: keySet };
    context.stdout.write(values.json ? `${JSON.stringify(answer)}\n` : newProjectText(answer));
  } finally {
    await local.close();
  }
  return 0;
}

/** Projects as a table. */
function projectTable(projects: readonly ProjectSummary[]): string {
  if (projects.length === 0) return 'No projects.\n';
  const rows = projects.map((project) => [
    project.id,
    project.is_production_mode ? 'yes' : 'no',
    formatTime(project.created_at_millis),
    project.display_name,
  ]);
  return formatTable(['ID', 'PRODUCTION', 'CREATED (UTC)', 'NAME'], rows);
}

function newProjectText(answer: { project: ProjectSummary; owner_email: string | null; key_set: NewKeySet }): string {
  const { project, key_set: keys } = answer;
  const rows: Array<[string, string]> = [
    ['Project ID', project.id],
    ['Name', project.display_name],
    ['Owner', answer.owner_email ?? '(none)'],
    ['Key set ID', keys.id],
    ['Publishable client key', keys.publishable_client_key ?? ''],
    ['Secret server key', keys.secret_server_key ?? ''],
    ['Super secret admin key', keys.super_secret_admin_key ?? ''],
    ['Expires (UTC)', formatTime(keys.expires_at_millis)],
  ];
  return `${formatRows(rows)}\nThese keys are shown this once: store them now. Keep the secret server key and the admin key out of browser code.\n`;
}
