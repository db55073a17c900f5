/**
 * Migration 0006 on a database that already has users: they get an empty
 * `oauth_providers` summary, and the foreign keys carry the deletion rules
 * (deleting a user deletes their provider accounts; an account names a user
 * of its own project; one account per provider per user).
 */
import { PGlite } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../migrate.js';
import { pgliteDialect } from '../pglite-driver.js';
import { pgliteExtensions } from '../pglite-extensions.js';
import type { Database } from '../schema.js';
import { migrations } from './index.js';

const user = (id: number) => `00000000-0000-4000-8000-00000000000${id}`;

describe('migration 0006 (OAuth accounts)', () => {
  let pglite: PGlite;
  let db: Kysely<Database>;

  const account = (provider: string, accountId: string, userId: string, project = 'p') =>
    sql`insert into oauth_accounts (project_id, provider_id, account_id, user_id, created_at, updated_at)
        values (${project}, ${provider}, ${accountId}, ${userId}, now(), now())`.execute(db);

  beforeAll(async () => {
    pglite = new PGlite({ extensions: pgliteExtensions });
    db = new Kysely<Database>({ dialect: pgliteDialect(pglite) });
    await migrate(
      db,
      'public',
      migrations.filter((migration) => migration.id < '0006'),
    );
    await sql`insert into projects (id, display_name, created_at, config) values ('p', 'P', now(), '{}'), ('q', 'Q', now(), '{}')`.execute(
      db,
    );
    for (const id of [1, 2]) {
      await sql`insert into users (id, project_id, signed_up_at, last_active_at) values (${user(id)}, 'p', now(), now())`.execute(
        db,
      );
    }
    await migrate(db, 'public', migrations);
  });

  afterAll(async () => {
    await db?.destroy();
  });

  it('gives existing users an empty summary of connected accounts', async () => {
    const rows = await db.selectFrom('users').select(['id', 'oauth_providers']).orderBy('id').execute();
    expect(rows.map((row) => row.oauth_providers)).toEqual([[], []]);
  });

  it('keeps one account per provider per user, and one user per provider account', async () => {
    await account('github', 'gh-1', user(1));
    await expect(account('github', 'gh-2', user(1))).rejects.toThrow(/unique|duplicate/i);
    await expect(account('github', 'gh-1', user(2))).rejects.toThrow(/unique|duplicate|primary/i);
    await account('google', 'g-1', user(1));
  });

  it('refuses an account naming a user of another project', async () => {
    await expect(account('github', 'gh-9', user(2), 'q')).rejects.toThrow(/foreign key/i);
  });

  it('deletes a user’s accounts with the user', async () => {
    await sql`delete from users where id = ${user(1)}`.execute(db);
    const left = await db.selectFrom('oauth_accounts').select('account_id').execute();
    expect(left).toEqual([]);
  });
});
