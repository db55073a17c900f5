/** The OpenAPI document and the reference page, as a client of the running service reads them. */
import { errorCatalogue, headers as h } from '@latchkey/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../test-support/api.js';
import { startTestService, type TestService } from '../testing/index.js';

let service: TestService;
// biome-ignore lint/suspicious/noExplicitAny: the document is read as JSON and its shape asserted.
let document: any;
beforeAll(async () => {
  service = await startTestService();
  document = (await call(service, 'GET', '/openapi.json')).body;
});
afterAll(() => service?.close());

function refsIn(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(refsIn);
  if (typeof value !== 'object' || value === null) return [];
  return Object.entries(value).flatMap(([key, item]) =>
    key === '$ref' && typeof item === 'string' ? [item] : refsIn(item),
  );
}

describe('GET /api/v1/openapi.json', () => {
  it('is an OpenAPI 3.1 document served without project keys', async () => {
    const answer = await call(service, 'GET', '/openapi.json');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.version).toMatch(/^\d+\.\d+\.\d+/);
    expect(document.servers).toEqual([{ url: '/api/v1' }]);
  });

  it('names every shared schema (no anonymous components)', () => {
    const names = Object.keys(document.components.schemas);
    expect(names).toEqual(expect.arrayContaining(['ClientUser', 'ServerUser', 'AdminProject', 'Json', 'KnownError']));
    expect(names.filter((name) => name.startsWith('Anonymous'))).toEqual([]);
  });

  it('resolves every $ref to a component', () => {
    const refs = refsIn(document);
    expect(refs.length).toBeGreaterThan(10);
    for (const ref of refs) {
      expect(ref).toMatch(/^#\/components\/schemas\//);
      expect(document.components.schemas[ref.slice('#/components/schemas/'.length)], ref).toBeDefined();
    }
  });

  it('gives each operation its access level, credentials and user requirement', () => {
    const me = document.paths['/users/me'].patch;
    expect(me['x-latchkey-access']).toBe('client');
    expect(me['x-latchkey-user-required']).toBe(true);
    expect(me.security).toContainEqual({ projectId: [], accessType: [], accessToken: [], publishableClientKey: [] });
    expect(me.security).toContainEqual({ projectId: [], accessType: [], accessToken: [], secretServerKey: [] });
    const sessions = document.paths['/auth/sessions'].post;
    expect(sessions['x-latchkey-access']).toBe('server');
    expect(sessions.security.some((s: object) => 'publishableClientKey' in s)).toBe(false);
    expect(document.paths['/auth/oauth/token'].post.security).toEqual([]);
    expect(document.components.securitySchemes.secretServerKey).toEqual(
      expect.objectContaining({ type: 'apiKey', in: 'header', name: h.secretServerKey }),
    );
  });

  it('documents request bodies per access type and answers per view', () => {
    const body = document.paths['/users/me'].patch.requestBody.content['application/json'];
    expect(Object.keys(body['x-latchkey-body-by-access'])).toEqual(['client', 'server']);
    expect(body['x-latchkey-body-by-access'].client.properties).not.toHaveProperty('server_metadata');
    expect(body['x-latchkey-body-by-access'].server.properties).toHaveProperty('server_metadata');
    const answer = document.paths['/users/me'].get.responses['200'].content['application/json'];
    expect(answer['x-latchkey-view-by-access'].client).toEqual({ $ref: '#/components/schemas/ClientUser' });
    expect(answer['x-latchkey-view-by-access'].server).toEqual({ $ref: '#/components/schemas/ServerUser' });
    expect(document.components.schemas.ServerUser.required).toContain('server_metadata');
    const form = document.paths['/auth/oauth/token'].post.requestBody.content;
    expect(Object.keys(form)).toEqual(['application/x-www-form-urlencoded']);
  });

  it('lists the known errors of each route under their real status', () => {
    const signUp = document.paths['/auth/password/sign-up'].post;
    expect(signUp['x-latchkey-route-errors']).toContain('USER_EMAIL_ALREADY_EXISTS');
    expect(signUp['x-latchkey-route-errors']).not.toContain('SCHEMA_ERROR');
    expect(signUp['x-latchkey-errors']).toEqual(
      expect.arrayContaining(['USER_EMAIL_ALREADY_EXISTS', 'SCHEMA_ERROR', 'INVALID_PUBLISHABLE_CLIENT_KEY']),
    );
    for (const [status, response] of Object.entries(signUp.responses) as [string, { content: object }][]) {
      if (status === '200') continue;
      // biome-ignore lint/suspicious/noExplicitAny: JSON read loosely.
      const codes: string[] = (response.content as any)['application/json'].schema.properties.code.enum;
      for (const code of codes) expect(String(errorCatalogue[code as keyof typeof errorCatalogue].status)).toBe(status);
    }
    expect(signUp.responses['409'].content['application/json'].schema.properties.code.enum).toContain(
      'USER_EMAIL_ALREADY_EXISTS',
    );
  });

  it('lists the plain status errors a route declares beside its known errors of the same status', () => {
    const create = document.paths['/contact-channels'].post;
    expect(Object.keys(create.responses['400'].content).sort()).toEqual(['application/json', 'text/plain']);
    expect(create.responses['403'].content).toEqual({ 'text/plain': { schema: { type: 'string' } } });
    const signUp = document.paths['/auth/password/sign-up'].post;
    expect(Object.keys(signUp.responses['400'].content)).toEqual(['application/json']);
  });

  it('describes every webhook message the service sends, with its signed headers and body schema', () => {
    expect(Object.keys(document.webhooks)).toEqual(
      expect.arrayContaining(['user.created', 'team_membership.deleted', 'webhook.test']),
    );
    const created = document.webhooks['user.created'].post;
    expect(created.parameters.map((parameter: { name: string }) => parameter.name)).toEqual([
      'webhook-id',
      'webhook-timestamp',
      'webhook-signature',
    ]);
    const body = created.requestBody.content['application/json'].schema;
    expect(body.properties.type).toMatchObject({ const: 'user.created' });
    // The user as a server reads it, or its id alone when it was deleted before the message was first sent.
    const [whole, gone] = body.properties.data.anyOf;
    expect(whole).toEqual({ $ref: '#/components/schemas/ServerUser' });
    expect(Object.keys(gone.properties)).toEqual(['id']);
    const membership = document.webhooks['team_membership.created'].post.requestBody.content['application/json'].schema;
    expect(Object.keys(membership.properties.data.properties)).toEqual(['team_id', 'user_id']);
  });

  it('turns path parameters into OpenAPI templates', () => {
    const jwks = document.paths['/projects/{projectId}/.well-known/jwks.json'].get;
    expect(jwks.parameters).toEqual([{ name: 'projectId', in: 'path', required: true, schema: { type: 'string' } }]);
  });
});

