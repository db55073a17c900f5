/**
 * The route wrapper: the same steps in the same order for every route, and
 * strict mode, which turns an answer outside its schema or an undeclared
 * known error into a failure a test sees.
 */
import { headers as h, KnownError } from '@latchkey/protocol';
import { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Deps } from '../deps.js';
import { authHeaders, call, expectKnownError, signUp, snapshot, userHeaders } from '../test-support/api.js';
import { startTestService, type TestService } from '../testing/index.js';
import type { AppEnv } from './env.js';
import { mountRoutes } from './mount-routes.js';
import { defineRoute, type Route } from './route.js';

function app(routes: Route[], strict: boolean) {
  const hono = new Hono<AppEnv>();
  mountRoutes(hono, routes, { strict, bodyLimitBytes: 1024 } as Deps);
  hono.onError((error) => new Response(error.message, { status: error instanceof KnownError ? 400 : 500 }));
  return (path: string, init?: RequestInit) =>
    hono.request(path, init, { record: { requestId: 'r', startedAt: 0, clientIp: null } });
}

const offSchema = defineRoute({
  method: 'GET',
  path: '/off-schema',
  tag: 'test',
  summary: 'Answers a value its schema refuses.',
  access: 'none',
  answer: z.object({ count: z.number() }),
  errors: [],
  handler: async () => ({ count: 'three' }) as unknown as { count: number },
});

const undeclared = defineRoute({
  method: 'GET',
  path: '/undeclared',
  tag: 'test',
  summary: 'Throws a known error it does not declare.',
  access: 'none',
  answer: z.object({}),
  errors: ['USER_NOT_FOUND'],
  handler: async () => {
    throw new KnownError('TEAM_NOT_FOUND', { team_id: 'x' });
  },
});

const declared = defineRoute({
  method: 'POST',
  path: '/declared/:id',
  tag: 'test',
  summary: 'Throws the known error it declares.',
  access: 'none',
  params: z.object({ id: z.string().max(3) }),
  body: z.strictObject({ n: z.number() }),
  answer: z.object({}),
  errors: ['USER_NOT_FOUND'],
  handler: async () => {
    throw new KnownError('USER_NOT_FOUND');
  },
});

describe('strict mode', () => {
  const strict = app([offSchema, undeclared, declared], true);
  const lenient = app([offSchema, undeclared, declared], false);

  it('fails an answer outside its schema, naming the route and the field', async () => {
    const answer = await strict('/off-schema');
    expect(answer.status).toBe(500);
    expect(await answer.text()).toMatch(/^GET \/off-schema answered outside its schema: count: /);
    expect((await lenient('/off-schema')).status).toBe(200);
  });

  it('fails a known error the route does not declare, and passes one it does', async () => {
    const answer = await strict('/undeclared');
    expect(answer.status).toBe(500);
    expect(await answer.text()).toBe('GET /undeclared answered TEAM_NOT_FOUND, which it does not declare');
    const ok = await strict('/declared/abc', {
      method: 'POST',
      body: '{"n":1}',
      headers: { 'content-type': 'application/json' },
    });
    expect(ok.status).toBe(400);
  });

  it('counts validation errors as declared for routes that validate', async () => {
    const badParam = await strict('/declared/abcd', {
      method: 'POST',
      body: '{"n":1}',
      headers: { 'content-type': 'application/json' },
    });
    expect(await badParam.text()).toBe('SCHEMA_ERROR');
    const badBody = await strict('/declared/abc', {
      method: 'POST',
      body: '{',
      headers: { 'content-type': 'application/json' },
    });
    expect(badBody.status).toBe(400);
  });
});

describe('the order of the steps, on the real service', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService();
  });
  afterAll(() => service?.close());

  it('authenticates before anything else: a bad key wins over a bad body and a missing user', async () => {
    const headers = { ...authHeaders(service), [h.publishableClientKey]: 'pck_wrong' };
    for (const method of ['PATCH', 'DELETE']) {
      const answer = await call(service, method, '/users/me', { headers, json: { nope: true } });
      expectKnownError(answer, 'INVALID_PUBLISHABLE_CLIENT_KEY', 401);
    }
  });

  it('checks the user before the body, on PATCH and DELETE alike', async () => {
    for (const method of ['PATCH', 'DELETE']) {
      const answer = await call(service, method, '/users/me', { headers: authHeaders(service), json: { nope: true } });
      expectKnownError(answer, 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    }
  });

  it('validates the body of a signed-in request and changes nothing', async () => {
    const user = await signUp(service);
    const before = await snapshot(service);
    const answer = await call(service, 'PATCH', '/users/me', {
      headers: userHeaders(service, user),
      json: { nope: true },
    });
    expectKnownError(answer, 'SCHEMA_ERROR', 400);
    expect(answer.body.details.message).toContain('body: Unrecognized key: "nope"');
    expect(await snapshot(service)).toEqual(before);
  });

  it('ignores the body of a DELETE that declares none, as the original backend', async () => {
    const owner = await signUp(service);
    const team = await call(service, 'POST', '/teams', {
      headers: authHeaders(service, 'server'),
      json: { display_name: 'Doomed', creator_user_id: owner.user_id },
    });
    const deleted = await call(service, 'DELETE', `/teams/${team.body.id}`, {
      headers: authHeaders(service, 'server'),
      json: { display_name: 'ignored', nope: [1, 2] },
    });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toEqual({ success: true });
  });
});
