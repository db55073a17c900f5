/**
 * Who may call what: every server and admin route × every way of calling it
 * (no keys, each access type, another project's keys, a revoked key, an
 * expired key, the admin token of someone who owns no project) → the answer
 * the protocol prescribes. One table, derived from the route declarations, so
 * a new route joins the matrix by being declared.
 */
import { type AccessType, headers as h, internalProjectId, type KnownErrorCode } from '@latchkey/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKeySet, revokeApiKeySet } from '../operations.js';
import { apiRoutes } from '../routes.js';
import { type Answer, authHeaders, call, newEmail } from '../test-support/api.js';
import { startTestService, type TestKeys, type TestService } from '../testing/index.js';
import { projectAuthErrors } from './request-auth.js';

/** The routes of the server and admin surface. */
const surface = apiRoutes.filter(
  (route) =>
    route.access !== 'none' &&
    (/^\/(users|internal)\b/.test(route.path) ||
      route.path.startsWith('/auth/sessions') ||
      route.path.startsWith('/contact-channels') ||
      route.path === '/projects/current') &&
    !route.path.startsWith('/users/me'),
);

type Caller = 'no keys' | AccessType | 'other project' | 'revoked key' | 'expired key' | 'non-owner admin token';
const callers: Caller[] = [
  'no keys',
  'client',
  'server',
  'admin',
  'other project',
  'revoked key',
  'expired key',
  'non-owner admin token',
];

const rank: Record<AccessType, number> = { client: 0, server: 1, admin: 2 };
const keyHeader = { client: h.publishableClientKey, server: h.secretServerKey, admin: h.superSecretAdminKey } as const;
const keyKind = { client: 'publishableClientKey', server: 'secretServerKey', admin: 'superSecretAdminKey' } as const;
const invalidKey: Record<AccessType, KnownErrorCode> = {
  client: 'INVALID_PUBLISHABLE_CLIENT_KEY',
  server: 'INVALID_SECRET_SERVER_KEY',
  admin: 'INVALID_SUPER_SECRET_ADMIN_KEY',
};

/** The authentication answer a caller must get, or null when authentication must let it through. */
function expected(access: AccessType, caller: Caller): KnownErrorCode | null {
  switch (caller) {
    case 'no keys':
      return 'ACCESS_TYPE_REQUIRED';
    case 'client':
    case 'server':
    case 'admin':
      return rank[caller] < rank[access] ? 'INSUFFICIENT_ACCESS_TYPE' : null;
    case 'other project':
    case 'revoked key':
    case 'expired key':
      return invalidKey[access];
    case 'non-owner admin token':
      return 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN';
  }
}

let service: TestService;
let other: { projectId: string; keys: TestKeys };
let revoked: TestKeys;
let expired: TestKeys;
let nonOwnerToken: string;

beforeAll(async () => {
  service = await startTestService();
  other = await service.createOtherProject();
  const revokedSet = await createApiKeySet(service.storage, service.projectId, { description: 'revoked' });
  await revokeApiKeySet(service.storage, service.projectId, revokedSet.id);
  revoked = revokedSet as TestKeys;
  expired = (await createApiKeySet(service.storage, service.projectId, {
    description: 'expired',
    expiresAtMillis: service.clock.now() - 1000,
  })) as TestKeys;
  // Someone signed in to the internal project who owns nothing.
  const internal = (await createApiKeySet(service.storage, internalProjectId)) as TestKeys;
  const signedUp = await call(service, 'POST', '/auth/password/sign-up', {
    headers: {
      ...authHeaders(service),
      [h.projectId]: internalProjectId,
      [h.publishableClientKey]: internal.publishableClientKey,
    },
    json: { email: newEmail('owner'), password: 'correct-horse-1' },
  });
  nonOwnerToken = signedUp.body.access_token;
});
afterAll(() => service?.close());

function headersFor(access: AccessType, caller: Caller, projectId: string): Record<string, string> {
  const base: Record<string, string> = { [h.overrideErrorStatus]: 'true', [h.projectId]: projectId };
  switch (caller) {
    case 'no keys':
      return base;
    case 'client':
    case 'server':
    case 'admin':
      return { ...authHeaders(service, caller), [h.projectId]: projectId };
    case 'other project':
      return { ...base, [h.accessType]: access, [keyHeader[access]]: other.keys[keyKind[access]] };
    case 'revoked key':
      return { ...base, [h.accessType]: access, [keyHeader[access]]: revoked[keyKind[access]] };
    case 'expired key':
      return { ...base, [h.accessType]: access, [keyHeader[access]]: expired[keyKind[access]] };
    case 'non-owner admin token':
      return { ...base, [h.accessType]: access, [h.adminAccessToken]: nonOwnerToken };
  }
}

/** Path parameters filled with an id that names nothing: a caller let through gets a not-found, never a change. */
const pathOf = (path: string) => path.replace(/:[A-Za-z]+/g, '00000000-0000-4000-8000-000000000000');

describe('the role matrix of the server and admin surface', () => {
  it('covers the routes of the surface', () => {
    const covered = surface.map((route) => `${route.method} ${route.path}`);
    expect(covered).toEqual(
      expect.arrayContaining(['GET /users', 'POST /users', 'GET /users/:userId', 'DELETE /auth/sessions/:sessionId']),
    );
  });

  const cases = surface.flatMap((route) =>
    callers.map((caller) => [`${route.method} ${route.path}`, caller, route] as const),
  );

  it.each(cases)('%s as %s', async (_, caller, route) => {
    const access = route.access as AccessType;
    // Deleting the current project is let through only on a project made for it.
    const destructive = route.method === 'DELETE' && route.path === '/projects/current';
    const projectId = destructive ? (await service.createOtherProject()).projectId : service.projectId;
    let headers = headersFor(access, caller, projectId);
    if (destructive && (caller === 'admin' || caller === 'server' || caller === 'client')) {
      // The throwaway project's own keys, for the callers whose keys are valid.
      headers = { ...headers, ...(await keysOf(projectId, caller)) };
    }
    const answer: Answer = await call(service, route.method, pathOf(route.path), {
      headers,
      ...(route.method === 'GET' ? {} : { json: {} }),
    });
    const status = Number(answer.headers.get(h.actualStatus) ?? answer.status);
    const code = answer.headers.get(h.knownError);
    expect(status, `${answer.text.slice(0, 200)}`).toBeLessThan(500);
    const want = expected(access, caller);
    if (want) {
      expect(code).toBe(want);
    } else {
      // Let through: whatever the route answers, it is not an authentication refusal.
      expect(projectAuthErrors(access)).not.toContain(code);
    }
  });
});

const throwawayKeys = new Map<string, TestKeys>();

async function keysOf(projectId: string, caller: AccessType): Promise<Record<string, string>> {
  let keys = throwawayKeys.get(projectId);
  if (!keys) {
    keys = (await createApiKeySet(service.storage, projectId)) as TestKeys;
    throwawayKeys.set(projectId, keys);
  }
  const result: Record<string, string> = { [h.publishableClientKey]: keys.publishableClientKey };
  if (caller !== 'client') result[h.secretServerKey] = keys.secretServerKey;
  if (caller === 'admin') result[h.superSecretAdminKey] = keys.superSecretAdminKey;
  return result;
}
