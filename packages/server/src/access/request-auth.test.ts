/**
 * Project authentication over HTTP (wire-protocol §2, §4.4): every refusal in
 * the protocol's order, with and without the status override, and proof that
 * refused requests change nothing.
 */
import { headers as h, internalProjectId, type KnownErrorCode } from '@latchkey/protocol';
import { exportSPKI, importJWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKeySet, revokeApiKeySet } from '../operations.js';
import { type Answer, authHeaders, call, expectKnownError, signUp, snapshot } from '../test-support/api.js';
import { claimsFor, forgedToken, hmacToken, kidOf, tamper, unsignedToken } from '../test-support/tokens.js';
import { startTestService, type TestService } from '../testing/index.js';

let service: TestService;
let other: Awaited<ReturnType<TestService['createOtherProject']>>;
let user: Awaited<ReturnType<typeof signUp>>;
let expiredToken: string;
let otherProjectToken: string;
let internalUserToken: string;
let publicJwkText: string;
let publicPem: string;

beforeAll(async () => {
  service = await startTestService();
  other = await service.createOtherProject();
  user = await signUp(service);
  service.clock.advance(-700_000);
  expiredToken = (await signUp(service)).access_token;
  service.clock.advance(700_000);
  const otherService = { ...service, projectId: other.projectId, keys: other.keys };
  otherProjectToken = (await signUp(otherService)).access_token;
  const internalKeys = await createApiKeySet(service.storage, internalProjectId);
  const internal = { ...service, projectId: internalProjectId, keys: internalKeys as typeof service.keys };
  internalUserToken = (await signUp(internal)).access_token;
  const jwks = await fetch(`${service.apiUrl}/projects/${service.projectId}/.well-known/jwks.json`);
  const [jwk] = ((await jwks.json()) as { keys: Record<string, string>[] }).keys;
  publicJwkText = JSON.stringify(jwk);
  publicPem = await exportSPKI((await importJWK(jwk!, 'ES256')) as CryptoKey);
});
afterAll(() => service?.close());

type Headers = Record<string, string>;
const without = (headers: Headers, ...names: string[]) =>
  Object.fromEntries(Object.entries(headers).filter(([name]) => !names.includes(name)));

interface Case {
  name: string;
  headers: () => Headers;
  code: KnownErrorCode;
  status: number;
  details?: Record<string, unknown>;
}

