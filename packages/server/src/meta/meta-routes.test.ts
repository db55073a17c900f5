/** `GET /api/v1` (the API root), `POST /check-feature-support`, and a sweep of junk bodies over every route: never a 5xx, always a known error. */
import { detailsProblem, headers as h, isKnownErrorCode } from '@latchkey/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRoutes } from '../routes.js';
import type { AccessType } from '../test-support/api.js';
import { authHeaders, call, expectKnownError, signUp, userHeaders } from '../test-support/api.js';
import { startTestService, type TestService } from '../testing/index.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service?.close());

describe('GET /api/v1', () => {
  const welcome = 'Welcome to the Latchkey API endpoint! Please refer to the documentation at /api/v1/docs.\n\n';

  it('names no authentication when the request carries none', async () => {
    const answer = await call(service, 'GET', '');
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(answer.text).toBe(`${welcome}Authentication: None`);
  });

  it('names the access type, the project and the user', async () => {
    for (const [type, name] of [
      ['client', 'Client'],
      ['server', 'Server'],
      ['admin', 'Admin'],
    ] as const) {
      const answer = await call(service, 'GET', '', { headers: authHeaders(service, type) });
      expect(answer.status).toBe(200);
      expect(answer.text).toBe(`${welcome}Authentication: ${name}\n  Project: ${service.projectId}\n  User: None`);
    }
    const user = await signUp(service);
    const signedIn = await call(service, 'GET', '', { headers: userHeaders(service, user) });
    expect(signedIn.text).toBe(
      `${welcome}Authentication: Client\n  Project: ${service.projectId}\n  User: ${user.email}`,
    );
  });

  it('answers the known errors of bad keys, an access type without a project, and a query', async () => {
    const noProject = { [h.accessType]: 'client' };
    const answer = await call(service, 'GET', '', { headers: noProject });
    expectKnownError(answer, 'ACCESS_TYPE_WITHOUT_PROJECT_ID', 400, false);
    expect(answer.body.details).toEqual({ request_type: 'client' });
    const badClient = { ...authHeaders(service), [h.publishableClientKey]: 'publish-key' };
    expectKnownError(await call(service, 'GET', '', { headers: badClient }), 'INVALID_PUBLISHABLE_CLIENT_KEY', 401);
    const noServerKey = { ...authHeaders(service, 'server'), [h.secretServerKey]: '' };
    expectKnownError(await call(service, 'GET', '', { headers: noServerKey }), 'SERVER_AUTHENTICATION_REQUIRED', 401);
    const keyWithoutType = { [h.publishableClientKey]: service.keys.publishableClientKey };
    expectKnownError(
      await call(service, 'GET', '', { headers: keyWithoutType }),
      'PROJECT_KEY_WITHOUT_ACCESS_TYPE',
      400,
      false,
    );
    expectKnownError(await call(service, 'GET', '?extra=param'), 'SCHEMA_ERROR', 400, false);
  });
});

