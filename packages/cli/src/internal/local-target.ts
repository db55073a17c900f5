/**
 * The flags and opening shared by `latchkey owners` and `latchkey projects`,
 * which act on a database directly (no running service needed): `--data-dir`,
 * else `DATABASE_URL` with `--schema`, else `.latchkey`.
 */
import type { CliContext } from './context.js';
import { type LocalStorage, openLocalStorage } from './local-storage.js';
import { createLogger, logLevel } from './logger.js';

export const localFlags = {
  'data-dir': { type: 'string' },
  schema: { type: 'string' },
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** The help's "Where" and "Environment" sections. */
export const localHelp = `Where (default: DATABASE_URL when set, else --data-dir .latchkey):
      --data-dir <dir>   an embedded database (stop \`latchkey dev\` on it first)
      --schema <name>    with DATABASE_URL: the PostgreSQL schema (default public)
      --json             print JSON instead of text

Environment:
  DATABASE_URL           PostgreSQL connection string (used without --data-dir)
  LATCHKEY_LOG_LEVEL     level of the JSON log on stderr (default warn)
`;

/** Checks `LATCHKEY_LOG_LEVEL`, then opens the database the flags name. */
export async function openLocal(
  command: string,
  flags: { 'data-dir'?: string; schema?: string },
  context: CliContext,
): Promise<LocalStorage> {
  const level = logLevel(context.env.LATCHKEY_LOG_LEVEL, 'warn', command);
  const logger = createLogger({ level, fallback: 'warn', to: 'stderr' });
  return openLocalStorage(command, flags, context, logger);
}
