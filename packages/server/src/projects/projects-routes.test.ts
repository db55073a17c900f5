/**
 * `/projects/current`: `GET` in the client view for client and server access
 * and the admin view for admin access; `PATCH` and `DELETE` for admin access
 * only, with bad input refused and nothing changed.
 */
import { headers as h, internalProjectId } from '@latchkey/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKeySet } from '../operations.js';
import { dbOf } from '../storage/open-storage.js';
import { authHeaders, call, countRows, expectKnownError, expectStatusRefusal, signUp } from '../test-support/api.js';
import { startTestService, type TestKeys, type TestService } from '../testing/index.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service?.close());

describe('GET /projects/current', () => {
  it.each(['client', 'server'] as const)('gives %s access the client view', async (accessType) => {
    const answer = await call(service, 'GET', '/projects/current', { headers: authHeaders(service, accessType) });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      id: service.projectId,
      display_name: 'Test project',
      config: {
        sign_up_enabled: true,
        credential_enabled: true,
        magic_link_enabled: false,
        passkey_enabled: false,
        client_team_creation_enabled: false,
        client_user_deletion_enabled: false,
        enabled_oauth_providers: [],
      },
    });
  });

  it('gives admin access the admin view, with the user count and the full config', async () => {
    await signUp(service);
    await signUp(service);
    await service.setProjectConfig({
      oauth_providers: [
        { id: 'github', enabled: true, type: 'shared' },
        { id: 'google', enabled: false, type: 'shared' },
      ],
    });
    const answer = await call(service, 'GET', '/projects/current', { headers: authHeaders(service, 'admin') });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      id: service.projectId,
      display_name: 'Test project',
      description: '',
      user_count: 2,
      is_production_mode: false,
    });
    expect(typeof answer.body.created_at_millis).toBe('number');
    expect(answer.body.config).toMatchObject({
      id: service.projectId,
      allow_localhost: true,
      create_team_on_sign_up: false,
      domains: [],
      email_config: { type: 'shared' },
      team_creator_default_permissions: [{ id: 'admin' }],
      team_member_default_permissions: [{ id: 'member' }],
      enabled_oauth_providers: [{ id: 'github' }],
    });
    const client = await call(service, 'GET', '/projects/current', { headers: authHeaders(service) });
    expect(client.body.config.enabled_oauth_providers).toEqual([{ id: 'github' }]);
  });

  it('lists the providers by id whatever order they were configured in, in both views', async () => {
    await service.setProjectConfig({
      oauth_providers: [
        { id: 'spotify', enabled: true, type: 'shared' },
        { id: 'discord', enabled: false, type: 'shared' },
        { id: 'github', enabled: true, type: 'shared' },
        { id: 'apple', enabled: true, type: 'shared' },
      ],
    });
    const client = await call(service, 'GET', '/projects/current', { headers: authHeaders(service) });
    const adminView = await call(service, 'GET', '/projects/current', { headers: authHeaders(service, 'admin') });
    await service.setProjectConfig({ oauth_providers: [] });
    expect(client.body.config.enabled_oauth_providers).toEqual([{ id: 'apple' }, { id: 'github' }, { id: 'spotify' }]);
    expect(adminView.body.config.enabled_oauth_providers).toEqual([
      { id: 'apple' },
      { id: 'github' },
      { id: 'spotify' },
    ]);
    expect(adminView.body.config.oauth_providers.map((p: { id: string }) => p.id)).toEqual([
      'apple',
      'discord',
      'github',
      'spotify',
    ]);
  });

  it('shows config changes at once', async () => {
    await service.setProjectConfig({ sign_up_enabled: false });
    const answer = await call(service, 'GET', '/projects/current', { headers: authHeaders(service) });
    await service.setProjectConfig({ sign_up_enabled: true });
    expect(answer.body.config.sign_up_enabled).toBe(false);
  });
});

const admin = () => authHeaders(service, 'admin');

function projectRow(projectId = service.projectId) {
  return dbOf(service.storage).selectFrom('projects').selectAll().where('id', '=', projectId).executeTakeFirst();
}

function patch(json: unknown, headers = admin()) {
  return call(service, 'PATCH', '/projects/current', { headers, json });
}