const cases: Case[] = [
  { name: 'no headers at all', headers: () => ({}), code: 'ACCESS_TYPE_REQUIRED', status: 400 },
  {
    name: 'a key without an access type',
    headers: () => without(authHeaders(service), h.accessType),
    code: 'PROJECT_KEY_WITHOUT_ACCESS_TYPE',
    status: 400,
  },
  {
    name: 'an admin token without an access type',
    headers: () => ({ [h.projectId]: service.projectId, [h.adminAccessToken]: user.access_token }),
    code: 'PROJECT_KEY_WITHOUT_ACCESS_TYPE',
    status: 400,
  },
  {
    name: 'an unknown access type',
    headers: () => ({ ...authHeaders(service), [h.accessType]: 'root' }),
    code: 'INVALID_ACCESS_TYPE',
    status: 400,
    details: { accessType: 'root' },
  },
  {
    name: 'an access type in capitals',
    headers: () => ({ ...authHeaders(service), [h.accessType]: 'CLIENT' }),
    code: 'INVALID_ACCESS_TYPE',
    status: 400,
    details: { accessType: 'CLIENT' },
  },
  {
    name: 'two access types (a repeated header reads "client, server")',
    headers: () => ({ ...authHeaders(service), [h.accessType]: 'client, server' }),
    code: 'INVALID_ACCESS_TYPE',
    status: 400,
  },
  {
    name: 'an empty access type with a key (decision c: absent)',
    headers: () => ({ ...authHeaders(service), [h.accessType]: '' }),
    code: 'PROJECT_KEY_WITHOUT_ACCESS_TYPE',
    status: 400,
  },
  {
    name: 'an unknown access type, before a missing project id',
    headers: () => without({ ...authHeaders(service), [h.accessType]: 'Client' }, h.projectId),
    code: 'INVALID_ACCESS_TYPE',
    status: 400,
  },
  {
    name: 'no project id',
    headers: () => without(authHeaders(service), h.projectId),
    code: 'ACCESS_TYPE_WITHOUT_PROJECT_ID',
    status: 400,
    details: { request_type: 'client' },
  },
  {
    name: 'an empty project id',
    headers: () => ({ ...authHeaders(service), [h.projectId]: '' }),
    code: 'ACCESS_TYPE_WITHOUT_PROJECT_ID',
    status: 400,
  },
  {
    name: 'client access without a publishable key',
    headers: () => without(authHeaders(service), h.publishableClientKey),
    code: 'CLIENT_AUTHENTICATION_REQUIRED',
    status: 401,
  },
  {
    name: 'client access with an empty publishable key (decision c)',
    headers: () => ({ ...authHeaders(service), [h.publishableClientKey]: '' }),
    code: 'CLIENT_AUTHENTICATION_REQUIRED',
    status: 401,
  },
  {
    name: 'server access without a secret key',
    headers: () => without(authHeaders(service, 'server'), h.secretServerKey),
    code: 'SERVER_AUTHENTICATION_REQUIRED',
    status: 401,
  },
  {
    name: 'server access with an empty secret key (decision c)',
    headers: () => ({ ...authHeaders(service, 'server'), [h.secretServerKey]: '' }),
    code: 'SERVER_AUTHENTICATION_REQUIRED',
    status: 401,
  },
  {
    name: 'admin access with an empty admin key (decision c)',
    headers: () => ({ ...authHeaders(service, 'admin'), [h.superSecretAdminKey]: '' }),
    code: 'ADMIN_AUTHENTICATION_REQUIRED',
    status: 401,
  },
  {
    name: 'a wrong publishable key',
    headers: () => ({ ...authHeaders(service), [h.publishableClientKey]: 'pck_bad' }),
    code: 'INVALID_PUBLISHABLE_CLIENT_KEY',
    status: 401,
    details: { project_id: '<project>' },
  },
  {
    name: "another project's publishable key",
    headers: () => ({ ...authHeaders(service), [h.publishableClientKey]: other.keys.publishableClientKey }),
    code: 'INVALID_PUBLISHABLE_CLIENT_KEY',
    status: 401,
  },
  {
    name: 'a secret server key in the publishable key header',
    headers: () => ({ ...authHeaders(service), [h.publishableClientKey]: service.keys.secretServerKey }),
    code: 'INVALID_PUBLISHABLE_CLIENT_KEY',
    status: 401,
  },
  {
    name: 'a wrong secret server key',
    headers: () => ({ ...authHeaders(service, 'server'), [h.secretServerKey]: 'ssk_bad' }),
    code: 'INVALID_SECRET_SERVER_KEY',
    status: 401,
    details: { project_id: '<project>' },
  },
  {
    name: "another project's secret server key",
    headers: () => ({ ...authHeaders(service, 'server'), [h.secretServerKey]: other.keys.secretServerKey }),
    code: 'INVALID_SECRET_SERVER_KEY',
    status: 401,
  },
  {
    name: 'a wrong admin key',
    headers: () => ({ ...authHeaders(service, 'admin'), [h.superSecretAdminKey]: 'sak_bad' }),
    code: 'INVALID_SUPER_SECRET_ADMIN_KEY',
    status: 401,
    details: { project_id: '<project>' },
  },
  {
    name: 'an unknown project id',
    headers: () => ({ ...authHeaders(service), [h.projectId]: '00000000-0000-4000-8000-000000000000' }),
    code: 'INVALID_PUBLISHABLE_CLIENT_KEY',
    status: 401,
    details: { project_id: '00000000-0000-4000-8000-000000000000' },
  },
  ...(
    [
      ['the string "undefined"', () => 'undefined'],
      ['garbage', () => 'not-a-token'],
      ['the raw stack-access cookie (wire-protocol §8)', () => JSON.stringify([user.refresh_token, user.access_token])],
      ['a token with a tampered subject', () => tamper(user.access_token, { sub: crypto.randomUUID() })],
      [
        'a token signed with another key',
        () => forgedToken(claimsFor(service.projectId, user.user_id), kidOf(user.access_token)),
      ],
      [
        'a token with alg none',
        () => unsignedToken(claimsFor(service.projectId, user.user_id), kidOf(user.access_token)),
      ],
      ['an HS256 token', () => hmacToken(claimsFor(service.projectId, user.user_id), kidOf(user.access_token), 'x')],
      [
        'HS256 keyed with the published public JWK (algorithm confusion)',
        () => hmacToken(claimsFor(service.projectId, user.user_id), kidOf(user.access_token), publicJwkText),
      ],
      [
        'HS256 keyed with the public key as PEM (algorithm confusion)',
        () => hmacToken(claimsFor(service.projectId, user.user_id), kidOf(user.access_token), publicPem),
      ],
      [
        'a kid of another project with this project as audience',
        () => tamper(otherProjectToken, { aud: service.projectId }),
      ],
    ] as const
  ).map(
    ([name, token]): Case => ({
      name: `access token: ${name}`,
      headers: () => ({ ...authHeaders(service), [h.accessToken]: token() as string }),
      code: 'UNPARSABLE_ACCESS_TOKEN',
      status: 401,
    }),
  ),
  {
    name: 'an expired access token (decision a)',
    headers: () => ({ ...authHeaders(service), [h.accessToken]: expiredToken }),
    code: 'ACCESS_TOKEN_EXPIRED',
    status: 401,
    details: { expired_at_millis: null },
  },
  {
    name: "another project's access token",
    headers: () => ({ ...authHeaders(service), [h.accessToken]: otherProjectToken }),
    code: 'INVALID_PROJECT_FOR_ACCESS_TOKEN',
    status: 401,
  },
  {
    name: 'a bad access token is reported before a bad key',
    headers: () => ({ ...authHeaders(service), [h.publishableClientKey]: 'pck_bad', [h.accessToken]: 'undefined' }),
    code: 'UNPARSABLE_ACCESS_TOKEN',
    status: 401,
  },
  {
    name: 'admin token: garbage, with empty key headers',
    headers: () => ({
      ...without(authHeaders(service, 'admin'), h.publishableClientKey),
      [h.secretServerKey]: '',
      [h.superSecretAdminKey]: '',
      [h.adminAccessToken]: 'garbage',
    }),
    code: 'UNPARSABLE_ADMIN_ACCESS_TOKEN',
    status: 401,
  },
  {
    name: 'admin token: expired (decision a)',
    headers: () => ({ ...authHeaders(service, 'admin'), [h.adminAccessToken]: expiredToken }),
    code: 'ADMIN_ACCESS_TOKEN_EXPIRED',
    status: 401,
    details: { expired_at_millis: null },
  },
  {
    name: 'admin token: a user of this project is not an admin',
    headers: () => ({ ...authHeaders(service, 'admin'), [h.adminAccessToken]: user.access_token }),
    code: 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN',
    status: 401,
  },
  {
    name: 'admin token: an internal user owns no project yet',
    headers: () => ({ ...authHeaders(service, 'admin'), [h.adminAccessToken]: internalUserToken }),
    code: 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN',
    status: 401,
  },
];

