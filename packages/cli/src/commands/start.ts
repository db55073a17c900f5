import { parseCommandArgs, parsePort } from '../internal/args.js';
import { Cleanup } from '../internal/cleanup.js';
import { type CliContext, waitForStop } from '../internal/context.js';
import { checkSecret } from '../internal/data-dir.js';
import { CliError } from '../internal/errors.js';
import { createLogger } from '../internal/logger.js';
import { checkPortFree, listenOrFail, loadServer, openStorageOrFail, redactUrl } from '../internal/service.js';

export const startUsage = `Usage: latchkey start [options]

Runs the Latchkey service in production mode against PostgreSQL. Applies
pending migrations, creates the internal project if missing, logs JSON lines
(pino) to stdout and prints the listening URL to stderr.

Options:
  -p, --port <n>       port to listen on (default $PORT, else 8102)
      --host <host>    interface to listen on (default $HOST, else 0.0.0.0)
      --schema <name>  PostgreSQL schema of the tables (default public)
  -h, --help           show this help

Environment:
  DATABASE_URL         PostgreSQL connection string (required)
  LATCHKEY_SECRET      master secret, 32+ characters (required); it encrypts
                       signing keys at rest, so keep it stable
  LATCHKEY_LOG_LEVEL   log level (default info)
`;

export interface StartOptions {
  databaseUrl: string;
  secret: string;
  /** Default 8102. */
  port?: number;
  /** Default `0.0.0.0`. */
  host?: string;
  /** PostgreSQL schema of the tables; default `public`. */
  schema?: string;
  /** pino level of the JSON log on stdout; default `info`. */
  logLevel?: string;
}

/**
 * Starts the service against PostgreSQL in production mode and resolves once it listens.
 *
 * @example
 * const running = await startProduction({ databaseUrl: process.env.DATABASE_URL!, secret: process.env.LATCHKEY_SECRET! });
 * console.error(`listening on ${running.url}`);
 */
export async function startProduction(options: StartOptions): Promise<{ url: string; close(): Promise<void> }> {
  const secret = checkSecret(options.secret, 'LATCHKEY_SECRET');
  const logger = createLogger({ level: options.logLevel, fallback: 'info', to: 'stdout' });
  const server = await loadServer();
  const port = options.port ?? 8102;
  const host = options.host ?? '0.0.0.0';
  const cleanup = new Cleanup();
  try {
    await checkPortFree(host, port);
    const storage = await openStorageOrFail(server, { databaseUrl: options.databaseUrl, schema: options.schema });
    cleanup.add(() => storage.close());
    await server.bootstrap(storage, { dev: false });
    const service = server.createService({ storage, secret, logger });
    const listening = await listenOrFail(server, { service, port, host });
    cleanup.add(() => listening.close());
    return { url: listening.url, close: () => cleanup.run() };
  } catch (error) {
    await cleanup.run();
    throw error;
  }
}

/** `latchkey start`: runs until SIGINT/SIGTERM. */
export async function runStart(args: string[], context: CliContext): Promise<number> {
  const flags = parseCommandArgs('start', args, {
    port: { type: 'string', short: 'p' },
    host: { type: 'string' },
    schema: { type: 'string' },
    help: { type: 'boolean', short: 'h' },
  });
  if (flags.help) {
    context.stdout.write(startUsage);
    return 0;
  }
  const port = parsePort('start', flags.port ?? context.env.PORT, 8102);
  const databaseUrl = context.env.DATABASE_URL;
  if (!databaseUrl) {
    throw new CliError(
      'DATABASE_URL is not set: `latchkey start` needs a PostgreSQL connection string (for local development use `latchkey dev`)',
    );
  }
  const secret = context.env.LATCHKEY_SECRET;
  if (!secret) {
    throw new CliError('LATCHKEY_SECRET is not set: `latchkey start` needs a master secret of 32 or more characters');
  }
  const stop = waitForStop(context.signal);
  try {
    const running = await startProduction({
      databaseUrl,
      secret,
      port,
      host: flags.host ?? context.env.HOST ?? '0.0.0.0',
    });
    if (!stop.isStopped()) {
      context.stderr.write(`Latchkey is listening on ${running.url} (database ${redactUrl(databaseUrl)})\n`);
    }
    await stop.stopped;
    await running.close();
    return 0;
  } finally {
    stop.dispose();
  }
}
