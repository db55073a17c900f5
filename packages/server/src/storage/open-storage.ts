/**
 * Opening the database: embedded PGlite (in a data directory, or in memory) or
 * PostgreSQL through a `pg` pool, with Kysely on top. Migrations are applied
 * before `openStorage` resolves.
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql } from 'kysely';
import {
  attachChangeFeed,
  type ChangeFeed,
  changeChannel,
  pgliteChangeFeed,
  postgresChangeFeed,
} from './change-feed.js';
import type { Db } from './db.js';
import { migrate } from './migrate.js';
import { pgliteDialect } from './pglite-driver.js';
import { pgliteExtensions } from './pglite-extensions.js';
import type { Database } from './schema.js';
import { findBuiltSeed, unpackSeed } from './seed.js';

/** Where the service keeps its data. */
export interface StorageOptions {
  /**
   * Directory of the embedded database (PGlite keeps its files in
   * `<dataDir>/pglite`). Ignored when `databaseUrl` is set. With neither, the
   * database lives in memory and is lost on close.
   */
  dataDir?: string;
  /** PostgreSQL connection string, e.g. `postgres://user:pass@host:5432/db`. */
  databaseUrl?: string;
  /** Schema for all tables (created if missing). Default `public`. Lowercase letters, digits and `_`. */
  schema?: string;
  /** PostgreSQL only: how long to wait before answering 503 instead (`databaseTimeouts`). */
  timeouts?: Partial<DatabaseTimeouts>;
}

/**
 * How long the service waits on PostgreSQL before it gives up on a request
 * and answers 503 with `Retry-After`, so a locked table or a database that
 * stops answering never leaves clients hanging. Migrations run without them.
 */
interface DatabaseTimeouts {
  /** To get a connection: open one, or wait for a free one in the pool. */
  connectMs: number;
  /** One statement on the server (`statement_timeout`). */
  statementMs: number;
  /** Waiting for a row or table lock (`lock_timeout`). */
  lockMs: number;
  /** A transaction left open without a statement (`idle_in_transaction_session_timeout`). */
  idleInTransactionMs: number;
  /** The client's own limit on one query, for a server that accepts and never answers. */
  queryMs: number;
}

/** The defaults of `DatabaseTimeouts`. */
const defaultDatabaseTimeouts: DatabaseTimeouts = {
  connectMs: 5_000,
  statementMs: 10_000,
  lockMs: 5_000,
  idleInTransactionMs: 30_000,
  queryMs: 15_000,
};

/**
 * An open database. Every service and admin function takes one; its query
 * handle stays inside the package (`dbOf`), so code outside reaches data only
 * through the operations the package exports.
 */
export interface Storage {
  readonly kind: 'pglite' | 'postgres';
  /** The PostgreSQL schema holding the tables. */
  readonly schema: string;
  /** Closes the pool or the embedded database. */
  close(): Promise<void>;
}

const handles = new WeakMap<Storage, Db>();

/** Internal: the query handle of an open storage. */
export function dbOf(storage: Storage): Db {
  const db = handles.get(storage);
  if (!db) throw new TypeError('not a storage opened by openStorage');
  return db;
}

/**
 * Opens the database and applies pending migrations.
 *
 * @example
 * const storage = await openStorage({ dataDir: '.latchkey' });          // embedded
 * const shared = await openStorage({ databaseUrl: process.env.DATABASE_URL }); // PostgreSQL
 * await storage.close();
 */
export async function openStorage(options: StorageOptions = {}): Promise<Storage> {
  const schema = checkSchemaName(options.schema ?? 'public');
  if (options.databaseUrl) {
    return openPostgres(options.databaseUrl, schema, { ...defaultDatabaseTimeouts, ...options.timeouts });
  }
  return openPGlite({ dataDir: options.dataDir, schema, seed: 'built' });
}

