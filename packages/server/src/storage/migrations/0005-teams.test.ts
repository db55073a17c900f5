/**
 * Migration 0005 on a database that already has projects and users: every
 * project gets the system permissions and the admin/member definitions, and
 * its empty default lists name them; and the deletion rules the foreign keys
 * carry hold (a team takes its members, profiles, grants and selections with
 * it; leaving a team clears its selection; a renamed definition is renamed in
 * every grant; a deleted team's invitation codes lose their team).
 */
import { PGlite } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../migrate.js';
import { pgliteDialect } from '../pglite-driver.js';
import { pgliteExtensions } from '../pglite-extensions.js';
import type { Database } from '../schema.js';
import { migrations } from './index.js';

const before = migrations.filter((migration) => migration.id < '0005');
const user = (id: number) => `00000000-0000-4000-8000-00000000000${id}`;
const team = (id: number) => `00000000-0000-4000-9000-00000000000${id}`;

describe('migration 0005 (teams and permissions)', () => {
  let pglite: PGlite;
  let db: Kysely<Database>;

  const definitions = (project: string) =>
    db
      .selectFrom('team_permission_definitions')
      .select(['id', 'is_system'])
      .where('project_id', '=', project)
      .orderBy('id')
      .execute();
  const grants = (teamId: string) =>
    db
      .selectFrom('team_member_permissions')
      .select(['user_id', 'permission_id'])
      .where('team_id', '=', teamId)
      .execute();
  const selectedTeam = async (userId: string) =>
    (await db.selectFrom('users').select('selected_team_id').where('id', '=', userId).executeTakeFirstOrThrow())
      .selected_team_id;

  beforeAll(async () => {
    pglite = new PGlite({ extensions: pgliteExtensions });
    db = new Kysely<Database>({ dialect: pgliteDialect(pglite) });
    await migrate(db, 'public', before);
    await sql`insert into projects (id, display_name, created_at, config) values
      ('p', 'P', now(), '{"team_creator_default_permissions": [], "team_member_default_permissions": []}'),
      ('q', 'Q', now(), '{"team_member_default_permissions": [{"id": "kept"}]}')`.execute(db);
    for (const id of [1, 2, 3]) {
      await sql`insert into users (id, project_id, signed_up_at, last_active_at) values (${user(id)}, 'p', now(), now())`.execute(
        db,
      );
    }
    expect(
      await migrate(
        db,
        'public',
        migrations.filter((migration) => migration.id < '0006'),
      ),
    ).toEqual(['0005-teams']);
  });

  afterAll(async () => {
    await db.destroy();
  });

  it('gives every existing project the system permissions and admin/member', async () => {
    for (const project of ['p', 'q']) {
      expect(await definitions(project)).toEqual([
        { id: '$delete_team', is_system: true },
        { id: '$invite_members', is_system: true },
        { id: '$read_members', is_system: true },
        { id: '$remove_members', is_system: true },
        { id: '$update_team', is_system: true },
        { id: 'admin', is_system: false },
        { id: 'member', is_system: false },
      ]);
    }
    const contained = await db
      .selectFrom('team_permission_inclusions')
      .select(['permission_id', 'contained_id'])
      .where('project_id', '=', 'p')
      .where('permission_id', '=', 'member')
      .orderBy('contained_id')
      .execute();
    expect(contained.map((row) => row.contained_id)).toEqual(['$invite_members', '$read_members']);
  });

  it('fills empty default lists and keeps lists an admin chose', async () => {
    const configs = await db.selectFrom('projects').select(['id', 'config']).orderBy('id').execute();
    expect(configs.map((row) => [row.id, row.config])).toEqual([
      [
        'p',
        {
          team_creator_default_permissions: [{ id: 'admin' }],
          team_member_default_permissions: [{ id: 'member' }],
        },
      ],
      [
        'q',
        {
          team_creator_default_permissions: [{ id: 'admin' }],
          team_member_default_permissions: [{ id: 'kept' }],
        },
      ],
    ]);
  });

  it('lets a user select only a team they belong to, and clears it when they leave', async () => {
    await sql`insert into teams (id, project_id, display_name, created_at) values (${team(1)}, 'p', 'One', now())`.execute(
      db,
    );
    const notMember = sql`update users set selected_team_id = ${team(1)} where id = ${user(1)}`.execute(db);
    await expect(notMember).rejects.toMatchObject({ code: '23503' });

    await sql`insert into team_members (project_id, team_id, user_id, created_at) values ('p', ${team(1)}, ${user(1)}, now())`.execute(
      db,
    );
    await sql`update users set selected_team_id = ${team(1)} where id = ${user(1)}`.execute(db);
    expect(await selectedTeam(user(1))).toBe(team(1));
    await sql`delete from team_members where team_id = ${team(1)} and user_id = ${user(1)}`.execute(db);
    expect(await selectedTeam(user(1))).toBeNull();
  });

  it('deletes a team with its members, grants and selections; its invitations lose their team', async () => {
    await sql`insert into teams (id, project_id, display_name, created_at) values (${team(2)}, 'p', 'Two', now())`.execute(
      db,
    );
    for (const id of [2, 3]) {
      await sql`insert into team_members (project_id, team_id, user_id, created_at) values ('p', ${team(2)}, ${user(id)}, now())`.execute(
        db,
      );
      await sql`insert into team_member_permissions (project_id, team_id, user_id, permission_id) values ('p', ${team(2)}, ${user(id)}, 'member')`.execute(
        db,
      );
    }
    await sql`update users set selected_team_id = ${team(2)} where id = ${user(2)}`.execute(db);
    await sql`insert into verification_codes (id, project_id, purpose, lookup_hash, code_hash, data, created_at, expires_at, team_id)
      values (gen_random_uuid(), 'p', 'team_invitation', 'l', 'c', ${JSON.stringify({ team_id: team(2) })}, now(), now() + interval '1 day', ${team(2)})`.execute(
      db,
    );

    await sql`delete from teams where id = ${team(2)}`.execute(db);

    expect(await grants(team(2))).toEqual([]);
    expect(await db.selectFrom('team_members').selectAll().where('team_id', '=', team(2)).execute()).toEqual([]);
    expect(await selectedTeam(user(2))).toBeNull();
    const code = await db.selectFrom('verification_codes').select(['team_id', 'data']).executeTakeFirstOrThrow();
    expect(code).toEqual({ team_id: null, data: { team_id: team(2) } });
  });

  it('renames a definition in every grant and containment, and deleting it removes them', async () => {
    await sql`insert into teams (id, project_id, display_name, created_at) values (${team(3)}, 'p', 'Three', now())`.execute(
      db,
    );
    await sql`insert into team_members (project_id, team_id, user_id, created_at) values ('p', ${team(3)}, ${user(3)}, now())`.execute(
      db,
    );
    await sql`insert into team_member_permissions (project_id, team_id, user_id, permission_id) values ('p', ${team(3)}, ${user(3)}, 'member')`.execute(
      db,
    );
    await sql`update team_permission_definitions set id = 'colleague' where project_id = 'p' and id = 'member'`.execute(
      db,
    );
    expect(await grants(team(3))).toEqual([{ user_id: user(3), permission_id: 'colleague' }]);
    const contained = await db
      .selectFrom('team_permission_inclusions')
      .select('contained_id')
      .where('project_id', '=', 'p')
      .where('permission_id', '=', 'colleague')
      .execute();
    expect(contained).toHaveLength(2);

    await sql`delete from team_permission_definitions where project_id = 'p' and id = 'colleague'`.execute(db);
    expect(await grants(team(3))).toEqual([]);
    const left = await db
      .selectFrom('team_permission_inclusions')
      .select('permission_id')
      .where('project_id', '=', 'p')
      .where('permission_id', '=', 'colleague')
      .execute();
    expect(left).toEqual([]);
    // The other project's definition of the same name is untouched.
    expect((await definitions('q')).map((row) => row.id)).toContain('member');
  });
});
