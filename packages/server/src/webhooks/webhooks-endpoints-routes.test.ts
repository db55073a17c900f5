/**
 * `/webhooks/endpoints` and `/webhooks/svix-token` over HTTP, on both
 * backends: endpoints created, read, changed and deleted; the secret shown
 * once and sealed at rest; rotation; another project's endpoints out of
 * reach; hostile input refused with nothing changed; and the webhook token
 * opening the webhook routes of its project and nothing else.
 */
import { headers as h } from '@latchkey/protocol';
import { describe, expect, it } from 'vitest';
import { createSealer } from '../crypto/encryption.js';
import { dbOf } from '../storage/open-storage.js';
import {
  type Answer,
  authHeaders,
  call,
  countRows,
  expectKnownError,
  signUp,
  userHeaders,
} from '../test-support/api.js';
import { describeEachBackend, otherProjectForSuite, testServiceForSuite } from '../test-support/backends.js';
import type { TestService } from '../testing/index.js';
import { subscribableEventTypes } from './webhook-events.js';
import { signingSecrets, webhookSecretPurpose } from './webhook-secrets.js';
import { maxWebhookEndpointsPerProject } from './webhooks-endpoints-actions.js';
import { endpointUrlProblem } from './webhooks-endpoints-routes.js';

const receiver = 'https://hooks.example.com/latchkey';
const unknownId = '00000000-0000-4000-8000-000000000000';