describe('PATCH /projects/current', () => {
  it('changes names and config, answers the admin view, and every view shows the change', async () => {
    const answer = await patch({
      display_name: 'Renamed',
      description: 'What it is for',
      config: { sign_up_enabled: false, client_team_creation_enabled: true },
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({
      id: service.projectId,
      display_name: 'Renamed',
      description: 'What it is for',
      is_production_mode: false,
      config: { sign_up_enabled: false, client_team_creation_enabled: true, credential_enabled: true },
    });
    expect(answer.body.user_count).toEqual(expect.any(Number));
    const client = await call(service, 'GET', '/projects/current', { headers: authHeaders(service) });
    expect(client.body).toMatchObject({ display_name: 'Renamed', config: { sign_up_enabled: false } });
    await patch({ display_name: 'Test project', description: null, config: { sign_up_enabled: true } });
  });

  it('keeps the description when the body leaves it out, and a null description reads back empty, never null', async () => {
    await patch({ description: 'Kept' });
    expect((await patch({ display_name: 'Test project' })).body.description).toBe('Kept');
    const cleared = await patch({ description: null });
    expect(cleared.status, cleared.text).toBe(200);
    expect(cleared.body.description).toBe('');
    const read = await call(service, 'GET', '/projects/current', { headers: admin() });
    expect(read.body.description).toBe('');
  });

  it("accepts the official SDK's update body (recorded request 203) and replaces lists wholesale", async () => {
    const body = {
      display_name: 'Renamed Project',
      description: 'desc',
      config: {
        domains: [{ domain: 'https://app.example.com', handler_path: '/handler' }],
        oauth_providers: [
          { id: 'github', enabled: true, type: 'shared' },
          { id: 'google', enabled: true, type: 'standard', client_id: 'gid', client_secret: 'gsecret' },
        ],
        email_config: {
          type: 'standard',
          host: 'smtp.example.com',
          port: 587,
          username: 'u',
          password: 'p',
          sender_name: 'Example',
          sender_email: 'noreply@example.com',
        },
        sign_up_enabled: true,
        magic_link_enabled: true,
        allow_localhost: true,
        create_team_on_sign_up: false,
        team_creator_default_permissions: [{ id: 'admin' }],
        team_member_default_permissions: [{ id: 'member' }],
      },
    };
    const answer = await patch(body);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.config).toMatchObject({
      ...body.config,
      enabled_oauth_providers: [{ id: 'github' }, { id: 'google' }],
    });
    const replaced = await patch({ config: { domains: [{ domain: 'https://b.example.com', handler_path: '/h' }] } });
    expect(replaced.body.config.domains).toEqual([{ domain: 'https://b.example.com', handler_path: '/h' }]);
    expect(replaced.body.config.oauth_providers).toHaveLength(2);
    const stored = JSON.stringify((await projectRow())?.config);
    expect(stored).not.toContain('gsecret');
    expect(stored).not.toContain('"password":"p"');
    await patch({
      display_name: 'Test project',
      description: null,
      config: {
        oauth_providers: [],
        domains: [],
        email_config: { type: 'shared' },
        magic_link_enabled: false,
        team_creator_default_permissions: [],
        team_member_default_permissions: [],
      },
    });
  });

  describe('secrets left out of an update', () => {
    const github = { id: 'github', enabled: true, type: 'standard', client_id: 'gh-id' };
    const smtp = {
      type: 'standard',
      host: 'smtp.example.com',
      port: 587,
      username: 'mailer',
      sender_name: 'Example',
      sender_email: 'noreply@example.com',
    };

    beforeAll(async () => {
      const set = await patch({
        config: {
          oauth_providers: [{ ...github, client_secret: 'kept-secret' }],
          email_config: { ...smtp, password: 'kept-password' },
        },
      });
      expect(set.status, set.text).toBe(200);
    });

    it('keeps the stored client secret and SMTP password while the client id, host and username stay', async () => {
      const answer = await patch({
        config: { oauth_providers: [{ ...github, enabled: false }], email_config: { ...smtp, sender_name: 'Renamed' } },
      });
      expect(answer.status, answer.text).toBe(200);
      expect(answer.body.config.oauth_providers).toEqual([{ ...github, enabled: false, client_secret: 'kept-secret' }]);
      expect(answer.body.config.email_config).toEqual({ ...smtp, sender_name: 'Renamed', password: 'kept-password' });
    });

    it.each([
      ['a new client id', { oauth_providers: [{ ...github, client_id: 'other-id' }] }],
      ['a provider that had no secret', { oauth_providers: [{ ...github, id: 'gitlab' }] }],
      ['another SMTP host', { email_config: { ...smtp, host: 'smtp.other.example' } }],
    ])('asks for the secret again with %s (SCHEMA_ERROR), changing nothing', async (_, config) => {
      const before = await projectRow();
      const answer = await patch({ config });
      expectKnownError(answer, 'SCHEMA_ERROR', 400);
      expect(await projectRow()).toEqual(before);
    });

    afterAll(async () => {
      await patch({ config: { oauth_providers: [], email_config: { type: 'shared' } } });
    });
  });

  describe('production mode', () => {
    it('is taken while a check of spec §5 fails, as the reference takes it; the admin view answers it', async () => {
      await patch({
        config: { allow_localhost: true, domains: [{ domain: 'http://127.0.0.1:3000', handler_path: '/handler' }] },
      });
      const on = await patch({ is_production_mode: true, display_name: 'In production' });
      expect(on.status, on.text).toBe(200);
      expect(on.body).toMatchObject({
        is_production_mode: true,
        display_name: 'In production',
        config: { allow_localhost: true, domains: [{ domain: 'http://127.0.0.1:3000', handler_path: '/handler' }] },
      });
      expect(on.body).not.toHaveProperty('production_mode_errors');
      const http = await patch({
        config: { domains: [{ domain: 'http://app.example.com', handler_path: '/handler' }] },
      });
      expect(http.status, http.text).toBe(200);
      expect(http.body.is_production_mode).toBe(true);
      const off = await patch({
        is_production_mode: false,
        display_name: 'Test project',
        config: { allow_localhost: true, domains: [] },
      });
      expect(off.body.is_production_mode).toBe(false);
    });
  });

  it.each([
    ['an unknown config key', { config: { sign_up_enabled: true, nope: 1 } }],
    ['a derived config key', { config: { enabled_oauth_providers: [] } }],
    ['an unknown key', { display_name: 'x', owner: 'me' }],
    ['an empty display name', { display_name: '' }],
    ['a display name over 256 characters', { display_name: 'n'.repeat(257) }],
    ['a display name that is a number', { display_name: 5 }],
    ['production mode as a string', { is_production_mode: 'true' }],
    ['a domain that is not a URL', { config: { domains: [{ domain: 'app.example.com', handler_path: '/h' }] } }],
    [
      'a handler path without a slash',
      { config: { domains: [{ domain: 'https://a.example.com', handler_path: 'h' }] } },
    ],
    ['an unknown OAuth provider', { config: { oauth_providers: [{ id: 'myspace', enabled: true, type: 'shared' }] } }],
    [
      'a provider named twice',
      {
        config: {
          oauth_providers: [
            { id: 'github', enabled: true, type: 'shared' },
            { id: 'github', enabled: false, type: 'shared' },
          ],
        },
      },
    ],
    [
      'a standard provider without credentials',
      { config: { oauth_providers: [{ id: 'x', enabled: true, type: 'standard' }] } },
    ],
    ['a config that is a list', { config: [] }],
    ['a body that is a list', []],
  ])('refuses %s with SCHEMA_ERROR, changing nothing', async (_, body) => {
    const before = await projectRow();
    expectKnownError(await patch(body), 'SCHEMA_ERROR', 400);
    expect(await projectRow()).toEqual(before);
  });

  it("refuses a domain named twice, though with other handler paths, with the original backend's plain text", async () => {
    const before = await projectRow();
    const twice = await patch({
      config: {
        domains: [
          { domain: 'https://twice.example.com', handler_path: '/handler' },
          { domain: 'https://twice.example.com', handler_path: '/handler2' },
        ],
      },
    });
    expectStatusRefusal(twice, 400, 'Duplicated domain found');
    expect(await projectRow()).toEqual(before);
  });

  it('takes any sender address the HTML form rule accepts, as the original backend', async () => {
    const smtp = {
      type: 'standard',
      host: 'smtp.example.com',
      port: 587,
      username: 'u',
      password: 'p',
      sender_name: 'S',
    };
    const answer = await patch({ config: { email_config: { ...smtp, sender_email: 'test@email.com2' } } });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.config.email_config.sender_email).toBe('test@email.com2');
    expectKnownError(
      await patch({ config: { email_config: { ...smtp, sender_email: 'a b@example.com' } } }),
      'SCHEMA_ERROR',
      400,
    );
    await patch({ config: { email_config: { type: 'shared' } } });
  });

  it('refuses a NUL and keeps other hostile text as text', async () => {
    const before = await projectRow();
    const nul = await call(service, 'PATCH', '/projects/current', {
      headers: { ...admin(), 'content-type': 'application/json' },
      body: '{"display_name":"a\\u0000b"}',
    });
    expect(nul.headers.get(h.knownError)).toMatch(/^(BODY_PARSING_ERROR|SCHEMA_ERROR)$/);
    expect(await projectRow()).toEqual(before);
    for (const name of ['%', '_', '\\', "'; drop table projects; --"]) {
      expect((await patch({ display_name: name })).body.display_name).toBe(name);
    }
    await patch({ display_name: 'Test project' });
  });

  it('answers an empty change with the project unchanged (it was a 500: an UPDATE with no columns)', async () => {
    const before = await projectRow();
    const answer = await call(service, 'PATCH', '/projects/current', { headers: admin(), json: {} });
    expect(answer.headers.get(h.actualStatus), answer.text).toBeNull();
    expect(answer.body).toMatchObject({ id: service.projectId, display_name: before!.display_name });
    expect(await projectRow()).toEqual(before);
  });

  it.each(['client', 'server'] as const)('refuses %s access with INSUFFICIENT_ACCESS_TYPE', async (accessType) => {
    const before = await projectRow();
    const answer = await patch({ display_name: 'Nope' }, authHeaders(service, accessType));
    expectKnownError(answer, 'INSUFFICIENT_ACCESS_TYPE', 401);
    expect(answer.body.details.allowed_access_types).toEqual(['admin']);
    expect(await projectRow()).toEqual(before);
  });
});

