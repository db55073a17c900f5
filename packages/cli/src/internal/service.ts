import { createServer } from 'node:net';
import type { RunningServer, Service, Storage, StorageOptions } from '@latchkey/server';
import { databaseError } from './database-url.js';
import { CliError, systemErrorCode } from './errors.js';

export type { Storage } from '@latchkey/server';
export { redactUrl } from './database-url.js';

/** The service package, loaded on demand so `--help` and usage errors stay instant. */
export type ServerModule = typeof import('@latchkey/server');

export function loadServer(): Promise<ServerModule> {
  return import('@latchkey/server');
}

/** Opens the database (applying migrations), turning connection failures into one-line errors. */
export async function openStorageOrFail(server: ServerModule, options: StorageOptions): Promise<Storage> {
  try {
    return await server.openStorage(options);
  } catch (error) {
    if (options.databaseUrl) throw databaseError(error, options.databaseUrl);
    const detail = (error instanceof Error && error.message) || systemErrorCode(error) || String(error);
    throw new CliError(`cannot open the data directory ${options.dataDir}: ${detail}`);
  }
}

/**
 * Fails fast, before the database is opened, when `host:port` cannot be bound
 * (the listener itself still reports the error if the port is taken meanwhile).
 */
export async function checkPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  const probe = createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen({ host, port, exclusive: true }, resolve);
    });
  } catch (error) {
    throw listenError(error, host, port);
  } finally {
    await new Promise((resolve) => probe.close(resolve));
  }
}

/** Starts the HTTP listener, turning "port in use" and friends into one-line errors. */
export async function listenOrFail(
  server: ServerModule,
  options: { service: Service; port: number; host: string },
): Promise<RunningServer> {
  try {
    return await server.startServer(options);
  } catch (error) {
    throw listenError(error, options.host, options.port);
  }
}

function listenError(error: unknown, host: string, port: number): unknown {
  switch (systemErrorCode(error)) {
    case 'EADDRINUSE':
      return new CliError(
        `port ${port} is already in use on ${host}; stop the other process or choose another port with --port`,
      );
    case 'EACCES':
      return new CliError(`no permission to listen on ${host}:${port}; choose a port above 1023 with --port`);
    case 'EADDRNOTAVAIL':
    case 'ENOTFOUND':
      return new CliError(`cannot listen on host ${host}; choose another with --host`);
    default:
      return error;
  }
}

/**
 * Refuses a master secret that does not open the signing keys stored in the
 * database, before the service listens or writes: started anyway, it would
 * fail every sign-in after writing the user. `source` names where the secret
 * came from (LATCHKEY_SECRET, or the data directory's secret file).
 */
export async function verifySecretOrFail(
  server: ServerModule,
  storage: Storage,
  secret: { value: string | readonly string[]; source: string },
): Promise<void> {
  try {
    await server.verifySecret(storage, secret.value);
  } catch (error) {
    if (!(error instanceof server.SecretMismatchError)) throw error;
    throw new CliError(
      `${secret.source} does not open the signing keys stored in this database: it is not the secret the data was created with; set LATCHKEY_SECRET to that secret`,
    );
  }
}

/**
 * Refuses a master secret the service would refuse as weak (repeated, too
 * predictable: `secretWeakness`), in one line naming where it came from and
 * the way out: a generated secret, and `latchkey rotate-secret` to move the
 * data to it.
 */
export function checkSecretStrength(server: ServerModule, secret: string, source: string): void {
  const weakness = server.secretWeakness(secret);
  if (weakness) {
    throw new CliError(
      `the master secret from ${source} is too weak: ${weakness}; generate one (openssl rand -base64 32) and move the database to it with \`latchkey rotate-secret\``,
    );
  }
}
