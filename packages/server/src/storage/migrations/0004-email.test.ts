/**
 * Migration 0004 on a database that already has users: each user's primary
 * e-mail becomes their primary contact channel with the same verified and
 * sign-in flags, and sign-in e-mails stay unique, now across channels.
 */
import { PGlite } from '@electric-sql/pglite';
import { Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../migrate.js';
import { pgliteDialect } from '../pglite-driver.js';
import { pgliteExtensions } from '../pglite-extensions.js';
import { authEmailIndex, type Database, isUniqueViolation } from '../schema.js';
import { migrations } from './index.js';

const before = migrations.filter((migration) => migration.id < '0004');
const user = (id: number) => `00000000-0000-4000-8000-00000000000${id}`;

describe('migration 0004 (contact channels from primary e-mails)', () => {
  let pglite: PGlite;
  let db: Kysely<Database>;

  beforeAll(async () => {
    pglite = new PGlite({ extensions: pgliteExtensions });
    db = new Kysely<Database>({ dialect: pgliteDialect(pglite) });
    await migrate(db, 'public', before);
    await sql`insert into projects (id, display_name, created_at) values ('p', 'P', now())`.execute(db);
    const rows: [number, string | null, boolean, boolean][] = [
      [1, 'Ada@Example.com', true, true],
      [2, 'bob@example.com', false, false],
      [3, null, false, false],
    ];
    for (const [id, email, verified, auth] of rows) {
      await sql`insert into users (id, project_id, primary_email, primary_email_verified, primary_email_auth_enabled, signed_up_at, last_active_at)
        values (${user(id)}, 'p', ${email}, ${verified}, ${auth}, now(), now())`.execute(db);
    }
    expect(
      await migrate(
        db,
        'public',
        migrations.filter((migration) => migration.id < '0005'),
      ),
    ).toEqual(['0004-email']);
  });

  afterAll(async () => {
    await db.destroy();
  });

  it('gives every user with a primary e-mail one primary channel with the same flags', async () => {
    const channels = await db
      .selectFrom('contact_channels')
      .select(['user_id', 'value', 'is_verified', 'is_primary', 'used_for_auth', 'type'])
      .orderBy('user_id')
      .execute();
    expect(channels).toEqual([
      {
        user_id: user(1),
        value: 'Ada@Example.com',
        is_verified: true,
        is_primary: true,
        used_for_auth: true,
        type: 'email',
      },
      {
        user_id: user(2),
        value: 'bob@example.com',
        is_verified: false,
        is_primary: true,
        used_for_auth: false,
        type: 'email',
      },
    ]);
  });

  it('keeps sign-in e-mails unique per project, case-insensitively, on the channels', async () => {
    await sql`insert into users (id, project_id, signed_up_at, last_active_at) values (${user(4)}, 'p', now(), now())`.execute(
      db,
    );
    const clash = sql`insert into contact_channels (id, project_id, user_id, type, value, used_for_auth, created_at)
      values (gen_random_uuid(), 'p', ${user(4)}, 'email', 'ada@example.COM', true, now())`.execute(db);
    const error = await clash.then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(isUniqueViolation(error, authEmailIndex)).toBe(true);
  });
});
