/**
 * One storage contract, every backend: PGlite always; PostgreSQL when
 * `DATABASE_URL` is set or postgres://postgres@127.0.0.1:5432/test answers.
 * The same queries the service runs must behave the same on both. This file
 * holds migrations, users, sessions and transactions; the other stores' contracts
 * are beside it (`teams`, `users` and `records.contract.test.ts`).
 */
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isKnownError } from '@latchkey/protocol';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isValidApiKey } from '../api-keys/api-keys.js';
import { randomCrockford } from '../crypto/random.js';
import { activityWrites } from '../metrics/activity.js';
import { bootstrap, createApiKeySet, createProject, revokeApiKeySet, updateProjectConfig } from '../operations.js';
import { findProject } from '../projects/projects.js';
import { touchSession } from '../sessions/session-activity.js';
import { createSession, findSession, revokeSession } from '../sessions/session-store.js';
import { describeEachBackend, openBackendStorage } from '../test-support/backends.js';
import { postgresUp, postgresUrl } from '../test-support/postgres.js';
import { testSeed } from '../testing/seed-cache.js';
import { deleteUserRow, findUser, findUserByAuthEmail, updateUser } from '../users/user-store.js';
import { addUser as insertUser } from '../users/users-actions.js';
import { migrate, splitStatements } from './migrate.js';
import { migrations } from './migrations/index.js';
import { dbOf, openPGlite, openStorage, type Storage } from './open-storage.js';
import { isUniqueViolation, json } from './schema.js';

