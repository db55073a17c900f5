/**
 * The query handle stores take: `(db: Db, ...)`. A transaction is a `Db` too,
 * so a store function runs alone or inside a caller's transaction unchanged.
 * Only `storage/` and `*-store.ts` files build SQL (a lint rule forbids
 * importing Kysely elsewhere); the rest of the service calls store functions.
 */
import {
  type Compilable,
  type Kysely,
  type KyselyPlugin,
  type OperationNodeSource,
  type PluginTransformQueryArgs,
  type PluginTransformResultArgs,
  sql,
} from 'kysely';
import type { Database } from './schema.js';

/** The database, or a transaction on it. */
export type Db = Kysely<Database>;

/**
 * Runs `work` in a transaction (the caller's, when `db` is one): every store call given the transaction
 * commits together or not at all. Inside, use only the transaction: PGlite is
 * one connection, so a query on the outer `db` would wait for the transaction
 * that waits for it.
 *
 * @example
 * await inTransaction(db, async (trx) => {
 *   const user = await insertUserRow(trx, input);
 *   return createSession(trx, { projectId, userId: user.id, now });
 * });
 */
export function inTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  // Already in one: join it, so the caller's commit or rollback covers this work too.
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}

/** A write a store built but did not send, for `writeTogether`. */
export type Write = OperationNodeSource & Compilable;

/**
 * Sends `writes` as one statement, each a data-modifying `WITH` part of it:
 * one round trip, and all of them or none, with no transaction of its own
 * (inside the caller's, when `db` is one). The parts run on one snapshot and
 * cannot see each other's rows, so they must be independent, and no two may
 * update the same row. A sign-in's session, activity and audit row go this way
 * (each round trip costs the service and the database more than the
 * statement's own work).
 *
 * @example
 * await writeTogether(db, [sessionInsert(db, row), auditEventInsert(db, event)]);
 */
export async function writeTogether(db: Db, writes: readonly Write[]): Promise<void> {
  if (writes.length === 0) return;
  if (writes.length === 1) {
    await db.executeQuery(writes[0]!.compile());
    return;
  }
  const parts = writes.map((write, i) => sql`${sql.id(`w${i}`)} as (${write})`);
  await sql`with ${sql.join(parts)} select 1`.execute(db);
}

/** A plugin that changes nothing and carries a value (`carrying`). */
class Carried<T> implements KyselyPlugin {
  constructor(
    readonly key: symbol,
    readonly value: T,
  ) {}
  transformQuery(args: PluginTransformQueryArgs) {
    return args.node;
  }
  async transformResult(args: PluginTransformResultArgs) {
    return args.result;
  }
}

/**
 * The same database handle, carrying `value` under `key` to every store call
 * made with it or with a transaction opened on it (`carried`). A service puts
 * on its handle what a store needs from the service but no route should have
 * to pass along (the outbox's sealer: the flows that queue mail pass only
 * their transaction).
 *
 * @example
 * const db = carrying(dbOf(storage), outboxSealerKey, sealer);
 * await inTransaction(db, async (trx) => carried<Sealer>(trx, outboxSealerKey)); // the sealer
 */
export function carrying<T>(db: Db, key: symbol, value: T): Db {
  return db.withPlugin(new Carried(key, value));
}

/** What `carrying` put on `db` (or on the handle `db` is a transaction of) under `key`, or undefined. */
export function carried<T>(db: Db, key: symbol): T | undefined {
  for (const plugin of db.getExecutor().plugins) {
    if (plugin instanceof Carried && plugin.key === key) return plugin.value as T;
  }
  return undefined;
}

/**
 * `rows` in slices small enough for one multi-row INSERT each (PostgreSQL
 * takes at most 65,535 parameters a statement), for stores' bulk writes.
 */
export function insertChunks<T extends object>(rows: readonly T[]): T[][] {
  if (rows.length === 0) return [];
  const perRow = Math.max(1, Object.keys(rows[0]!).length);
  const size = Math.max(1, Math.floor(60_000 / perRow));
  const chunks: T[][] = [];
  for (let start = 0; start < rows.length; start += size) chunks.push(rows.slice(start, start + size));
  return chunks;
}

/**
 * Has PostgreSQL sample `tables` again (ANALYZE), for a bulk write whose
 * tables grow by orders of magnitude. A plan is made for the size the
 * statistics say, and a foreign-key check's plan lasts as long as its
 * connection: made while the users table was nearly empty, the check of each
 * new contact channel walked every user of the project by another index
 * (an import slowed from 1,900 to 600 users a second by 40,000 users), and
 * the lookup of taken sign-in addresses, sure the table was small, read every
 * address of the project (324 ms a batch at 560,000 users; 1.4 ms once
 * sampled). New statistics invalidate the plans made on the old ones, everywhere.
 */
export async function analyzeTables(db: Db, tables: readonly (keyof Database)[]): Promise<void> {
  await sql`analyze ${sql.join(tables.map((table) => sql.id(table)))}`.execute(db);
}

/** The tables whose rows an import keys by the source's id (`external_id`, unique per project). */
type ImportedTable = 'users' | 'teams';

/**
 * Of `externalIds`, those that rows of `table` of the project carry, with the
 * row's id: what an import has written already (the users and teams stores
 * call it for their own tables).
 */
export async function idsByExternalId(
  db: Db,
  table: ImportedTable,
  projectId: string,
  externalIds: readonly string[],
): Promise<Map<string, string>> {
  if (externalIds.length === 0) return new Map();
  const rows = await db
    .selectFrom(table)
    .select(['id', 'external_id'])
    .where('project_id', '=', projectId)
    .where('external_id', 'in', externalIds)
    .execute();
  return new Map(rows.map((row) => [row.external_id!, row.id]));
}

/** Of the (lower-case) UUIDs, those a row of `table` of any project has already. */
export async function takenIds(db: Db, table: ImportedTable, ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom(table).select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((row) => row.id));
}
