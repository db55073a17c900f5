/**
 * `/internal/api-keys` over HTTP: the shapes of wire-protocol §15.7, keys in
 * full only in the creation answer, revocation that takes effect at once,
 * API_KEY_NOT_FOUND for every id that names no set of the project, bad input
 * refused with nothing changed, and only admin access let in.
 */
import { Writable } from 'node:stream';
import { headers as h } from '@latchkey/protocol';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbOf } from '../storage/open-storage.js';
import { type AccessType, authHeaders, call, countRows, expectKnownError } from '../test-support/api.js';
import { startTestService, type TestService } from '../testing/index.js';

let service: TestService;
let other: Awaited<ReturnType<TestService['createOtherProject']>>;
const logLines: string[] = [];

beforeAll(async () => {
  const sink = new Writable({
    write(chunk, _encoding, done) {
      logLines.push(String(chunk));
      done();
    },
  });
  service = await startTestService({ logger: pino({ level: 'info' }, sink) });
  other = await service.createOtherProject();
});
afterAll(() => service?.close());

const admin = () => authHeaders(service, 'admin');

async function keySetRows(projectId = service.projectId) {
  return dbOf(service.storage)
    .selectFrom('api_key_sets')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('id')
    .execute();
}

async function create(body: Record<string, unknown>) {
  const answer = await call(service, 'POST', '/internal/api-keys', { headers: admin(), json: body });
  expect(answer.status, answer.text).toBe(200);
  return answer.body;
}

function projectCurrent(accessType: AccessType, key: string) {
  const header = { client: h.publishableClientKey, server: h.secretServerKey, admin: h.superSecretAdminKey }[
    accessType
  ];
  return call(service, 'GET', '/projects/current', { headers: { ...authHeaders(service, accessType), [header]: key } });
}