describeEachBackend('webhook endpoints', (backend) => {
  const service = testServiceForSuite({ databaseUrl: backend.databaseUrl, frozenClock: true });
  const other = otherProjectForSuite(service);
  const admin = () => authHeaders(service, 'admin');
  const otherAdmin = () => ({
    ...admin(),
    [h.projectId]: other.projectId,
    [h.publishableClientKey]: other.keys.publishableClientKey,
    [h.secretServerKey]: other.keys.secretServerKey,
    [h.superSecretAdminKey]: other.keys.superSecretAdminKey,
  });
  const rows = (projectId = service.projectId) =>
    dbOf(service.storage)
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('project_id', '=', projectId)
      .orderBy('id')
      .execute();

  async function create(body: Record<string, unknown> = { url: receiver }, headers = admin()) {
    const answer = await call(service, 'POST', '/webhooks/endpoints', { headers, json: body });
    expect(answer.status, answer.text).toBe(200);
    return answer.body;
  }

  it('creates an endpoint, showing its secret this once, and reads it back without it', async () => {
    const created = await create({
      url: receiver,
      description: 'CRM sync',
      event_types: ['team.created', 'user.created', 'user.created'],
    });
    expect(created).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      url: receiver,
      description: 'CRM sync',
      event_types: ['user.created', 'team.created'],
      enabled: true,
      disabled_reason: null,
      created_at_millis: service.clock.now(),
      updated_at_millis: service.clock.now(),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
    });
    const { secret, ...endpoint } = created;
    const read = await call(service, 'GET', `/webhooks/endpoints/${created.id.toUpperCase()}`, { headers: admin() });
    expect(read.body).toEqual(endpoint);
    const list = await call(service, 'GET', '/webhooks/endpoints', { headers: admin() });
    expect(list.body.is_paginated).toBe(false);
    expect(list.body.items).toContainEqual(endpoint);
    expect(list.text + read.text).not.toContain(secret);
  });

  it('keeps the secret sealed at rest, opening only for its own endpoint', async () => {
    const created = await create();
    const row = (await rows()).find((entry) => entry.id === created.id)!;
    expect(JSON.stringify(row)).not.toContain('whsec_');
    expect(JSON.stringify(row)).not.toContain(created.secret.slice(6));
    const sealer = createSealer(service.secret, webhookSecretPurpose);
    expect(signingSecrets(sealer, row, service.clock.now())).toEqual([created.secret]);
    const other = (await rows()).find((entry) => entry.id !== created.id)!;
    expect(() => signingSecrets(sealer, { ...row, id: other.id }, service.clock.now())).toThrow();
  });

  it('subscribes to every type by default and lists the endpoints oldest first', async () => {
    const first = await create({ url: `${receiver}/a`, enabled: false });
    service.clock.advance(1000);
    const second = await create({ url: `${receiver}/b`, event_types: null });
    expect(first).toMatchObject({ event_types: null, enabled: false, description: '' });
    expect(second.event_types).toBeNull();
    const ids = (await call(service, 'GET', '/webhooks/endpoints', { headers: admin() })).body.items.map(
      (item: { id: string }) => item.id,
    );
    expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id));
    expect(ids).toHaveLength((await rows()).length);
  });

  it('changes what it is given, and turning an endpoint on clears the reason it was turned off', async () => {
    const created = await create();
    await dbOf(service.storage)
      .updateTable('webhook_endpoints')
      .set({ enabled: false, disabled_reason: 'failing for a day' })
      .where('id', '=', created.id)
      .execute();
    service.clock.advance(5000);
    const patch = (json: unknown) =>
      call(service, 'PATCH', `/webhooks/endpoints/${created.id}`, { headers: admin(), json });
    const changed = await patch({ url: `${receiver}/v2`, event_types: subscribableEventTypes.slice(-2) });
    expect(changed.body).toMatchObject({
      url: `${receiver}/v2`,
      description: '',
      event_types: ['passkey.added', 'passkey.removed'],
      enabled: false,
      disabled_reason: 'failing for a day',
      updated_at_millis: created.created_at_millis + 5000,
    });
    const enabled = await patch({ enabled: true, description: 'back', event_types: null });
    expect(enabled.body).toMatchObject({
      enabled: true,
      disabled_reason: null,
      description: 'back',
      event_types: null,
    });
    expect((await patch({})).body).toEqual({ ...enabled.body, updated_at_millis: enabled.body.updated_at_millis });
  });

  it('deletes an endpoint, after which it is not found', async () => {
    const created = await create();
    const gone = await call(service, 'DELETE', `/webhooks/endpoints/${created.id}`, { headers: admin() });
    expect(gone.body).toEqual({ success: true });
    expectKnownError(
      await call(service, 'GET', `/webhooks/endpoints/${created.id}`, { headers: admin() }),
      'WEBHOOK_ENDPOINT_NOT_FOUND',
      404,
    );
    expectKnownError(
      await call(service, 'DELETE', `/webhooks/endpoints/${created.id}`, { headers: admin() }),
      'WEBHOOK_ENDPOINT_NOT_FOUND',
      404,
    );
  });

  it('rotates the secret: the new one shown once, the old one signing beside it until the overlap ends', async () => {
    const created = await create();
    const rotated = await call(service, 'POST', `/webhooks/endpoints/${created.id}/rotate-secret`, {
      headers: admin(),
      json: {},
    });
    expect(rotated.body).toEqual({
      secret: expect.stringMatching(/^whsec_/),
      previous_secret_expires_at_millis: service.clock.now() + 24 * 60 * 60_000,
    });
    expect(rotated.body.secret).not.toBe(created.secret);
    const row = (await rows()).find((entry) => entry.id === created.id)!;
    expect(JSON.stringify(row)).not.toContain('whsec_');
    const sealer = createSealer(service.secret, webhookSecretPurpose);
    const expiry = rotated.body.previous_secret_expires_at_millis;
    expect(signingSecrets(sealer, row, expiry - 1)).toEqual([rotated.body.secret, created.secret]);
    expect(signingSecrets(sealer, row, expiry)).toEqual([rotated.body.secret]);
  });

  it("neither shows nor changes another project's endpoints", async () => {
    const theirs = await create({ url: receiver }, otherAdmin());
    const before = await rows(other.projectId);
    const list = await call(service, 'GET', '/webhooks/endpoints', { headers: admin() });
    expect(list.text).not.toContain(theirs.id);
    const attempts: Answer[] = [
      await call(service, 'GET', `/webhooks/endpoints/${theirs.id}`, { headers: admin() }),
      await call(service, 'PATCH', `/webhooks/endpoints/${theirs.id}`, { headers: admin(), json: { enabled: false } }),
      await call(service, 'POST', `/webhooks/endpoints/${theirs.id}/rotate-secret`, { headers: admin(), json: {} }),
      await call(service, 'DELETE', `/webhooks/endpoints/${theirs.id}`, { headers: admin() }),
    ];
    for (const answer of attempts) expectKnownError(answer, 'WEBHOOK_ENDPOINT_NOT_FOUND', 404);
    expect(await rows(other.projectId)).toEqual(before);
  });

  it.each([
    ['no URL', {}],
    ['a relative URL', { url: '/hooks' }],
    ['a URL that is no URL', { url: 'not a url' }],
    ['an ftp URL', { url: 'ftp://hooks.example.com/' }],
    ['a javascript: URL', { url: 'javascript:alert(1)' }],
    ['credentials in the URL', { url: 'https://user:pass@hooks.example.com/' }],
    ['a URL over 2000 characters', { url: `${receiver}/${'a'.repeat(2000)}` }],
    ['a number for the URL', { url: 5 }],
    ['a description over 500 characters', { url: receiver, description: 'd'.repeat(501) }],
    ['an unknown event type', { url: receiver, event_types: ['user.exploded'] }],
    ['an audit-only event type', { url: receiver, event_types: ['sign_in.failed'] }],
    ['an empty list of event types', { url: receiver, event_types: [] }],
    ['event types as a string', { url: receiver, event_types: 'user.created' }],
    ['a string for enabled', { url: receiver, enabled: 'true' }],
    ['an unknown key', { url: receiver, secret: 'whsec_mine' }],
    ['an array', [{ url: receiver }]],
  ])('refuses %s with SCHEMA_ERROR, creating nothing', async (_, body) => {
    const before = await countRows(service, 'webhook_endpoints');
    const answer = await call(service, 'POST', '/webhooks/endpoints', { headers: admin(), json: body });
    expectKnownError(answer, 'SCHEMA_ERROR', 400);
    expect(await countRows(service, 'webhook_endpoints')).toBe(before);
  });

  it('refuses bad changes with SCHEMA_ERROR, changing nothing', async () => {
    const created = await create();
    const before = await rows();
    for (const json of [{ url: 'ftp://x.example.com' }, { event_types: ['nope'] }, { enabled: null }, { id: 'x' }]) {
      const answer = await call(service, 'PATCH', `/webhooks/endpoints/${created.id}`, { headers: admin(), json });
      expectKnownError(answer, 'SCHEMA_ERROR', 400);
    }
    expect(await rows()).toEqual(before);
  });

  it.each([
    ['an unknown UUID', unknownId],
    ['a malformed id', 'not-a-uuid'],
    ['%', '%25'],
    ['a quote and SQL', "'%20or%201=1--"],
    ['a long id', 'a'.repeat(2000)],
  ])('answers WEBHOOK_ENDPOINT_NOT_FOUND for %s, changing nothing', async (_, id) => {
    const before = await rows();
    const requests: [string, string, unknown][] = [
      ['GET', `/webhooks/endpoints/${id}`, undefined],
      ['PATCH', `/webhooks/endpoints/${id}`, { enabled: true }],
      ['DELETE', `/webhooks/endpoints/${id}`, undefined],
      ['POST', `/webhooks/endpoints/${id}/rotate-secret`, {}],
    ];
    for (const [method, path, json] of requests) {
      const answer = await call(service, method, path, { headers: admin(), json });
      expectKnownError(answer, 'WEBHOOK_ENDPOINT_NOT_FOUND', 404);
    }
    expect(await rows()).toEqual(before);
  });

  it('keeps hostile descriptions as text', async () => {
    for (const description of ['%', "'; drop table webhook_endpoints; --", 'ünï 🔗', '<script>x</script>']) {
      const created = await create({ url: receiver, description });
      const read = await call(service, 'GET', `/webhooks/endpoints/${created.id}`, { headers: admin() });
      expect(read.body.description).toBe(description);
    }
  });

  it('lets only admins in', async () => {
    for (const accessType of ['client', 'server'] as const) {
      const answer = await call(service, 'GET', '/webhooks/endpoints', { headers: authHeaders(service, accessType) });
      expectKnownError(answer, 'INSUFFICIENT_ACCESS_TYPE', 401);
    }
  });
});