/** Internal: opens PGlite, loading `seed` (a dump, or the built one) when the database is new. */
export async function openPGlite(options: {
  dataDir?: string | undefined;
  schema: string;
  seed: Blob | 'built' | null;
}): Promise<Storage> {
  const dir = options.dataDir === undefined ? undefined : join(options.dataDir, 'pglite');
  const isNew = dir === undefined || !existsSync(join(dir, 'PG_VERSION'));
  let seed = isNew ? (options.seed === 'built' ? await findBuiltSeed() : options.seed) : null;
  // Unpacked straight into the directory, PGlite finds a database there and has nothing to load.
  if (dir && seed && (await unpackSeed(seed, dir))) seed = null;
  if (dir) await mkdir(dir, { recursive: true, mode: 0o700 });
  const pglite = new PGlite({
    ...(dir ? { dataDir: dir } : {}),
    ...(seed ? { loadDataDir: seed } : {}),
    extensions: pgliteExtensions,
  });
  const feed = pgliteChangeFeed(options.schema);
  const db = new Kysely<Database>({ dialect: pgliteDialect(pglite) });
  pglite.onNotification((channel, payload) => feed.receive(channel, payload));
  return finishOpening(db, 'pglite', options.schema, feed, async () => {
    if (options.schema !== 'public') await sql`set search_path to ${sql.id(options.schema)}`.execute(db);
    // Through Kysely, so it waits its turn on PGlite's one connection rather than joining a transaction.
    await sql`listen ${sql.id(changeChannel)}`.execute(db);
    feed.listening();
  });
}

async function openPostgres(databaseUrl: string, schema: string, timeouts: DatabaseTimeouts): Promise<Storage> {
  // Loaded here, not at the top: the embedded database (`latchkey dev`) never needs the client.
  const { default: pg } = await import('pg');
  const settings = [
    `search_path=${schema}`,
    `statement_timeout=${timeouts.statementMs}`,
    `lock_timeout=${timeouts.lockMs}`,
    `idle_in_transaction_session_timeout=${timeouts.idleInTransactionMs}`,
  ];
  const pool = new pg.Pool({
    connectionString: databaseUrl,
    options: settings.map((setting) => `-c ${setting}`).join(' '),
    connectionTimeoutMillis: timeouts.connectMs,
    query_timeout: timeouts.queryMs,
  });
  // A client losing its connection must not crash the process: idle in the pool (the pool replaces it), or
  // checked out between two statements of a transaction (the next statement fails, and the request answers 503).
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const feed = postgresChangeFeed(pg, databaseUrl, schema);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  // Migrations may take longer than any request should: they run on a connection of their own without the timeouts.
  const migrationPool = new pg.Pool({ connectionString: databaseUrl, options: `-c search_path=${schema}`, max: 1 });
  migrationPool.on('error', () => {});
  const migrator = new Kysely<Database>({ dialect: new PostgresDialect({ pool: migrationPool }) });
  return finishOpening(db, 'postgres', schema, feed, async () => {}, migrator);
}

async function finishOpening(
  db: Kysely<Database>,
  kind: Storage['kind'],
  schema: string,
  feed: ChangeFeed,
  prepare: () => Promise<void>,
  migrator?: Kysely<Database>,
): Promise<Storage> {
  try {
    await prepare();
    await migrate(migrator ?? db, schema).finally(() => migrator?.destroy());
  } catch (error) {
    await feed.close().catch(() => {});
    await db.destroy().catch(() => {});
    throw error;
  }
  let closing: Promise<void> | undefined;
  const storage: Storage = {
    kind,
    schema,
    close: () => {
      closing ??= feed.close().then(() => db.destroy());
      return closing;
    },
  };
  handles.set(storage, db);
  attachChangeFeed(storage, feed);
  return storage;
}

/**
 * Internal (tests): drops the storage's PostgreSQL schema and all it holds,
 * then closes the storage. Refuses `public`, which holds real data.
 */
export async function dropSchema(storage: Storage): Promise<void> {
  if (storage.schema === 'public') throw new TypeError('dropSchema refuses to drop the public schema');
  await sql`drop schema if exists ${sql.id(storage.schema)} cascade`.execute(dbOf(storage));
  await storage.close();
}

function checkSchemaName(schema: string): string {
  if (!/^[a-z_][a-z0-9_]{0,62}$/.test(schema)) {
    throw new TypeError(`invalid schema name "${schema}": use lowercase letters, digits and _`);
  }
  return schema;
}