describe('DELETE /projects/current', () => {
  function headersFor(
    project: { projectId: string; keys: TestKeys },
    accessType: 'client' | 'server' | 'admin' = 'admin',
  ) {
    return {
      ...authHeaders(service, accessType),
      [h.projectId]: project.projectId,
      [h.publishableClientKey]: project.keys.publishableClientKey,
      [h.secretServerKey]: project.keys.secretServerKey,
      [h.superSecretAdminKey]: project.keys.superSecretAdminKey,
    };
  }

  it('deletes the project and everything in it; its keys stop working', async () => {
    const doomed = await service.createOtherProject();
    const doomedService = { ...service, projectId: doomed.projectId, keys: doomed.keys };
    await signUp(doomedService);
    await signUp(doomedService);
    expect(await countRows(service, 'users', doomed.projectId)).toBe(2);
    const kept = await countRows(service, 'users');
    const answer = await call(service, 'DELETE', '/projects/current', { headers: headersFor(doomed), json: {} });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toEqual({ success: true });
    expect(await projectRow(doomed.projectId)).toBeUndefined();
    for (const table of ['users', 'sessions', 'api_key_sets', 'signing_keys'] as const) {
      expect(await countRows(service, table, doomed.projectId)).toBe(0);
    }
    expect(await countRows(service, 'users')).toBe(kept);
    expectKnownError(
      await call(service, 'GET', '/projects/current', { headers: headersFor(doomed, 'server') }),
      'INVALID_SECRET_SERVER_KEY',
      401,
    );
    expect((await call(service, 'GET', '/projects/current', { headers: authHeaders(service) })).status).toBe(200);
  });

  it('takes no body as well as {} (decision d), and ignores any other, as the original backend', async () => {
    const doomed = await service.createOtherProject();
    const answer = await call(service, 'DELETE', '/projects/current', { headers: headersFor(doomed) });
    expect(answer.status).toBe(200);
    expect(await projectRow(doomed.projectId)).toBeUndefined();
    const other = await service.createOtherProject();
    const ignored = await call(service, 'DELETE', '/projects/current', {
      headers: headersFor(other),
      json: { force: true },
    });
    expect(ignored.status).toBe(200);
    expect(await projectRow(other.projectId)).toBeUndefined();
  });

  it('never deletes the internal project (SCHEMA_ERROR)', async () => {
    const keys = (await createApiKeySet(service.storage, internalProjectId)) as TestKeys;
    const answer = await call(service, 'DELETE', '/projects/current', {
      headers: headersFor({ projectId: internalProjectId, keys }),
    });
    expectKnownError(answer, 'SCHEMA_ERROR', 400);
    expect(answer.body.details.message).toContain('internal project cannot be deleted');
    expect(await projectRow(internalProjectId)).toBeDefined();
  });

  it.each(['client', 'server'] as const)('refuses %s access, deleting nothing', async (accessType) => {
    const answer = await call(service, 'DELETE', '/projects/current', { headers: authHeaders(service, accessType) });
    expectKnownError(answer, 'INSUFFICIENT_ACCESS_TYPE', 401);
    expect(await projectRow()).toBeDefined();
  });
});