describeEachBackend('the webhook token', (backend) => {
  const service = testServiceForSuite({ databaseUrl: backend.databaseUrl, frozenClock: true });
  const other = otherProjectForSuite(service);
  /** The headers of a page holding only the token: no key. */
  const bearer = (token: string, projectId = service.projectId) => ({
    [h.overrideErrorStatus]: 'true',
    [h.projectId]: projectId,
    [h.accessType]: 'admin',
    authorization: `Bearer ${token}`,
  });
  const newToken = async () => {
    const answer = await call(service, 'POST', '/webhooks/svix-token', {
      headers: authHeaders(service, 'admin'),
      json: {},
    });
    expect(answer.status, answer.text).toBe(200);
    return answer.body.token as string;
  };

  it("opens the project's webhook routes", async () => {
    const token = await newToken();
    const created = await call(service, 'POST', '/webhooks/endpoints', {
      headers: bearer(token),
      json: { url: receiver },
    });
    expect(created.status, created.text).toBe(200);
    const list = await call(service, 'GET', '/webhooks/endpoints', { headers: bearer(token) });
    expect(list.body.items.map((item: { id: string }) => item.id)).toContain(created.body.id);
    const gone = await call(service, 'DELETE', `/webhooks/endpoints/${created.body.id}`, { headers: bearer(token) });
    expect(gone.body).toEqual({ success: true });
  });

  it('opens no other route, and does not renew itself', async () => {
    const token = await newToken();
    for (const path of ['/internal/api-keys', '/audit-events', '/projects/current']) {
      expectKnownError(
        await call(service, 'GET', path, { headers: bearer(token) }),
        'ADMIN_AUTHENTICATION_REQUIRED',
        401,
      );
    }
    expectKnownError(
      await call(service, 'POST', '/webhooks/svix-token', { headers: bearer(token), json: {} }),
      'ADMIN_AUTHENTICATION_REQUIRED',
      401,
    );
    const asUser = await call(service, 'GET', '/users/me', {
      headers: { ...authHeaders(service), [h.accessToken]: token },
    });
    expectKnownError(asUser, 'UNPARSABLE_ACCESS_TOKEN', 401);
  });

  it('opens nothing of another project, and nothing once its hour is over', async () => {
    const token = await newToken();
    expectKnownError(
      await call(service, 'GET', '/webhooks/endpoints', { headers: bearer(token, other.projectId) }),
      'INVALID_PROJECT_FOR_ADMIN_ACCESS_TOKEN',
      401,
    );
    service.clock.advance(60 * 60_000);
    expectKnownError(
      await call(service, 'GET', '/webhooks/endpoints', { headers: bearer(token) }),
      'ADMIN_ACCESS_TOKEN_EXPIRED',
      401,
    );
  });

  it('refuses a forged or user token in its place', async () => {
    const user = await signUp(service);
    for (const token of ['not.a.jwt', user.access_token, `${(await newToken()).slice(0, -4)}AAAA`]) {
      expectKnownError(
        await call(service, 'GET', '/webhooks/endpoints', { headers: bearer(token) }),
        'UNPARSABLE_ADMIN_ACCESS_TOKEN',
        401,
      );
    }
    const asUser = await call(service, 'POST', '/webhooks/svix-token', {
      headers: userHeaders(service, user),
      json: {},
    });
    expectKnownError(asUser, 'INSUFFICIENT_ACCESS_TYPE', 401);
  });
});

