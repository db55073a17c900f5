import { randomBytes } from 'node:crypto';
import { parseCommandLine } from '../internal/args.js';
import type { CliContext } from '../internal/context.js';
import { UsageError } from '../internal/errors.js';
import { formatRows } from '../internal/format.js';
import { rethrowKnown } from '../internal/local-storage.js';
import { localFlags, localHelp, openLocal } from '../internal/local-target.js';

const ownersUsage = `Usage: latchkey owners create --email <address> [--password <password>]

Creates an owner: a user of the internal project who can own projects
(\`latchkey projects create --owner <address>\`) and sign in to the dashboard.
Without --password one is generated and printed this once.

Options:
  -h, --help             show this help

${localHelp}
`;

const flags = {
  ...localFlags,
  email: { type: 'string' },
  password: { type: 'string' },
} as const;

/** `latchkey owners create`. */
export async function runOwners(args: string[], context: CliContext): Promise<number> {
  const { flags: values, positionals } = parseCommandLine('owners', args, flags, 1);
  const [action] = positionals;
  if (values.help || action === undefined) {
    (values.help ? context.stdout : context.stderr).write(ownersUsage);
    return values.help ? 0 : 2;
  }
  if (action !== 'create') throw new UsageError(`unknown action "${action}": use create`, 'owners');
  if (!values.email) throw new UsageError('create needs --email <address>', 'owners');
  const generated = values.password === undefined ? randomBytes(18).toString('base64url') : undefined;
  const password = values.password ?? generated!;

  const local = await openLocal('owners', values, context);
  try {
    const owner = await local.server.createOwner(local.storage, { email: values.email, password }).catch(rethrowKnown);
    if (values.json) {
      context.stdout.write(`${JSON.stringify({ owner, ...(generated ? { password: generated } : {}) })}\n`);
    } else {
      const rows: Array<[string, string]> = [
        ['Owner ID', owner.id],
        ['E-mail', owner.primary_email ?? values.email],
      ];
      if (generated) rows.push(['Password', generated]);
      context.stdout.write(
        `Created an owner in ${local.where}.\n\n${formatRows(rows)}` +
          (generated ? '\nThis password is shown this once: store it now.\n' : ''),
      );
    }
  } finally {
    await local.close();
  }
  return 0;
}