describeEachBackend('storage contract', (backend) => {
  let storage: Storage;
  let drop: () => Promise<void>;
  const now = Date.now();

  beforeAll(async () => {
    ({ storage, drop } = await openBackendStorage(backend));
  });
  afterAll(async () => {
    await drop?.();
  });

  async function newUser(projectId: string, email = `${randomUUID()}@example.com`) {
    return insertUser(dbOf(storage), {
      projectId,
      primaryEmail: email,
      primaryEmailAuthEnabled: true,
      passwordHash: 'hash',
      now,
    });
  }

  it('applies migrations once: a second run applies nothing', async () => {
    expect(await migrate(dbOf(storage), storage.schema)).toEqual([]);
    const rows = await dbOf(storage).selectFrom('latchkey_migrations').select('id').execute();
    expect(rows.map((r) => r.id)).toEqual(migrations.map((m) => m.id));
  });

  it('refuses to run when an applied migration was edited', async () => {
    const edited = [{ id: '0001-initial', sql: 'select 1' }];
    await expect(migrate(dbOf(storage), storage.schema, edited)).rejects.toThrow(/changed after it was applied/);
  });

  it('creates, reads and updates projects with their config as JSON', async () => {
    const project = await createProject(storage, { displayName: 'P', config: { allow_localhost: false }, now });
    expect(project.createdAt.getTime()).toBe(now);
    expect((await findProject(dbOf(storage), project.id))?.config.allow_localhost).toBe(false);
    const config = await updateProjectConfig(storage, project.id, {
      domains: [{ domain: 'https://a.example.com', handler_path: '/handler' }],
    });
    expect(config).toMatchObject({ allow_localhost: false, sign_up_enabled: true });
    expect((await findProject(dbOf(storage), project.id))?.config.domains).toHaveLength(1);
    expect(await findProject(dbOf(storage), 'missing')).toBeNull();
  });

  it('refuses invalid config patches and unknown projects', async () => {
    const project = await createProject(storage, { displayName: 'P' });
    await expect(updateProjectConfig(storage, project.id, { nope: true } as never)).rejects.toSatisfy((e) =>
      isKnownError(e, 'SCHEMA_ERROR'),
    );
    await expect(updateProjectConfig(storage, 'missing', {})).rejects.toSatisfy((e) =>
      isKnownError(e, 'PROJECT_NOT_FOUND'),
    );
  });

  it('checks API keys by hash, per project, kind, revocation and expiry', async () => {
    const a = await createProject(storage, { displayName: 'A' });
    const b = await createProject(storage, { displayName: 'B' });
    const keys = await createApiKeySet(storage, a.id, { now, expiresAtMillis: now + 1000 });
    const pck = keys.publishableClientKey!;
    expect(pck).toMatch(/^pck_[0-9a-hjkmnp-tv-z]{45}$/);
    expect(await isValidApiKey(dbOf(storage), a.id, 'publishableClientKey', pck, now)).toBe(true);
    expect(await isValidApiKey(dbOf(storage), b.id, 'publishableClientKey', pck, now)).toBe(false);
    expect(await isValidApiKey(dbOf(storage), a.id, 'secretServerKey', pck, now)).toBe(false);
    expect(await isValidApiKey(dbOf(storage), a.id, 'publishableClientKey', pck, now + 1000)).toBe(false);
    const stored = await dbOf(storage)
      .selectFrom('api_key_sets')
      .selectAll()
      .where('id', '=', keys.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(stored)).not.toContain(pck);
    expect(stored.publishable_client_key_last_four).toBe(pck.slice(-4));
    expect(await revokeApiKeySet(storage, b.id, keys.id)).toBe(false);
    expect(await revokeApiKeySet(storage, a.id, keys.id)).toBe(true);
    expect(await isValidApiKey(dbOf(storage), a.id, 'publishableClientKey', pck, now)).toBe(false);
  });

  it('stores metadata of every JSON kind unchanged', async () => {
    const project = await createProject(storage, { displayName: 'P' });
    const user = await newUser(project.id);
    for (const value of ['text', '"quoted"', ['a', 1], [], null, 0, true, { a: { b: [null] } }, 'ünïcødé 🔑']) {
      const row = await updateUser(dbOf(storage), project.id, user.id, { client_metadata: value });
      expect(row?.client_metadata).toEqual(value);
      expect((await findUser(dbOf(storage), project.id, user.id))?.client_metadata).toEqual(value);
    }
  });

  it('keeps timestamps to the millisecond', async () => {
    const project = await createProject(storage, { displayName: 'P', now: 1_700_000_000_123 });
    expect((await findProject(dbOf(storage), project.id))?.createdAt.getTime()).toBe(1_700_000_000_123);
  });

  it('allows one sign-in e-mail per project, case-insensitively', async () => {
    const a = await createProject(storage, { displayName: 'A' });
    const b = await createProject(storage, { displayName: 'B' });
    await newUser(a.id, 'Same@Example.com');
    await expect(newUser(a.id, 'same@example.COM')).rejects.toSatisfy(isUniqueViolation);
    await newUser(b.id, 'same@example.com');
    expect((await findUserByAuthEmail(dbOf(storage), a.id, 'SAME@example.com'))?.primary_email).toBe(
      'Same@Example.com',
    );
    expect(await findUserByAuthEmail(dbOf(storage), a.id, 'other@example.com')).toBeNull();
  });

  it('finds sessions by refresh token within their project and lifetime; revokes them', async () => {
    const project = await createProject(storage, { displayName: 'P' });
    const other = await createProject(storage, { displayName: 'O' });
    const user = await newUser(project.id);
    const { refreshToken } = await createSession(dbOf(storage), {
      projectId: project.id,
      userId: user.id,
      now,
      lifetimeMs: 1000,
    });
    expect(refreshToken).toMatch(/^[0-9a-hjkmnp-tv-z]{45}$/);
    const session = await findSession(dbOf(storage), project.id, refreshToken, now);
    expect(session?.user_id).toBe(user.id);
    expect(await findSession(dbOf(storage), other.id, refreshToken, now)).toBeNull();
    expect(await findSession(dbOf(storage), project.id, refreshToken, now + 1000)).toBeNull();
    await touchSession(dbOf(storage), session!, now + 500);
    expect((await findUser(dbOf(storage), project.id, user.id))?.last_active_at.getTime()).toBe(now + 500);
    expect(await revokeSession(dbOf(storage), project.id, refreshToken, now)).not.toBeNull();
    expect(await revokeSession(dbOf(storage), project.id, refreshToken, now)).toBeNull();
  });

  it('refuses a session whose user belongs to another project', async () => {
    const project = await createProject(storage, { displayName: 'P' });
    const other = await createProject(storage, { displayName: 'O' });
    const user = await newUser(project.id);
    await expect(createSession(dbOf(storage), { projectId: other.id, userId: user.id, now })).rejects.toThrow();
  });

  it('writes a session with what else a sign-in records in one statement: all of it, or none', async () => {
    const project = await createProject(storage, { displayName: 'P' });
    const user = await newUser(project.id);
    const db = dbOf(storage);
    const activity = (userId: string, at: number) =>
      activityWrites(db, { projectId: project.id, userId, now: at, country: 'NZ', markActive: true });
    const day = now + 86_400_000;
    const { sessionId } = await createSession(db, {
      projectId: project.id,
      userId: user.id,
      now: day,
      also: () => activity(user.id, day),
    });
    const stored = await findUser(db, project.id, user.id);
    expect(stored).toMatchObject({ country_code: 'NZ', last_active_at: new Date(day) });
    const days = () => db.selectFrom('user_activity_days').select('day').where('user_id', '=', user.id).execute();
    expect(await days()).toEqual([{ day: new Date(new Date(day).toISOString().slice(0, 10)) }]);
    expect(await db.selectFrom('sessions').select('id').where('id', '=', sessionId).execute()).toHaveLength(1);

    // A session for a user of another project breaks the statement: the activity part is not written either.
    const other = await createProject(storage, { displayName: 'O' });
    const later = day + 86_400_000;
    await expect(
      createSession(db, { projectId: other.id, userId: user.id, now: later, also: () => activity(user.id, later) }),
    ).rejects.toThrow();
    expect(await days()).toHaveLength(1);
    expect((await findUser(db, project.id, user.id))?.last_active_at).toEqual(new Date(day));
  });

  it('deletes sessions with their user, and everything with its project', async () => {
    const project = await createProject(storage, { displayName: 'P' });
    const user = await newUser(project.id);
    await createSession(dbOf(storage), { projectId: project.id, userId: user.id, now });
    expect(await deleteUserRow(dbOf(storage), project.id, user.id)).toBe(true);
    expect(await deleteUserRow(dbOf(storage), project.id, user.id)).toBe(false);
    const left = await dbOf(storage).selectFrom('sessions').select('id').where('user_id', '=', user.id).execute();
    expect(left).toEqual([]);
    const second = await newUser(project.id);
    await createApiKeySet(storage, project.id);
    await dbOf(storage).deleteFrom('projects').where('id', '=', project.id).execute();
    expect(await findUser(dbOf(storage), project.id, second.id)).toBeNull();
    const keys = await dbOf(storage)
      .selectFrom('api_key_sets')
      .select('id')
      .where('project_id', '=', project.id)
      .execute();
    expect(keys).toEqual([]);
  });

  it('rolls a failed transaction back entirely', async () => {
    const project = await createProject(storage, { displayName: 'P' });
    const email = `${randomUUID()}@example.com`;
    await expect(
      dbOf(storage)
        .transaction()
        .execute(async (trx) => {
          await insertUser(trx, {
            projectId: project.id,
            primaryEmail: email,
            primaryEmailAuthEnabled: true,
            passwordHash: 'h',
            now,
          });
          throw new Error('boom');
        }),
    ).rejects.toThrow('boom');
    expect(await findUserByAuthEmail(dbOf(storage), project.id, email)).toBeNull();
  });

  it('serves queries from elsewhere while a transaction is open, and never inside it', async () => {
    const project = await createProject(storage, { displayName: 'P' });
    let release!: () => void;
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    const email = `${randomUUID()}@example.com`;
    const transaction = dbOf(storage)
      .transaction()
      .execute(async (trx) => {
        await insertUser(trx, {
          projectId: project.id,
          primaryEmail: email,
          primaryEmailAuthEnabled: true,
          passwordHash: 'h',
          now,
        });
        await held;
        throw new Error('rolled back');
      });
    const outside = findUserByAuthEmail(dbOf(storage), project.id, email);
    release();
    await expect(transaction).rejects.toThrow('rolled back');
    expect(await outside).toBeNull();
    const burst = await Promise.all(Array.from({ length: 20 }, () => findProject(dbOf(storage), project.id)));
    expect(burst.every((p) => p?.id === project.id)).toBe(true);
  });

  it('bootstraps the internal project once, and the dev project keys only on the first start', async () => {
    const fresh = await openBackendStorage(backend);
    try {
      const first = await bootstrap(fresh.storage, { dev: true });
      expect(first?.publishableClientKey).toMatch(/^pck_/);
      expect(first?.secretServerKey).toMatch(/^ssk_/);
      expect(first?.superSecretAdminKey).toMatch(/^sak_/);
      expect(await bootstrap(fresh.storage, { dev: true })).toBeNull();
      const internal = await findProject(dbOf(fresh.storage), 'internal');
      expect(internal).toMatchObject({ displayName: 'Latchkey internal' });
      expect(internal?.config).toMatchObject({
        sign_up_enabled: true,
        credential_enabled: true,
        allow_localhost: true,
      });
      const dev = await findProject(dbOf(fresh.storage), first!.projectId);
      expect(dev?.displayName).toBe('Default project');
      expect(dev?.config.client_user_deletion_enabled).toBe(false);
      expect(
        await isValidApiKey(
          dbOf(fresh.storage),
          first!.projectId,
          'secretServerKey',
          first!.secretServerKey,
          Date.now(),
        ),
      ).toBe(true);
    } finally {
      await fresh.drop();
    }
  });

  it('writes JSON text parameters, never PostgreSQL arrays', async () => {
    const project = await createProject(storage, { displayName: 'P' });
    await dbOf(storage)
      .updateTable('projects')
      .set({ config: json({ list: [1, 2] }) })
      .where('id', '=', project.id)
      .execute();
    const row = await dbOf(storage)
      .selectFrom('projects')
      .select('config')
      .where('id', '=', project.id)
      .executeTakeFirstOrThrow();
    expect(row.config).toEqual({ list: [1, 2] });
  });
});

