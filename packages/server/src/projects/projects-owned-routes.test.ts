/**
 * `GET` and `POST /internal/projects` (wire-protocol §7.1): a dashboard user
 * of the internal project lists and creates the projects they own, in the
 * admin view; elsewhere the routes answer EXPECTED_INTERNAL_PROJECT.
 */
import { headers as h, internalProjectId, isKnownError } from '@latchkey/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addProjectOwner, createApiKeySet } from '../operations.js';
import { dbOf } from '../storage/open-storage.js';
import { authHeaders, call, countRows, expectKnownError, signUp, userHeaders } from '../test-support/api.js';
import { startTestService, type TestKeys, type TestService } from '../testing/index.js';

let service: TestService;
let internal: TestService;
let owner: Awaited<ReturnType<typeof signUp>>;
let stranger: Awaited<ReturnType<typeof signUp>>;

beforeAll(async () => {
  service = await startTestService();
  const keys = (await createApiKeySet(service.storage, internalProjectId)) as TestKeys;
  internal = { ...service, projectId: internalProjectId, keys };
  owner = await signUp(internal);
  stranger = await signUp(internal);
});
afterAll(() => service?.close());

async function projectCount(): Promise<number> {
  const row = await dbOf(service.storage)
    .selectFrom('projects')
    .select((eb) => eb.fn.countAll<string | number>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

const create = (json: unknown, tokens = owner) =>
  call(service, 'POST', '/internal/projects', { headers: userHeaders(internal, tokens), json });
const list = (tokens = owner) => call(service, 'GET', '/internal/projects', { headers: userHeaders(internal, tokens) });

describe('POST /internal/projects', () => {
  it("creates a project owned by the caller, answering 201 and the admin view (the official SDK's body, recorded request 235)", async () => {
    const answer = await create({
      display_name: 'Created From Dashboard',
      config: { credential_enabled: true, magic_link_enabled: false },
    });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body).toMatchObject({
      display_name: 'Created From Dashboard',
      description: '',
      user_count: 0,
      is_production_mode: false,
      // In development (the test service's mode) a new project trusts localhost and sends no new-device alerts.
      config: {
        credential_enabled: true,
        magic_link_enabled: false,
        allow_localhost: true,
        domains: [],
        new_device_alert_enabled: false,
      },
    });
    expect(answer.body.config.id).toBe(answer.body.id);
    const owners = await dbOf(service.storage)
      .selectFrom('project_owners')
      .selectAll()
      .where('project_id', '=', answer.body.id)
      .execute();
    expect(owners.map((row) => row.user_id)).toEqual([owner.user_id]);
  });

  it('creates no key set: the owner reaches the project with their admin access token', async () => {
    const answer = await create({ display_name: 'Keyless' });
    expect(await countRows(service, 'api_key_sets', answer.body.id)).toBe(0);
  });

  it('creates a project in production mode though it allows localhost, as the reference does', async () => {
    const answer = await create({ display_name: 'Early', is_production_mode: true, config: { allow_localhost: true } });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body).toMatchObject({ is_production_mode: true, config: { allow_localhost: true } });
  });

  it('takes every admin update field and seals secrets', async () => {
    const answer = await create({
      display_name: 'Full',
      description: 'In production from the start',
      is_production_mode: true,
      config: {
        allow_localhost: false,
        domains: [{ domain: 'https://full.example.com', handler_path: '/handler' }],
        oauth_providers: [
          { id: 'github', enabled: true, type: 'standard', client_id: 'id', client_secret: 'sealed-1' },
        ],
      },
    });
    expect(answer.status, answer.text).toBe(201);
    expect(answer.body.is_production_mode).toBe(true);
    expect(answer.body.config.oauth_providers[0].client_secret).toBe('sealed-1');
    const row = await dbOf(service.storage)
      .selectFrom('projects')
      .select('config')
      .where('id', '=', answer.body.id)
      .executeTakeFirstOrThrow();
    expect(JSON.stringify(row.config)).not.toContain('sealed-1');
  });

  it.each([
    ['no display name', { config: {} }],
    ['an empty display name', { display_name: '' }],
    ['an unknown key', { display_name: 'x', id: 'chosen-id' }],
    ['an unknown config key', { display_name: 'x', config: { nope: true } }],
    [
      'a standard provider without credentials',
      { display_name: 'x', config: { oauth_providers: [{ id: 'github', enabled: true, type: 'standard' }] } },
    ],
    ['a list', [{ display_name: 'x' }]],
  ])('refuses %s with SCHEMA_ERROR, creating nothing', async (_, body) => {
    const before = await projectCount();
    expectKnownError(await create(body), 'SCHEMA_ERROR', 400);
    expect(await projectCount()).toBe(before);
  });

  it('keeps hostile names as text', async () => {
    for (const name of ['%', '_', '\\', "'); drop table projects; --"]) {
      const answer = await create({ display_name: name });
      expect(answer.body.display_name).toBe(name);
    }
  });
});

