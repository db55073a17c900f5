/**
 * Migration 0017 on a database whose projects have the first permission
 * definitions as 0005 described them: the untouched ones read as Stack
 * describes them, one an administrator rewrote keeps its text.
 */
import { PGlite } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../migrate.js';
import { pgliteDialect } from '../pglite-driver.js';
import { pgliteExtensions } from '../pglite-extensions.js';
import type { Database } from '../schema.js';
import { migrations } from './index.js';

describe('migration 0017 (permission descriptions)', () => {
  let pglite: PGlite;
  let db: Kysely<Database>;

  const described = async (projectId: string) =>
    Object.fromEntries(
      (
        await db
          .selectFrom('team_permission_definitions')
          .select(['id', 'description'])
          .where('project_id', '=', projectId)
          .execute()
      ).map((row) => [row.id, row.description]),
    );

  beforeAll(async () => {
    pglite = new PGlite({ extensions: pgliteExtensions });
    db = new Kysely<Database>({ dialect: pgliteDialect(pglite) });
    await migrate(
      db,
      'public',
      migrations.filter((migration) => migration.id < '0005'),
    );
    await sql`insert into projects (id, display_name, created_at, config) values ('p', 'P', now(), '{}'), ('q', 'Q', now(), '{}')`.execute(
      db,
    );
    await migrate(
      db,
      'public',
      migrations.filter((migration) => migration.id < '0017'),
    );
    await sql`update team_permission_definitions set description = 'Can do everything' where project_id = 'q' and id = 'admin'`.execute(
      db,
    );
    await migrate(db, 'public', migrations);
  });

  afterAll(async () => {
    await db?.destroy();
  });

  it('describes the first definitions as Stack does', async () => {
    expect(await described('p')).toEqual({
      $delete_team: 'Delete the team',
      $invite_members: 'Invite other users to the team',
      $read_members: 'Read and list the other members of the team',
      $remove_members: 'Remove other members from the team',
      $update_team: 'Update the team information',
      admin: 'Default permission for team creators',
      member: 'Default permission for team members',
    });
  });

  it('keeps a description an administrator rewrote', async () => {
    expect(await described('q')).toMatchObject({
      admin: 'Can do everything',
      member: 'Default permission for team members',
    });
  });
});
