/** Advisory locks that serialize one-time work across instances sharing a database. */
import { sql } from 'kysely';
import type { Db } from './db.js';

/** Advisory-lock key (with the schema) serializing bootstraps of one database. */
const bootstrapLock = 0x4c4b4253; // "LKBS"

/** Holds the bootstrap lock of `schema` until the transaction `trx` ends. */
export async function lockBootstrap(trx: Db, schema: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(${bootstrapLock}, hashtext(${schema}))`.execute(trx);
}