describe('POST /internal/api-keys', () => {
  it('answers the first view: the keys asked for, in full, and nothing for the others', async () => {
    const expiresAt = service.clock.now() + 86_400_000;
    const body = await create({
      description: 'CI key',
      expires_at_millis: expiresAt,
      has_publishable_client_key: true,
      has_secret_server_key: true,
      has_super_secret_admin_key: false,
    });
    expect(body).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      description: 'CI key',
      created_at_millis: expect.any(Number),
      expires_at_millis: expiresAt,
      publishable_client_key: expect.stringMatching(/^pck_[0-9a-hjkmnp-tv-z]{45}$/),
      secret_server_key: expect.stringMatching(/^ssk_[0-9a-hjkmnp-tv-z]{45}$/),
    });
    expect(Math.abs(body.created_at_millis - service.clock.now())).toBeLessThan(5000);
    expect((await projectCurrent('client', body.publishable_client_key)).status).toBe(200);
    expect((await projectCurrent('server', body.secret_server_key)).status).toBe(200);
  });

  it('creates a key set that expired already when its expiry is in the past: its keys do not work', async () => {
    const body = await create({ expires_at_millis: 1_000, has_secret_server_key: true });
    expect(body.expires_at_millis).toBe(1_000);
    expectKnownError(await projectCurrent('server', body.secret_server_key), 'INVALID_SECRET_SERVER_KEY', 401);
  });

  it('lasts 100 years without an expiry, and takes an admin key alone', async () => {
    const body = await create({ has_super_secret_admin_key: true });
    expect(body.description).toBe('');
    expect(body.expires_at_millis - body.created_at_millis).toBe(100 * 365 * 86_400_000);
    expect(Object.keys(body).sort()).toEqual([
      'created_at_millis',
      'description',
      'expires_at_millis',
      'id',
      'super_secret_admin_key',
    ]);
    expect((await projectCurrent('admin', body.super_secret_admin_key)).status).toBe(200);
  });

  it('stores neither the keys nor anything that gives them back, and never logs them', async () => {
    const body = await create({ has_publishable_client_key: true, has_secret_server_key: true });
    const stored = JSON.stringify(await keySetRows());
    expect(stored).not.toContain(body.publishable_client_key);
    expect(stored).not.toContain(body.secret_server_key);
    const log = logLines.join('');
    expect(log).toContain('/api/v1/internal/api-keys');
    expect(log).not.toContain(body.secret_server_key);
    expect(log).not.toContain(service.keys.superSecretAdminKey);
  });

  it.each([
    ['no kind of key', { description: 'x' }],
    ['every kind false', { has_publishable_client_key: false, has_secret_server_key: false }],
    ['a string for a flag', { has_secret_server_key: 'true' }],
    ['a number for the description', { description: 5, has_secret_server_key: true }],
    ['a description over 1024 characters', { description: 'd'.repeat(1025), has_secret_server_key: true }],
    ['an expiry as a string', { expires_at_millis: '2030-01-01', has_secret_server_key: true }],
    ['a fractional expiry', { expires_at_millis: 1.5, has_secret_server_key: true }],
    ['a negative expiry', { expires_at_millis: -1, has_secret_server_key: true }],
    ['an expiry past year 9999', { expires_at_millis: 1e16, has_secret_server_key: true }],
    ['an unknown key', { has_secret_server_key: true, is_admin: true }],
    ['an array', [{ has_secret_server_key: true }]],
  ])('refuses %s with SCHEMA_ERROR, creating nothing', async (_, body) => {
    const before = await countRows(service, 'api_key_sets');
    const answer = await call(service, 'POST', '/internal/api-keys', { headers: admin(), json: body });
    expectKnownError(answer, 'SCHEMA_ERROR', 400);
    expect(await countRows(service, 'api_key_sets')).toBe(before);
  });

  it('refuses a body that is not JSON, or too large', async () => {
    const before = await countRows(service, 'api_key_sets');
    const headers = { ...admin(), 'content-type': 'application/json' };
    expectKnownError(
      await call(service, 'POST', '/internal/api-keys', { headers, body: '{"has_secret_server_key":' }),
      'BODY_PARSING_ERROR',
      400,
    );
    const huge = JSON.stringify({ description: 'x'.repeat(200_000), has_secret_server_key: true });
    const answer = await call(service, 'POST', '/internal/api-keys', { headers, body: huge });
    expect(answer.headers.get(h.knownError)).toMatch(/^(BODY_PARSING_ERROR|SCHEMA_ERROR)$/);
    expect(await countRows(service, 'api_key_sets')).toBe(before);
  });

  it('keeps hostile descriptions as text', async () => {
    for (const description of ['%', '_', '\\', "'; drop table api_key_sets; --", 'ünï 🔑']) {
      const body = await create({ description, has_secret_server_key: true });
      const read = await call(service, 'GET', `/internal/api-keys/${body.id}`, { headers: admin() });
      expect(read.body.description).toBe(description);
    }
    const nul = await call(service, 'POST', '/internal/api-keys', {
      headers: admin(),
      json: { description: 'a\u0000b', has_secret_server_key: true },
    });
    expect(nul.headers.get(h.knownError)).toMatch(/^(BODY_PARSING_ERROR|SCHEMA_ERROR)$/);
  });
});