describe('POST /check-feature-support', () => {
  it('answers 200 text to what the SDK sends', async () => {
    for (const body of [
      { name: 'rsc-handler-afterSignIn' },
      { name: 'sendVerificationEmail() on ServerUser', extra: 1 },
    ]) {
      const answer = await call(service, 'POST', '/check-feature-support', {
        headers: authHeaders(service),
        json: body,
      });
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(answer.text.length).toBeGreaterThan(0);
    }
  });

  it('answers without an access type, and checks the keys a request does send', async () => {
    const anonymous = await call(service, 'POST', '/check-feature-support', { json: { name: 'x' } });
    expect(anonymous.status).toBe(200);
    expect(anonymous.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    const badKey = { ...authHeaders(service), [h.publishableClientKey]: 'not-a-key' };
    expectKnownError(
      await call(service, 'POST', '/check-feature-support', { headers: badKey, json: {} }),
      'INVALID_PUBLISHABLE_CLIENT_KEY',
      401,
    );
  });

  it('needs an object body', async () => {
    const answer = await call(service, 'POST', '/check-feature-support', { headers: authHeaders(service), json: [1] });
    expectKnownError(answer, 'SCHEMA_ERROR', 400);
  });
});

describe('the NUL character, which PostgreSQL cannot store', () => {
  it('is refused in JSON strings and keys with SCHEMA_ERROR', async () => {
    const user = await signUp(service);
    for (const json of [
      { display_name: 'a\u0000b' },
      { client_metadata: { 'k\u0000': 1 } },
      { client_metadata: ['\u0000'] },
    ]) {
      const answer = await call(service, 'PATCH', '/users/me', { headers: userHeaders(service, user), json });
      expectKnownError(answer, 'SCHEMA_ERROR', 400);
      expect(answer.body.details.message).toContain('NUL');
    }
  });

  it('is refused in path parameters and queries, and an invalid client at the token endpoint', async () => {
    const jwks = await call(service, 'GET', '/projects/%00/.well-known/jwks.json');
    expectKnownError(jwks, 'SCHEMA_ERROR', 400, false);
    expect(jwks.body.details.message).toBe('params.projectId: must not contain the NUL character');
    const users = await call(service, 'GET', '/users?query=a%00b', { headers: authHeaders(service, 'server') });
    expectKnownError(users, 'SCHEMA_ERROR', 400);
    expect(users.body.details.message).toBe('query.query: must not contain the NUL character');
    const token = await call(service, 'POST', '/auth/oauth/token', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=refresh_token&client_id=%00&client_secret=x&refresh_token=y',
    });
    expectKnownError(token, 'INVALID_OAUTH_CLIENT_ID_OR_SECRET', 400, false);
  });
});

describe('junk bodies on every route', () => {
  // Every route that reads a body, from the route table, at its minimum access (and server access for
  // client routes, whose body schema may differ); path parameters name nothing, so no junk can change data.
  const routes = apiRoutes
    .filter((route) => route.method !== 'GET')
    .flatMap((route) => {
      const access = route.access === 'none' || route.access === 'optional' ? 'client' : route.access;
      const path = route.path.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000');
      const types: AccessType[] = access === 'client' ? ['client', 'server'] : [access];
      return types.map((type) => [route.method, path, type, route.refusals ?? []] as const);
    });
  const deep = `${'['.repeat(5000)}${']'.repeat(5000)}`;
  const junk = [
    '{',
    '[]',
    'null',
    '"x"',
    '1e999',
    '{"__proto__":{"admin":true}}',
    deep,
    '{"a":"\\ud800"}',
    'true',
    '{"display_name":"a\\u0000b"}',
    '{"client_metadata":{"k\\u0000":1},"email":"a@example.com","password":"x\\u0000yyyyyyy"}',
    '{"client_metadata":{"a":"\\ud800"},"server_metadata":{"\\udc00":1}}',
    '{"client_metadata":{"__proto__":{"admin":true}}}',
    '{"email":"a@example.com","password":"correct-horse-\\ud800"}',
    'grant_type=refresh_token&client_id=%00&client_secret=%00&refresh_token=%00',
  ];

  it('covers the routes that read a body', () => {
    expect(routes.length).toBeGreaterThan(15);
    expect(routes).toContainEqual(['POST', '/users', 'server', [400]]);
  });

  it.each(routes)('%s %s (%s access)', async (method, path, accessType, refusals) => {
    const user = await signUp(service);
    for (const body of junk) {
      for (const contentType of ['application/json', 'application/x-www-form-urlencoded']) {
        const answer = await call(service, method, path, {
          headers: { ...userHeaders(service, user, accessType), 'content-type': contentType },
          body,
        });
        const status = Number(answer.headers.get(h.actualStatus) ?? answer.status);
        expect(status, `${body.slice(0, 20)} → ${answer.text.slice(0, 100)}`).toBeLessThan(500);
        if (status >= 300) {
          const code = answer.headers.get(h.knownError);
          if (path === '/auth/oauth/token' && !code) {
            expect(typeof answer.body.error).toBe('string');
            continue;
          }
          // A DELETE ignores its body (as the original backend's do): it may reach a plain refusal the route declares.
          if (!code && refusals.includes(status as never)) {
            expect(answer.headers.get('content-type')).toBe('text/plain; charset=utf-8');
            continue;
          }
          expect(isKnownErrorCode(code)).toBe(true);
          expect(detailsProblem(code as never, answer.body.details)).toBeNull();
        }
      }
    }
  });
});
