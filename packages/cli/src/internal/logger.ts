import pino, { type Logger } from 'pino';
import { UsageError } from './errors.js';

const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * The level `LATCHKEY_LOG_LEVEL` asks for, else `fallback`. An unknown name is
 * a usage error naming the variable, raised before a command does anything.
 */
export function logLevel(fromEnv: string | undefined, fallback: string, command?: string): string {
  const level = fromEnv?.trim().toLowerCase() || fallback;
  if (!levels.includes(level)) {
    throw new UsageError(`LATCHKEY_LOG_LEVEL must be one of ${levels.join(', ')} (got "${fromEnv}")`, command);
  }
  return level;
}

/**
 * The commands' pino logger: JSON lines with the level by name
 * (`"level":"info"`), on stdout (`start`) or stderr (every other command,
 * whose stdout is for keys and JSON).
 */
export function createLogger(options: {
  level: string | undefined;
  fallback: string;
  to: 'stdout' | 'stderr';
}): Logger {
  const level = logLevel(options.level, options.fallback);
  return pino(
    { level, formatters: { level: (label) => ({ level: label }) } },
    // Asynchronous, as the service's own default (a write per request line is not on the request's path);
    // pino flushes what is pending when the process exits.
    pino.destination({ fd: options.to === 'stdout' ? 1 : 2, sync: false }),
  );
}