describe('the URL of an endpoint', () => {
  it('is https only, on a public host, when the service may not reach private networks', () => {
    expect(endpointUrlProblem('https://hooks.example.com/in?x=1', false)).toBeNull();
    for (const url of [
      'http://hooks.example.com/in',
      'https://localhost/in',
      'https://app.localhost/in',
      'https://127.0.0.1/in',
      'https://10.0.0.8/in',
      'https://169.254.169.254/latest/meta-data',
      'https://[::1]/in',
      'https://[fd00::1]/in',
    ]) {
      expect(endpointUrlProblem(url, false), url).not.toBeNull();
    }
  });

  it('may be http and local on a developer machine, never with credentials or a fragment', () => {
    expect(endpointUrlProblem('http://127.0.0.1:4000/hook', true)).toBeNull();
    expect(endpointUrlProblem('http://u:p@127.0.0.1:4000/hook', true)).not.toBeNull();
    expect(endpointUrlProblem('https://hooks.example.com/#x', true)).not.toBeNull();
    expect(endpointUrlProblem('file:///etc/passwd', true)).not.toBeNull();
  });

  it('is refused over HTTP by a service that may not reach private networks', async () => {
    const service: TestService = await (await import('../testing/index.js')).startTestService({
      allowPrivateNetwork: false,
    });
    try {
      const answer = await call(service, 'POST', '/webhooks/endpoints', {
        headers: authHeaders(service, 'admin'),
        json: { url: 'http://127.0.0.1:4000/hook' },
      });
      expectKnownError(answer, 'SCHEMA_ERROR', 400);
      expect(answer.body.error).toContain('https');
      expect(await countRows(service, 'webhook_endpoints')).toBe(0);
    } finally {
      await service.close();
    }
  });
});

describeEachBackend('the endpoint limit', (backend) => {
  const service = testServiceForSuite({ databaseUrl: backend.databaseUrl, frozenClock: true });

  it(`allows ${maxWebhookEndpointsPerProject} endpoints a project, then answers WEBHOOK_ENDPOINT_LIMIT_REACHED`, async () => {
    const admin = authHeaders(service, 'admin');
    for (let index = 0; index < maxWebhookEndpointsPerProject - 2; index += 1) {
      const answer = await call(service, 'POST', '/webhooks/endpoints', { headers: admin, json: { url: receiver } });
      expect(answer.status, answer.text).toBe(200);
    }
    // The last two places, asked for by four requests at once: two get them, two are refused.
    const racing = await Promise.all(
      Array.from({ length: 4 }, () =>
        call(service, 'POST', '/webhooks/endpoints', { headers: admin, json: { url: receiver } }),
      ),
    );
    const outcomes = racing.map((answer) => (typeof answer.body.code === 'string' ? answer.body.code : 'created'));
    expect(outcomes.sort()).toEqual([
      'WEBHOOK_ENDPOINT_LIMIT_REACHED',
      'WEBHOOK_ENDPOINT_LIMIT_REACHED',
      'created',
      'created',
    ]);
    const over = await call(service, 'POST', '/webhooks/endpoints', { headers: admin, json: { url: receiver } });
    expectKnownError(over, 'WEBHOOK_ENDPOINT_LIMIT_REACHED', 403);
    expect(over.body.details).toEqual({ limit: maxWebhookEndpointsPerProject });
    expect(await countRows(service, 'webhook_endpoints')).toBe(maxWebhookEndpointsPerProject);
  });
});
