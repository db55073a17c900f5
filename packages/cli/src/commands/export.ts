import { parseCommandLine } from '../internal/args.js';
import type { CliContext } from '../internal/context.js';
import { CliError } from '../internal/errors.js';
import { localFlags, localHelp, openLocal } from '../internal/local-target.js';
import { openProject, secretOf } from '../internal/project-storage.js';

const exportUsage = `Usage: latchkey export [options] > users.jsonl

Writes a project's teams and users (e-mail addresses, password hashes, OAuth
accounts, teams and memberships, metadata) to stdout in the generic
latchkey-users format, which \`latchkey import --from latchkey\` reads back.
See docs/guides/import-export.md.

      --project <id>       the project (default with --data-dir: the
                           development project; required with DATABASE_URL)
      --include-secrets    TOTP secrets too, opened with the master secret
                           (keep the file as safe as the database)
${localHelp.replace(/ {6}--json .*\n/, '')}  LATCHKEY_SECRET          master secret, for --include-secrets (with --data-dir:
                           else the directory's secret file)
  -h, --help               show this help
`;

const flags = {
  ...localFlags,
  project: { type: 'string' },
  'include-secrets': { type: 'boolean' },
} as const;

/** `latchkey export`. */
export async function runExport(args: string[], context: CliContext): Promise<number> {
  const { flags: values } = parseCommandLine('export', args, flags, 0);
  if (values.help) {
    context.stdout.write(exportUsage);
    return 0;
  }
  const local = await openLocal('export', values, context);
  try {
    const projectId = await openProject(local, values.project);
    const secret = values['include-secrets'] ? await secretOf(local, context) : undefined;
    if (values['include-secrets'] && !secret) {
      throw new CliError('--include-secrets needs the master secret: set LATCHKEY_SECRET');
    }
    const stdout = context.stdout as {
      write(text: string): unknown;
      once?: (event: 'drain', f: () => void) => unknown;
    };
    let chunk = '';
    let users = 0;
    const flush = async () => {
      const full = stdout.write(chunk) === false;
      chunk = '';
      if (full && stdout.once) await new Promise<void>((done) => stdout.once!('drain', done));
    };
    for await (const record of local.server.exportUsers(local.storage, projectId, {
      includeSecrets: values['include-secrets'] === true,
      ...(secret ? { secret } : {}),
    })) {
      if (record.type === 'user') users++;
      chunk += `${JSON.stringify(record)}\n`;
      if (chunk.length > 1 << 20) await flush();
    }
    if (chunk) await flush();
    context.stderr.write(`Exported ${users} users of ${projectId}.\n`);
    return 0;
  } finally {
    await local.close();
  }
}
