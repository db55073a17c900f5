/**
 * The query handle stores take: `(db: Db, ...)`. A transaction is a `Db` too,
 * so a store function runs alone or inside a caller's transaction unchanged.
 * Only `storage/` and `*-store.ts` files build SQL (a lint rule forbids
 * importing Kysely elsewhere); the rest of the service calls store functions.
 */
import type { Kysely } from 'kysely';
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
 *   const user = await insertUser(trx, input);
 *   return createSession(trx, { projectId, userId: user.id, now });
 * });
 */
export function inTransaction<T>(db: Db, work: (trx: Db) => Promise<T>): Promise<T> {
  // Already in one: join it, so the caller's commit or rollback covers this work too.
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}
