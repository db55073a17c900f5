import { resolve } from 'node:path';
import { parseCommandArgs } from '../internal/args.js';
import type { CliContext } from '../internal/context.js';
import { ensureDataDir, lockDataDir } from '../internal/data-dir.js';
import { checkDatabaseUrl } from '../internal/database-url.js';
import { CliError } from '../internal/errors.js';
import { createLogger, logLevel } from '../internal/logger.js';
import { loadServer, openStorageOrFail, redactUrl } from '../internal/service.js';

const migrateUsage = `Usage: latchkey migrate [options]

Applies pending database migrations and exits.

Options:
      --data-dir <dir>  migrate the embedded database in this directory
                        instead of DATABASE_URL
      --schema <name>   PostgreSQL schema of the tables (default public)
  -h, --help            show this help

Environment:
  DATABASE_URL          PostgreSQL connection string (used without --data-dir)
  LATCHKEY_LOG_LEVEL    level of the JSON log on stderr (default warn)
`;

/** `latchkey migrate`: opening the storage applies the migrations. */
export async function runMigrate(args: string[], context: CliContext): Promise<number> {
  const flags = parseCommandArgs('migrate', args, {
    'data-dir': { type: 'string' },
    schema: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (flags.help) {
    context.stdout.write(migrateUsage);
    return 0;
  }
  const level = logLevel(context.env.LATCHKEY_LOG_LEVEL, 'warn', 'migrate');
  const dataDir = flags['data-dir'] === undefined ? undefined : resolve(context.cwd, flags['data-dir']);
  const databaseUrl = context.env.DATABASE_URL;
  if (!dataDir && !databaseUrl) {
    throw new CliError('nothing to migrate: set DATABASE_URL or pass --data-dir');
  }
  if (!dataDir) checkDatabaseUrl(databaseUrl!);
  const logger = createLogger({ level, fallback: 'warn', to: 'stderr' });
  const where = dataDir ?? redactUrl(databaseUrl!);
  logger.info({ database: where }, 'migrating');
  const server = await loadServer();
  if (dataDir) {
    await ensureDataDir(dataDir);
    const lock = await lockDataDir(dataDir);
    try {
      await (await openStorageOrFail(server, { dataDir })).close();
    } finally {
      await lock.release();
    }
  } else {
    await (await openStorageOrFail(server, { databaseUrl, schema: flags.schema })).close();
  }
  logger.info({ database: where }, 'migrated');
  context.stderr.write(`Migrations applied to ${where}\n`);
  return 0;
}