async function expectRefused(answer: Answer, test: Case, overridden: boolean) {
  expectKnownError(answer, test.code, test.status, overridden);
  if (test.details) {
    const expected = Object.fromEntries(
      Object.entries(test.details).map(([key, value]) => [key, value === '<project>' ? service.projectId : value]),
    );
    expect(answer.body.details).toEqual(expected);
  }
}

describe('refused requests', () => {
  for (const route of [
    ['GET', '/users/me'],
    ['GET', '/projects/current'],
    ['POST', '/auth/password/sign-up'],
  ] as const) {
    it.each(cases)(`${route[0]} ${route[1]}: $name`, async (test) => {
      const before = await snapshot(service);
      const json = route[0] === 'POST' ? { email: 'x@example.com', password: 'correct-horse-1' } : undefined;
      const headers = test.headers();
      await expectRefused(
        await call(service, route[0], route[1], { headers, json }),
        test,
        headers[h.overrideErrorStatus] === 'true',
      );
      const plain = without(headers, h.overrideErrorStatus);
      await expectRefused(await call(service, route[0], route[1], { headers: plain, json }), test, false);
      expect(await snapshot(service)).toEqual(before);
    });
  }
});

describe('access types', () => {
  it('refuses a client on a server route with INSUFFICIENT_ACCESS_TYPE', async () => {
    const answer = await call(service, 'POST', '/auth/sessions', {
      headers: authHeaders(service),
      json: { user_id: user.user_id },
    });
    expectKnownError(answer, 'INSUFFICIENT_ACCESS_TYPE', 401);
    expect(answer.body.details).toEqual({ actual_access_type: 'client', allowed_access_types: ['server', 'admin'] });
  });

  it.each(['client', 'server', 'admin'] as const)('lets %s access call a client route', async (accessType) => {
    const answer = await call(service, 'GET', '/users/me', {
      headers: { ...authHeaders(service, accessType), [h.accessToken]: user.access_token },
    });
    expect(answer.status).toBe(200);
    expect(answer.body.id).toBe(user.user_id);
  });

  it('treats empty access-token and admin-token headers as absent (decision c)', async () => {
    const answer = await call(service, 'GET', '/projects/current', {
      headers: { ...authHeaders(service), [h.accessToken]: '', [h.adminAccessToken]: '', [h.refreshToken]: '' },
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get(h.actualStatus)).toBeNull();
  });

  it('checks only the key of the access type asked for', async () => {
    const answer = await call(service, 'GET', '/projects/current', {
      headers: { ...authHeaders(service, 'server'), [h.publishableClientKey]: 'pck_bad' },
    });
    expect(answer.status).toBe(200);
  });
});

describe('key sets', () => {
  it('stops accepting the keys of a revoked key set', async () => {
    const keys = await createApiKeySet(service.storage, service.projectId);
    const headers = { ...authHeaders(service), [h.publishableClientKey]: keys.publishableClientKey! };
    expect((await call(service, 'GET', '/projects/current', { headers })).status).toBe(200);
    expect(await revokeApiKeySet(service.storage, service.projectId, keys.id)).toBe(true);
    expectKnownError(
      await call(service, 'GET', '/projects/current', { headers }),
      'INVALID_PUBLISHABLE_CLIENT_KEY',
      401,
    );
    expect(await revokeApiKeySet(service.storage, service.projectId, keys.id)).toBe(false);
  });

  it('stops accepting the keys of an expired key set (service clock)', async () => {
    const keys = await createApiKeySet(service.storage, service.projectId, {
      expiresAtMillis: service.clock.now() + 60_000,
    });
    const headers = { ...authHeaders(service, 'server'), [h.secretServerKey]: keys.secretServerKey! };
    expect((await call(service, 'GET', '/projects/current', { headers })).status).toBe(200);
    service.clock.advance(61_000);
    try {
      expectKnownError(await call(service, 'GET', '/projects/current', { headers }), 'INVALID_SECRET_SERVER_KEY', 401);
    } finally {
      service.clock.advance(-61_000);
    }
  });

  it('honours a set that holds only some kinds of key', async () => {
    const keys = await createApiKeySet(service.storage, service.projectId, {
      hasSecretServerKey: false,
      hasSuperSecretAdminKey: false,
    });
    expect(keys.secretServerKey).toBeUndefined();
    const headers = { ...authHeaders(service), [h.publishableClientKey]: keys.publishableClientKey! };
    expect((await call(service, 'GET', '/projects/current', { headers })).status).toBe(200);
  });
});
