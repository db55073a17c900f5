/** `POST /check-feature-support`, and a sweep of junk bodies over every route: never a 5xx, always a known error. */
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

  it('needs project authentication and an object body', async () => {
    expectKnownError(
      await call(service, 'POST', '/check-feature-support', { json: {} }),
      'ACCESS_TYPE_REQUIRED',
      400,
      false,
    );
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
      const access = route.access === 'none' ? 'client' : route.access;
      const path = route.path.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000');
      const types: AccessType[] = access === 'client' ? ['client', 'server'] : [access];
      return types.map((type) => [route.method, path, type] as const);
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
    expect(routes).toContainEqual(['POST', '/users', 'server']);
  });

  it.each(routes)('%s %s (%s access)', async (method, path, accessType) => {
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
          expect(isKnownErrorCode(code)).toBe(true);
          expect(detailsProblem(code as never, answer.body.details)).toBeNull();
        }
      }
    }
  });
});