describe('GET /internal/projects', () => {
  it('lists the projects the caller owns, oldest first, in the admin view, and no one else’s', async () => {
    const mine = await list();
    expect(mine.status).toBe(200);
    expect(mine.body.is_paginated).toBe(false);
    expect(mine.body.items.length).toBeGreaterThanOrEqual(3);
    expect(mine.body.items[0]).toMatchObject({
      display_name: 'Created From Dashboard',
      description: '',
      user_count: 0,
    });
    const created = mine.body.items.map((project: { created_at_millis: number }) => project.created_at_millis);
    expect(created).toEqual([...created].sort((x, y) => x - y));
    expect((await list(stranger)).body).toEqual({ items: [], is_paginated: false });
  });

  it('shows a project the caller created at once', async () => {
    const answer = await create({ display_name: 'Fresh' }, stranger);
    expect((await list(stranger)).body.items.map((project: { id: string }) => project.id)).toEqual([answer.body.id]);
  });
});

describe('addProjectOwner (operations)', () => {
  it('makes an internal user an owner of an existing project, and refuses anyone else', async () => {
    const helper = await signUp(internal);
    await addProjectOwner(service.storage, service.projectId, helper.user_id);
    expect((await list(helper)).body.items.map((project: { id: string }) => project.id)).toEqual([service.projectId]);
    const outsider = await signUp(service);
    await expect(addProjectOwner(service.storage, service.projectId, outsider.user_id)).rejects.toThrow(
      /internal project has no user/,
    );
    await expect(addProjectOwner(service.storage, 'no-such-project', helper.user_id)).rejects.toSatisfy((error) =>
      isKnownError(error, 'PROJECT_NOT_FOUND'),
    );
  });
});

describe('refusals', () => {
  it.each([
    ['GET', undefined],
    ['POST', { display_name: 'Elsewhere' }],
  ] as const)('%s answers EXPECTED_INTERNAL_PROJECT on another project', async (method, json) => {
    const user = await signUp(service);
    const before = await projectCount();
    const answer = await call(service, method, '/internal/projects', { headers: userHeaders(service, user), json });
    expectKnownError(answer, 'EXPECTED_INTERNAL_PROJECT', 401);
    expect(await projectCount()).toBe(before);
  });

  it.each([
    ['GET', undefined],
    ['POST', { display_name: 'No user' }],
  ] as const)(
    '%s needs a signed-in user: USER_AUTHENTICATION_REQUIRED (401), as the original backend',
    async (method, json) => {
      const before = await projectCount();
      const answer = await call(service, method, '/internal/projects', { headers: authHeaders(internal), json });
      expectKnownError(answer, 'USER_AUTHENTICATION_REQUIRED', 401);
      expect(await projectCount()).toBe(before);
    },
  );

  it("refuses another user's or project's token", async () => {
    const user = await signUp(service);
    const answer = await call(service, 'GET', '/internal/projects', {
      headers: { ...authHeaders(internal), [h.accessToken]: user.access_token },
    });
    expectKnownError(answer, 'INVALID_PROJECT_FOR_ACCESS_TOKEN', 401);
  });
});
