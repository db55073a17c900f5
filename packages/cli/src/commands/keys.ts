import {
  type AdminTarget,
  type KeySet,
  type NewKeySet,
  openTarget,
  targetFlags,
  targetHelp,
} from '../internal/admin-target.js';
import { parseCommandLine, parseCount } from '../internal/args.js';
import type { CliContext } from '../internal/context.js';
import { UsageError } from '../internal/errors.js';
import { formatRows, formatTable, formatTime } from '../internal/format.js';

const keysUsage = `Usage: latchkey keys <list|create|revoke> [options]

Manages the API key sets of a project.

  latchkey keys list                     every key set, its keys' last four characters
  latchkey keys create [--client] [--server] [--admin]
                       [--description <text>] [--expires-in-days <n>]
                                         a new key set; its keys are shown this once
                                         (all three kinds unless some are named)
  latchkey keys revoke <key-set-id>      its keys stop working at once

${targetHelp}  -h, --help             show this help
`;

const flags = {
  ...targetFlags,
  client: { type: 'boolean' },
  server: { type: 'boolean' },
  admin: { type: 'boolean' },
  description: { type: 'string' },
  'expires-in-days': { type: 'string' },
} as const;

const kindColumns = [
  ['publishable_client_key', 'pck_'],
  ['secret_server_key', 'ssk_'],
  ['super_secret_admin_key', 'sak_'],
] as const;

/** `latchkey keys list|create|revoke`. */
export async function runKeys(args: string[], context: CliContext): Promise<number> {
  const { flags: values, positionals } = parseCommandLine('keys', args, flags, 2);
  const [action, operand] = positionals;
  if (values.help || action === undefined) {
    (values.help ? context.stdout : context.stderr).write(keysUsage);
    return values.help ? 0 : 2;
  }
  if (action !== 'list' && action !== 'create' && action !== 'revoke') {
    throw new UsageError(`unknown action "${action}": use list, create or revoke`, 'keys');
  }
  if (action === 'revoke' && !operand) throw new UsageError('revoke needs the key set id', 'keys');
  if (action !== 'revoke' && operand) throw new UsageError(`unexpected argument "${operand}"`, 'keys');
  const onlyCreate = ['client', 'server', 'admin', 'description', 'expires-in-days'] as const;
  const stray = onlyCreate.find((name) => values[name] !== undefined);
  if (action !== 'create' && stray) throw new UsageError(`--${stray} goes with \`keys create\``, 'keys');

  const days = values['expires-in-days'];
  const expiresInDays =
    days === undefined ? undefined : parseCount('keys', 'expires-in-days', days, { min: 1, max: 36_500 }, 0);

  const target = await openTarget('keys', values, context);
  try {
    if (action === 'list') {
      const sets = await target.listKeySets();
      context.stdout.write(
        values.json ? `${JSON.stringify({ items: sets, is_paginated: false })}\n` : keySetTable(sets),
      );
    } else if (action === 'create') {
      const created = await create(target, values, expiresInDays);
      context.stdout.write(values.json ? `${JSON.stringify(created)}\n` : newKeySetText(created, target.projectId));
    } else {
      const revoked = await target.revokeKeySet(operand!);
      context.stdout.write(
        values.json ? `${JSON.stringify(revoked)}\n` : `Revoked key set ${revoked.id}: its keys no longer work.\n`,
      );
    }
  } finally {
    await target.close();
  }
  return 0;
}

async function create(
  target: AdminTarget,
  values: { client?: boolean; server?: boolean; admin?: boolean; description?: string },
  expiresInDays: number | undefined,
): Promise<NewKeySet> {
  const named = values.client || values.server || values.admin;
  return target.createKeySet({
    description: values.description ?? '',
    ...(expiresInDays !== undefined ? { expiresAtMillis: Date.now() + expiresInDays * 86_400_000 } : {}),
    publishableClientKey: named ? values.client === true : true,
    secretServerKey: named ? values.server === true : true,
    superSecretAdminKey: named ? values.admin === true : true,
  });
}

function status(set: KeySet): string {
  if (set.manually_revoked_at_millis !== undefined) return 'revoked';
  return set.expires_at_millis <= Date.now() ? 'expired' : 'valid';
}

/** The key sets as a table; the keys as their prefix and last four characters. */
function keySetTable(sets: readonly KeySet[]): string {
  if (sets.length === 0) return 'No key sets.\n';
  const rows = sets.map((set) => [
    set.id,
    status(set),
    kindColumns
      .map(([field, prefix]) => (set[field] ? `${prefix}…${set[field].last_four}` : ''))
      .filter(Boolean)
      .join(' '),
    formatTime(set.created_at_millis),
    formatTime(set.expires_at_millis),
    set.description,
  ]);
  return formatTable(['ID', 'STATUS', 'KEYS', 'CREATED (UTC)', 'EXPIRES (UTC)', 'DESCRIPTION'], rows);
}

function newKeySetText(created: NewKeySet, projectId: string): string {
  const rows: Array<[string, string]> = [
    ['Project ID', projectId],
    ['Key set ID', created.id],
  ];
  if (created.publishable_client_key) rows.push(['Publishable client key', created.publishable_client_key]);
  if (created.secret_server_key) rows.push(['Secret server key', created.secret_server_key]);
  if (created.super_secret_admin_key) rows.push(['Super secret admin key', created.super_secret_admin_key]);
  rows.push(['Expires (UTC)', formatTime(created.expires_at_millis)]);
  return `${formatRows(rows)}\nThese keys are shown this once: store them now. Keep the secret server key and the admin key out of browser code.\n`;
}