describe.skipIf(!postgresUp)('PostgreSQL specifics', () => {
  it('several instances opening one new schema at once apply each migration once', async () => {
    const schema = `lk_race_${randomCrockford(10)}`;
    const storages = await Promise.all(
      Array.from({ length: 4 }, () => openStorage({ databaseUrl: postgresUrl, schema })),
    );
    try {
      const rows = await dbOf(storages[0]!).selectFrom('latchkey_migrations').select('id').execute();
      expect(rows).toHaveLength(migrations.length);
      const results = await Promise.all(storages.map((s) => bootstrap(s, { dev: true })));
      expect(results.filter((r) => r !== null)).toHaveLength(1);
    } finally {
      await sql`drop schema ${sql.id(schema)} cascade`.execute(dbOf(storages[0]!));
      await Promise.all(storages.map((s) => s.close()));
    }
  });

  it('keeps schemas apart', async () => {
    const [a, b] = await Promise.all(
      ['a', 'b'].map((x) => openStorage({ databaseUrl: postgresUrl, schema: `lk_iso_${x}_${randomCrockford(8)}` })),
    );
    try {
      await createProject(a!, { id: 'only-in-a', displayName: 'A' });
      expect(await findProject(dbOf(b!), 'only-in-a')).toBeNull();
    } finally {
      for (const s of [a!, b!]) {
        await sql`drop schema ${sql.id(s.schema)} cascade`.execute(dbOf(s));
        await s.close();
      }
    }
  });
});

describe('PGlite data directories', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'latchkey-datadir-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('keeps data across restarts and leaves other files of the directory alone', async () => {
    const first = await openPGlite({ dataDir: dir, schema: 'public', seed: await testSeed() });
    await createProject(first, { id: 'kept', displayName: 'Kept' });
    await first.close();
    await first.close();
    const second = await openStorage({ dataDir: dir });
    try {
      expect((await findProject(dbOf(second), 'kept'))?.displayName).toBe('Kept');
      expect(await migrate(dbOf(second), 'public')).toEqual([]);
    } finally {
      await second.close();
    }
  });
});

describe('splitStatements', () => {
  it('splits at semicolons that end a line', () => {
    expect(splitStatements('create table a (x int);\n\ncreate index b on a (x);\nselect 1')).toEqual([
      'create table a (x int)',
      'create index b on a (x)',
      'select 1',
    ]);
  });
});

describe('openStorage options', () => {
  it('refuses a schema name that is not a plain identifier', async () => {
    await expect(openStorage({ schema: 'x"; drop table users; --' })).rejects.toThrow(/invalid schema name/);
  });
});
