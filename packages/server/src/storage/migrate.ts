/**
 * The migration runner. All pending migrations run in one transaction that
 * first takes a transaction-scoped advisory lock, so several instances starting
 * at once against one database apply each migration exactly once.
 */
import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { migrations as allMigrations, type Migration } from './migrations/index.js';
import type { Database } from './schema.js';

/** First key of the advisory lock; the second is derived from the schema name. */
const lockNamespace = 0x4c4b4d47; // "LKMG"

/** SHA-256 of a migration's text, recorded when it is applied. */
export function migrationChecksum(migration: Migration): string {
  return createHash('sha256').update(migration.sql).digest('hex');
}

/** Splits a migration into statements at `;` followed by a line end. */
export function splitStatements(text: string): string[] {
  return text
    .split(/;\s*(?:\r?\n|$)/)
    .map((statement) => statement.trim())
    .filter((statement) => statement.length > 0);
}

/**
 * Applies the pending migrations to `schema` (created if missing) and returns
 * the ids it applied. Throws when an applied migration's text has changed.
 */
export async function migrate(
  db: Kysely<Database>,
  schema: string,
  migrations: readonly Migration[] = allMigrations,
): Promise<string[]> {
  return db.transaction().execute(async (trx) => {
    // A migration may rewrite a large table and wait for another instance's: the pool's timeouts are for requests.
    await sql`set local statement_timeout = 0`.execute(trx);
    await sql`set local lock_timeout = 0`.execute(trx);
    await sql`select pg_advisory_xact_lock(${lockNamespace}, hashtext(${schema}))`.execute(trx);
    // Checked first: CREATE SCHEMA needs the CREATE privilege on the database even when the schema exists.
    const existing = await sql`select 1 from pg_namespace where nspname = ${schema}`.execute(trx);
    if (existing.rows.length === 0) await sql`create schema ${sql.id(schema)}`.execute(trx);
    await sql`create table if not exists ${sql.id(schema, 'latchkey_migrations')} (
      id text primary key,
      checksum text not null,
      applied_at timestamptz not null
    )`.execute(trx);
    const applied = await trx.selectFrom('latchkey_migrations').select(['id', 'checksum']).execute();
    const checksums = new Map(applied.map((row) => [row.id, row.checksum]));
    const done: string[] = [];
    for (const migration of migrations) {
      const checksum = migrationChecksum(migration);
      const recorded = checksums.get(migration.id);
      if (recorded !== undefined) {
        if (recorded !== checksum) {
          throw new Error(`migration ${migration.id} was changed after it was applied to this database`);
        }
        continue;
      }
      for (const statement of splitStatements(migration.sql)) await sql.raw(statement).execute(trx);
      await trx
        .insertInto('latchkey_migrations')
        .values({ id: migration.id, checksum, applied_at: new Date() })
        .execute();
      done.push(migration.id);
    }
    return done;
  });
}

/** Migrations this code knows but the database lacks, and ones the database has that this code does not know. */
export interface MigrationStatus {
  pending: string[];
  unknown: string[];
}

/**
 * Compares the migrations applied to the database (in the search path's
 * schema) with the ones this code ships. A database no migration has touched
 * has every migration pending.
 */
export async function migrationStatus(
  db: Kysely<Database>,
  migrations: readonly Migration[] = allMigrations,
): Promise<MigrationStatus> {
  const table = await sql<{ name: string | null }>`select to_regclass('latchkey_migrations')::text as name`.execute(db);
  const applied = table.rows[0]?.name
    ? new Set((await db.selectFrom('latchkey_migrations').select('id').execute()).map((row) => row.id))
    : new Set<string>();
  const known = new Set(migrations.map((migration) => migration.id));
  return {
    pending: migrations.filter((migration) => !applied.has(migration.id)).map((migration) => migration.id),
    unknown: [...applied].filter((id) => !known.has(id)).sort(),
  };
}
