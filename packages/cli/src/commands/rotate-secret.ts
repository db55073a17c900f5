import { readFile, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseCommandArgs } from '../internal/args.js';
import type { CliContext } from '../internal/context.js';
import { lockDataDir } from '../internal/data-dir.js';
import { checkDatabaseUrl } from '../internal/database-url.js';
import { CliError } from '../internal/errors.js';
import { loadServer, openStorageOrFail, redactUrl } from '../internal/service.js';

const rotateSecretUsage = `Usage: latchkey rotate-secret [options]

Moves a database to a new master secret: re-seals its signing keys, the
secrets in project configs (OAuth client secrets, SMTP passwords) and the
provider tokens, in one transaction. Stop every instance first, run this,
then start them with LATCHKEY_SECRET set to the new secret; or run it while
they run with both secrets (LATCHKEY_ACCEPTED_SECRET, see docs/deploying.md).
Sessions and tokens stay valid; OAuth sign-ins in flight start again.

Options:
      --data-dir <dir>  the embedded database in this directory (its secret
                        file, when it holds the old secret, gets the new one)
                        instead of DATABASE_URL
      --schema <name>   PostgreSQL schema of the tables (default public)
  -h, --help            show this help

Environment:
  DATABASE_URL          PostgreSQL connection string (used without --data-dir)
  LATCHKEY_SECRET       the current master secret (with --data-dir: else the
                        directory's secret file)
  LATCHKEY_NEW_SECRET   the new one (generate it: openssl rand -base64 32)
`;

/** `latchkey rotate-secret`. */
export async function runRotateSecret(args: string[], context: CliContext): Promise<number> {
  const flags = parseCommandArgs('rotate-secret', args, {
    'data-dir': { type: 'string' },
    schema: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (flags.help) {
    context.stdout.write(rotateSecretUsage);
    return 0;
  }
  const dataDir = flags['data-dir'] === undefined ? undefined : resolve(context.cwd, flags['data-dir']);
  const databaseUrl = context.env.DATABASE_URL;
  if (!dataDir && !databaseUrl) throw new CliError('nothing to rotate: set DATABASE_URL or pass --data-dir');
  if (!dataDir) checkDatabaseUrl(databaseUrl!);
  const newSecret = context.env.LATCHKEY_NEW_SECRET;
  if (!newSecret) throw new CliError('LATCHKEY_NEW_SECRET is not set: generate one (openssl rand -base64 32)');
  const secretFile = dataDir ? join(dataDir, 'secret') : undefined;
  const fromFile = secretFile ? (await readFile(secretFile, 'utf8').catch(() => '')).trim() : '';
  const oldSecret = context.env.LATCHKEY_SECRET || fromFile;
  if (!oldSecret) throw new CliError('LATCHKEY_SECRET is not set: give the current master secret');

  const server = await loadServer();
  const weakness = server.secretWeakness(newSecret);
  if (weakness) throw new CliError(`LATCHKEY_NEW_SECRET is too weak: ${weakness}`);
  const lock = dataDir ? await lockDataDir(dataDir) : null;
  try {
    const storage = await openStorageOrFail(server, dataDir ? { dataDir } : { databaseUrl, schema: flags.schema });
    try {
      const moved = await server.rotateSecret(storage, oldSecret, newSecret).catch((error: unknown) => {
        if (error instanceof server.SecretMismatchError) {
          throw new CliError('LATCHKEY_SECRET is not the master secret of this database; nothing was changed');
        }
        throw error;
      });
      if (secretFile && fromFile === oldSecret) await writeFile(secretFile, `${newSecret}\n`, { mode: 0o600 });
      context.stderr.write(
        `Re-sealed ${moved.signingKeys} signing keys, ${moved.projectConfigs} project configs, ${moved.providerAccounts} provider accounts and ${moved.webhookEndpoints} webhook endpoints in ${dataDir ?? redactUrl(databaseUrl!)}; ${moved.oauthFlowsEnded} OAuth sign-ins in flight ended.\nStart the service with LATCHKEY_SECRET set to the new secret.\n`,
      );
      return 0;
    } finally {
      await storage.close();
    }
  } finally {
    await lock?.release();
  }
}