describe('GET /internal/api-keys and GET /internal/api-keys/:id', () => {
  it('lists every set of the project, newest first, each key as its last four', async () => {
    service.clock.advance(1); // strictly newer than every set created so far
    const created = await create({
      description: 'listed',
      has_publishable_client_key: true,
      has_secret_server_key: true,
    });
    const list = await call(service, 'GET', '/internal/api-keys', { headers: admin() });
    expect(list.status).toBe(200);
    expect(list.body.is_paginated).toBe(false);
    const ids = list.body.items.map((item: { id: string }) => item.id);
    expect(ids).toHaveLength(await countRows(service, 'api_key_sets'));
    const item = list.body.items.find((entry: { id: string }) => entry.id === created.id);
    expect(item).toEqual({
      id: created.id,
      description: 'listed',
      created_at_millis: created.created_at_millis,
      expires_at_millis: created.expires_at_millis,
      publishable_client_key: { last_four: created.publishable_client_key.slice(-4) },
      secret_server_key: { last_four: created.secret_server_key.slice(-4) },
    });
    expect(list.text).not.toContain(created.secret_server_key);
    expect(list.text).not.toContain(service.keys.superSecretAdminKey);
    const createdAt = list.body.items.map((entry: { created_at_millis: number }) => entry.created_at_millis);
    expect(createdAt).toEqual([...createdAt].sort((x, y) => y - x));
    expect(ids[0]).toBe(created.id);
    const read = await call(service, 'GET', `/internal/api-keys/${created.id.toUpperCase()}`, { headers: admin() });
    expect(read.body).toEqual(item);
  });

  it("shows no set of another project, and another project's admin key sees none of these", async () => {
    const mine = await create({ has_secret_server_key: true });
    const otherHeaders = {
      ...admin(),
      [h.projectId]: other.projectId,
      [h.publishableClientKey]: other.keys.publishableClientKey,
      [h.secretServerKey]: other.keys.secretServerKey,
      [h.superSecretAdminKey]: other.keys.superSecretAdminKey,
    };
    const list = await call(service, 'GET', '/internal/api-keys', { headers: otherHeaders });
    expect(list.body.items).toHaveLength(1);
    expect(list.text).not.toContain(mine.id);
    expectKnownError(
      await call(service, 'GET', `/internal/api-keys/${mine.id}`, { headers: otherHeaders }),
      'API_KEY_NOT_FOUND',
      404,
    );
  });
});

const unknownIds = [
  ['an unknown UUID', '00000000-0000-4000-8000-000000000000'],
  ['a malformed id', 'not-a-uuid'],
  ['%', '%25'],
  ['_', '_'],
  ['\\', '%5C'],
  ['a long id', 'a'.repeat(2000)],
] as const;

describe('PATCH /internal/api-keys/:id', () => {
  it('revokes: the keys stop working at once, the answer shows when, and revoking again keeps the first time', async () => {
    const created = await create({ has_publishable_client_key: true, has_secret_server_key: true });
    expect((await projectCurrent('server', created.secret_server_key)).status).toBe(200);
    const revoked = await call(service, 'PATCH', `/internal/api-keys/${created.id}`, {
      headers: admin(),
      json: { revoked: true },
    });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({
      id: created.id,
      manually_revoked_at_millis: expect.any(Number),
      secret_server_key: { last_four: created.secret_server_key.slice(-4) },
    });
    expectKnownError(await projectCurrent('server', created.secret_server_key), 'INVALID_SECRET_SERVER_KEY', 401);
    expectKnownError(
      await projectCurrent('client', created.publishable_client_key),
      'INVALID_PUBLISHABLE_CLIENT_KEY',
      401,
    );
    service.clock.advance(5000);
    const again = await call(service, 'PATCH', `/internal/api-keys/${created.id}`, {
      headers: admin(),
      json: { revoked: true },
    });
    service.clock.advance(-5000);
    expect(again.body.manually_revoked_at_millis).toBe(revoked.body.manually_revoked_at_millis);
  });

  it('changes the description, and an empty body changes nothing', async () => {
    const created = await create({ description: 'before', has_secret_server_key: true });
    const renamed = await call(service, 'PATCH', `/internal/api-keys/${created.id}`, {
      headers: admin(),
      json: { description: 'after' },
    });
    expect(renamed.body.description).toBe('after');
    expect(renamed.body.manually_revoked_at_millis).toBeUndefined();
    const same = await call(service, 'PATCH', `/internal/api-keys/${created.id}`, { headers: admin(), json: {} });
    expect(same.body).toEqual(renamed.body);
    expect((await projectCurrent('server', created.secret_server_key)).status).toBe(200);
  });

  it.each([
    ['revoked: false (no restoring)', { revoked: false }],
    ['revoked as a string', { revoked: 'true' }],
    ['an unknown key', { revoked: true, expires_at_millis: 5 }],
    ['a description over 1024 characters', { description: 'd'.repeat(1025) }],
  ])('refuses %s with SCHEMA_ERROR, changing nothing', async (_, body) => {
    const created = await create({ has_secret_server_key: true });
    const before = await keySetRows();
    const answer = await call(service, 'PATCH', `/internal/api-keys/${created.id}`, { headers: admin(), json: body });
    expectKnownError(answer, 'SCHEMA_ERROR', 400);
    expect(await keySetRows()).toEqual(before);
  });

  it.each(unknownIds)('answers API_KEY_NOT_FOUND for %s, changing nothing', async (_, id) => {
    const before = await keySetRows();
    for (const method of ['GET', 'PATCH'] as const) {
      const json = method === 'PATCH' ? { revoked: true } : undefined;
      const answer = await call(service, method, `/internal/api-keys/${id}`, { headers: admin(), json });
      expectKnownError(answer, 'API_KEY_NOT_FOUND', 404);
    }
    expect(await keySetRows()).toEqual(before);
  });

  it('refuses a NUL in the id with SCHEMA_ERROR (the service refuses NUL in every path), changing nothing', async () => {
    const before = await keySetRows();
    for (const method of ['GET', 'PATCH'] as const) {
      const json = method === 'PATCH' ? { revoked: true } : undefined;
      const answer = await call(service, method, '/internal/api-keys/a%00b', { headers: admin(), json });
      expectKnownError(answer, 'SCHEMA_ERROR', 400);
    }
    expect(await keySetRows()).toEqual(before);
  });

  it("does not revoke another project's set", async () => {
    const theirs = await dbOf(service.storage)
      .selectFrom('api_key_sets')
      .select('id')
      .where('project_id', '=', other.projectId)
      .executeTakeFirstOrThrow();
    const answer = await call(service, 'PATCH', `/internal/api-keys/${theirs.id}`, {
      headers: admin(),
      json: { revoked: true },
    });
    expectKnownError(answer, 'API_KEY_NOT_FOUND', 404);
    const otherHeaders = {
      ...authHeaders(service, 'server'),
      [h.projectId]: other.projectId,
      [h.secretServerKey]: other.keys.secretServerKey,
    };
    expect((await call(service, 'GET', '/projects/current', { headers: otherHeaders })).status).toBe(200);
  });
});

