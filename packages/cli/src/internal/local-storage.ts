/**
 * The database an admin command opens itself: `--data-dir DIR` (the embedded
 * database, locked meanwhile), else `DATABASE_URL` (PostgreSQL, `--schema`),
 * else the default data directory `.latchkey`. Opening ensures the internal
 * project exists (as `latchkey start` does), so owners can be created before
 * the first start. The work goes through the `@latchkey/server` operations;
 * no SQL here.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import type { CliContext } from './context.js';
import { lockDataDir } from './data-dir.js';
import { checkDatabaseUrl, redactUrl } from './database-url.js';
import { CliError, UsageError } from './errors.js';
import { loadServer, openStorageOrFail, type ServerModule, type Storage } from './service.js';

export interface LocalStorage {
  server: ServerModule;
  storage: Storage;
  /** Where the data lives, printable (the password of a URL hidden). */
  where: string;
  /** True for an embedded data directory, false for `DATABASE_URL`. */
  embedded: boolean;
  close(): Promise<void>;
}

/** Opens the database the flags and the environment name (see the module header). */
export async function openLocalStorage(
  command: string,
  flags: { 'data-dir'?: string; schema?: string },
  context: CliContext,
  logger: Logger,
): Promise<LocalStorage> {
  const databaseUrl = flags['data-dir'] === undefined ? context.env.DATABASE_URL : undefined;
  if (databaseUrl) {
    checkDatabaseUrl(databaseUrl);
    const server = await loadServer();
    const storage = await openStorageOrFail(server, {
      databaseUrl,
      ...(flags.schema !== undefined ? { schema: flags.schema } : {}),
    });
    const where = redactUrl(databaseUrl);
    try {
      await server.bootstrap(storage, { dev: false });
    } catch (error) {
      await storage.close();
      throw error;
    }
    logger.info({ database: where }, 'opened');
    return { server, storage, where, embedded: false, close: () => storage.close() };
  }
  if (flags.schema !== undefined) throw new UsageError('--schema goes with DATABASE_URL, not --data-dir', command);
  const dataDir = resolve(context.cwd, flags['data-dir'] ?? '.latchkey');
  if (!existsSync(join(dataDir, 'pglite'))) {
    throw new CliError(
      `no embedded database in ${dataDir}: run \`latchkey dev\` or \`latchkey migrate --data-dir\` there first, pass --data-dir, or set DATABASE_URL`,
    );
  }
  const lock = await lockDataDir(dataDir);
  const server = await loadServer();
  let storage: Storage | undefined;
  try {
    storage = await openStorageOrFail(server, { dataDir });
    await server.bootstrap(storage, { dev: false });
  } catch (error) {
    await storage?.close();
    await lock.release();
    throw error;
  }
  logger.info({ database: dataDir }, 'opened');
  return {
    server,
    storage,
    where: dataDir,
    embedded: true,
    async close() {
      await storage.close();
      await lock.release();
    },
  };
}

/** A known error from the operations (USER_EMAIL_ALREADY_EXISTS...), as one line; anything else as it is. */
export function rethrowKnown(error: unknown): never {
  const known = error as { code?: unknown; message?: unknown; details?: { message?: unknown } };
  if (typeof known.code === 'string' && /^[A-Z_]+$/.test(known.code)) {
    const text = typeof known.details?.message === 'string' ? known.details.message : known.message;
    const detail = typeof text === 'string' && text !== '' && text !== known.code ? `: ${text}` : '';
    throw new CliError(`${known.code}${detail}`);
  }
  throw error;
}
