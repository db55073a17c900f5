/**
 * The storage backends a bench runs on, each with the service started on a
 * fresh database: PGlite in a temporary directory, and PostgreSQL in a fresh
 * schema (dropped afterwards) when one answers at `databaseUrl`. The
 * development project is bootstrapped, so `run` gets its keys.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * Runs `run({ backend, api, keys, schema, url })` on each backend, in turn;
 * `serviceOptions` go to `createService`.
 *
 * @example
 * await forEachBackend(server, testing, { databaseUrl, prefix: 'bench_oauth' }, async ({ backend, api, keys }) => { ... });
 */
export async function forEachBackend(server, testing, { databaseUrl, prefix, serviceOptions = {} }, run) {
  const backends = [['pglite', null]];
  if (await testing.isPostgresReachable(databaseUrl)) backends.push(['postgres', databaseUrl]);
  for (const [backend, url] of backends) {
    const dataDir = url ? null : mkdtempSync(join(tmpdir(), 'latchkey-bench-'));
    const schema = `${prefix}_${randomBytes(4).toString('hex')}`;
    const storage = await server.openStorage(url ? { databaseUrl: url, schema } : { dataDir });
    try {
      const keys = await server.bootstrap(storage, { dev: true });
      const service = server.createService({
        storage,
        secret: randomBytes(32).toString('base64url'),
        logger: false,
        ...serviceOptions,
      });
      const listening = await server.startServer({ service, port: 0, host: '127.0.0.1' });
      try {
        await run({ backend, api: `${listening.url}/api/v1`, keys, schema, url });
      } finally {
        await listening.close();
      }
    } finally {
      if (url) await testing.dropSchema(storage);
      else {
        await storage.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    }
  }
}