describe('access', () => {
  const routes = [
    ['GET', '/internal/api-keys'],
    ['POST', '/internal/api-keys'],
    ['GET', '/internal/api-keys/00000000-0000-4000-8000-000000000000'],
    ['PATCH', '/internal/api-keys/00000000-0000-4000-8000-000000000000'],
  ] as const;

  it.each(routes)('%s %s refuses client and server access', async (method, path) => {
    const before = await keySetRows();
    for (const accessType of ['client', 'server'] as const) {
      const json = method === 'GET' ? undefined : { has_secret_server_key: true, revoked: true };
      const answer = await call(service, method, path, { headers: authHeaders(service, accessType), json });
      expectKnownError(answer, 'INSUFFICIENT_ACCESS_TYPE', 401);
      expect(answer.body.details).toEqual({ actual_access_type: accessType, allowed_access_types: ['admin'] });
    }
    expect(await keySetRows()).toEqual(before);
  });

  it.each(routes)('%s %s refuses a wrong admin key and no key', async (method, path) => {
    const json = method === 'GET' ? undefined : { has_secret_server_key: true };
    const wrong = await call(service, method, path, {
      headers: { ...admin(), [h.superSecretAdminKey]: 'sak_wrong' },
      json,
    });
    expectKnownError(wrong, 'INVALID_SUPER_SECRET_ADMIN_KEY', 401);
    const none = await call(service, method, path, { headers: { ...admin(), [h.superSecretAdminKey]: '' }, json });
    expectKnownError(none, 'ADMIN_AUTHENTICATION_REQUIRED', 401);
  });

  it('a set without an admin key cannot call these routes', async () => {
    const created = await create({ has_secret_server_key: true });
    const answer = await call(service, 'GET', '/internal/api-keys', {
      headers: { ...admin(), [h.superSecretAdminKey]: created.secret_server_key },
    });
    expectKnownError(answer, 'INVALID_SUPER_SECRET_ADMIN_KEY', 401);
  });
});