describe('GET /api/v1/docs', () => {
  it('is one self-contained HTML page listing every route, with no script and a CSP to match', async () => {
    const answer = await call(service, 'GET', '/docs');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(answer.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(answer.text).not.toMatch(/<script|<link|src=|@import/i);
    expect(answer.text).not.toMatch(/https?:\/\//);
    for (const [path, methods] of Object.entries(document.paths as Record<string, object>)) {
      expect(answer.text).toContain(`<code>${path.replace(/&/g, '&amp;')}</code>`);
      for (const method of Object.keys(methods)) expect(answer.text).toContain(`id="${method}-${path}"`);
    }
    expect(answer.text).toContain('USER_EMAIL_ALREADY_EXISTS');
  });

  it('cannot be framed by another page (clickjacking)', async () => {
    const answer = await call(service, 'GET', '/docs');
    expect(answer.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });
});

describe('content sniffing', () => {
  it('every answer says nosniff, so a browser never runs a JSON or text answer as HTML or script', async () => {
    const answers = [
      await call(service, 'GET', '/openapi.json'),
      await call(service, 'GET', '/docs'),
      await call(service, 'GET', '/users/me'), // a known error
      await call(service, 'GET', '/no-such-route'), // plain text
      await call(service, 'OPTIONS', '/users/me'), // a preflight
    ];
    for (const answer of answers) expect(answer.headers.get('x-content-type-options')).toBe('nosniff');
    const outside = await fetch(`${service.url}/not-the-api`);
    expect(outside.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
