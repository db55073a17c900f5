import pino, { type Logger } from 'pino';
import { CliError } from './errors.js';

const levels = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/**
 * The service's pino logger: JSON lines on stdout (`start`) or stderr (`dev`,
 * whose stdout is for the keys). `LATCHKEY_LOG_LEVEL` overrides the level.
 */
export function createLogger(options: {
  level: string | undefined;
  fallback: string;
  to: 'stdout' | 'stderr';
}): Logger {
  const level = options.level || options.fallback;
  if (!levels.includes(level)) {
    throw new CliError(`LATCHKEY_LOG_LEVEL must be one of ${levels.join(', ')} (got "${level}")`);
  }
  return pino({ level }, pino.destination({ fd: options.to === 'stdout' ? 1 : 2, sync: true }));
}
