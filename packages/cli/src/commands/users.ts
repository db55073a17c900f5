import { openTarget, targetFlags, targetHelp, type User } from '../internal/admin-target.js';
import { parseCommandLine, parseCount } from '../internal/args.js';
import type { CliContext } from '../internal/context.js';
import { UsageError } from '../internal/errors.js';
import { formatTable, formatTime } from '../internal/format.js';

const usersUsage = `Usage: latchkey users <list|create> [options]

Lists and creates the users of a project.

  latchkey users list [--query <text>] [--limit <n>] [--cursor <id>]
                                     users in sign-up order (default 100 a page)
  latchkey users create --email <address> [--password <password>]
                        [--display-name <name>] [--verified]
                                     a user who signs in with that e-mail

${targetHelp}  -h, --help             show this help
`;

const flags = {
  ...targetFlags,
  query: { type: 'string' },
  limit: { type: 'string' },
  cursor: { type: 'string' },
  email: { type: 'string' },
  password: { type: 'string' },
  'display-name': { type: 'string' },
  verified: { type: 'boolean' },
} as const;

const listOnly = ['query', 'limit', 'cursor'] as const;
const createOnly = ['email', 'password', 'display-name', 'verified'] as const;

/** `latchkey users list|create`. */
export async function runUsers(args: string[], context: CliContext): Promise<number> {
  const { flags: values, positionals } = parseCommandLine('users', args, flags, 1);
  const [action] = positionals;
  if (values.help || action === undefined) {
    (values.help ? context.stdout : context.stderr).write(usersUsage);
    return values.help ? 0 : 2;
  }
  if (action !== 'list' && action !== 'create')
    throw new UsageError(`unknown action "${action}": use list or create`, 'users');
  const stray = (action === 'list' ? createOnly : listOnly).find((name) => values[name] !== undefined);
  if (stray) throw new UsageError(`--${stray} does not go with \`users ${action}\``, 'users');
  if (action === 'create' && !values.email) throw new UsageError('create needs --email <address>', 'users');
  const limit = parseCount('users', 'limit', values.limit, { min: 1, max: 1000 }, 100);

  const target = await openTarget('users', values, context);
  try {
    if (action === 'list') {
      const page = await target.listUsers({
        limit,
        ...(values.cursor ? { cursor: values.cursor } : {}),
        ...(values.query ? { query: values.query } : {}),
      });
      if (values.json) {
        const answer = { items: page.items, is_paginated: true, pagination: { next_cursor: page.nextCursor } };
        context.stdout.write(`${JSON.stringify(answer)}\n`);
      } else {
        context.stdout.write(userTable(page.items));
        if (page.nextCursor) context.stderr.write(`More users: add --cursor ${page.nextCursor}\n`);
      }
    } else {
      const user = await target.createUser({
        email: values.email!,
        verified: values.verified === true,
        ...(values.password !== undefined ? { password: values.password } : {}),
        ...(values['display-name'] !== undefined ? { displayName: values['display-name'] } : {}),
      });
      context.stdout.write(values.json ? `${JSON.stringify(user)}\n` : userTable([user]));
    }
  } finally {
    await target.close();
  }
  return 0;
}

/** Users as a table. */
function userTable(users: readonly User[]): string {
  if (users.length === 0) return 'No users.\n';
  const rows = users.map((user) => [
    user.id,
    user.primary_email ?? '-',
    user.primary_email_verified ? 'yes' : 'no',
    user.has_password ? 'yes' : 'no',
    formatTime(user.signed_up_at_millis),
    formatTime(user.last_active_at_millis),
    user.display_name ?? '',
  ]);
  return formatTable(['ID', 'E-MAIL', 'VERIFIED', 'PASSWORD', 'SIGNED UP (UTC)', 'LAST ACTIVE (UTC)', 'NAME'], rows);
}
