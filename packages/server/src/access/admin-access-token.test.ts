/**
 * Admin access tokens (wire-protocol §7.2, §7.3): an internal user's access
 * token, sent as `x-stack-admin-access-token` with the headers the official
 * SDK sends for an owned project, grants the requested access to the projects
 * the user owns, and nothing else, each refusal in the protocol's order.
 */
import { headers as h, internalProjectId, type KnownErrorCode } from '@latchkey/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKeySet } from '../operations.js';
import { dbOf } from '../storage/open-storage.js';
import { authHeaders, call, expectKnownError, signUp, snapshot, userHeaders } from '../test-support/api.js';
import { startTestService, type TestKeys, type TestService } from '../testing/index.js';

let service: TestService;
let internal: TestService;
let owner: Awaited<ReturnType<typeof signUp>>;
let ownedId: string;

beforeAll(async () => {
  service = await startTestService();
  const keys = (await createApiKeySet(service.storage, internalProjectId)) as TestKeys;
  internal = { ...service, projectId: internalProjectId, keys };
  owner = await signUp(internal);
  const created = await call(service, 'POST', '/internal/projects', {
    headers: userHeaders(internal, owner),
    json: { display_name: 'Owned' },
  });
  ownedId = created.body.id;
});
afterAll(() => service?.close());

/** The headers of the official SDK's admin app built with `projectOwnerSession` (wire-protocol §7.2). */
function ownerHeaders(projectId: string, token: string, accessType: 'admin' | 'server' | 'client' = 'admin') {
  return {
    [h.overrideErrorStatus]: 'true',
    [h.projectId]: projectId,
    [h.accessType]: accessType,
    [h.clientVersion]: 'js @stackframe/js@2.7.23',
    [h.adminAccessToken]: token,
    [h.secretServerKey]: '',
    ...(accessType === 'admin' ? { [h.superSecretAdminKey]: '' } : {}),
  };
}

describe('a valid admin access token', () => {
  it('grants admin access to an owned project without any key', async () => {
    const answer = await call(service, 'GET', '/projects/current', {
      headers: ownerHeaders(ownedId, owner.access_token),
    });
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body).toMatchObject({ id: ownedId, display_name: 'Owned', user_count: 0 });
  });

  it('grants the access type asked for', async () => {
    const server = await call(service, 'GET', '/projects/current', {
      headers: ownerHeaders(ownedId, owner.access_token, 'server'),
    });
    expect(server.status).toBe(200);
    expect(server.body).not.toHaveProperty('user_count');
  });

  it('lets the owner create keys for the project and change it', async () => {
    const keys = await call(service, 'POST', '/internal/api-keys', {
      headers: ownerHeaders(ownedId, owner.access_token),
      json: { description: 'app keys', has_publishable_client_key: true, has_secret_server_key: true },
    });
    expect(keys.status, keys.text).toBe(200);
    const client = await call(service, 'GET', '/projects/current', {
      headers: {
        [h.projectId]: ownedId,
        [h.accessType]: 'client',
        [h.publishableClientKey]: keys.body.publishable_client_key,
      },
    });
    expect(client.status).toBe(200);
    const renamed = await call(service, 'PATCH', '/projects/current', {
      headers: ownerHeaders(ownedId, owner.access_token),
      json: { display_name: 'Owned' },
    });
    expect(renamed.status).toBe(200);
  });
});

interface Refusal {
  name: string;
  setup: () => Promise<{ projectId: string; token: string }>;
  code: KnownErrorCode;
}

const refusals: Refusal[] = [
  {
    name: 'garbage',
    setup: async () => ({ projectId: ownedId, token: 'not-a-token' }),
    code: 'UNPARSABLE_ADMIN_ACCESS_TOKEN',
  },
  {
    name: 'an expired token (decision a)',
    setup: async () => {
      service.clock.advance(-700_000);
      try {
        const { access_token } = await call(service, 'POST', '/auth/password/sign-in', {
          headers: authHeaders(internal),
          json: { email: owner.email, password: owner.password },
        }).then((answer) => answer.body);
        return { projectId: ownedId, token: access_token };
      } finally {
        service.clock.advance(700_000);
      }
    },
    code: 'ADMIN_ACCESS_TOKEN_EXPIRED',
  },
  {
    name: 'a token of another project than internal',
    setup: async () => ({ projectId: ownedId, token: (await signUp(service)).access_token }),
    code: 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN',
  },
  {
    name: 'an internal user who does not own the project',
    setup: async () => ({ projectId: ownedId, token: (await signUp(internal)).access_token }),
    code: 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN',
  },
  {
    name: 'the owner, on a project they do not own',
    setup: async () => ({ projectId: service.projectId, token: owner.access_token }),
    code: 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN',
  },
  {
    name: 'the owner, on the internal project itself',
    setup: async () => ({ projectId: internalProjectId, token: owner.access_token }),
    code: 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN',
  },
  {
    name: 'a deleted owner',
    setup: async () => {
      const gone = await signUp(internal);
      const created = await call(service, 'POST', '/internal/projects', {
        headers: userHeaders(internal, gone),
        json: { display_name: 'Orphan' },
      });
      await dbOf(service.storage)
        .deleteFrom('users')
        .where('project_id', '=', internalProjectId)
        .where('id', '=', gone.user_id)
        .execute();
      return { projectId: created.body.id, token: gone.access_token };
    },
    code: 'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN',
  },
  {
    name: 'a project that was deleted',
    setup: async () => {
      const created = await call(service, 'POST', '/internal/projects', {
        headers: userHeaders(internal, owner),
        json: { display_name: 'Short-lived' },
      });
      const deleted = await call(service, 'DELETE', '/projects/current', {
        headers: ownerHeaders(created.body.id, owner.access_token),
      });
      expect(deleted.status, deleted.text).toBe(200);
      return { projectId: created.body.id, token: owner.access_token };
    },
    code: 'INVALID_PROJECT_FOR_ADMIN_ACCESS_TOKEN',
  },
  {
    name: 'an unknown project id',
    setup: async () => ({ projectId: '00000000-0000-4000-8000-000000000000', token: owner.access_token }),
    code: 'INVALID_PROJECT_FOR_ADMIN_ACCESS_TOKEN',
  },
];

describe('refusals (wire-protocol §7.3)', () => {
  it.each(refusals)('$name: $code', async ({ setup, code }) => {
    const { projectId, token } = await setup();
    const before = await snapshot(service);
    for (const accessType of ['admin', 'server'] as const) {
      const answer = await call(service, 'PATCH', '/projects/current', {
        headers: ownerHeaders(projectId, token, accessType),
        json: { display_name: 'Taken over' },
      });
      expectKnownError(answer, code, 401);
      if (code === 'ADMIN_ACCESS_TOKEN_EXPIRED') expect(answer.body.details).toEqual({ expired_at_millis: null });
    }
    expect(await snapshot(service)).toEqual(before);
  });

  it('checks the admin token instead of keys: a valid key does not rescue a bad token', async () => {
    const answer = await call(service, 'GET', '/projects/current', {
      headers: { ...authHeaders(service, 'admin'), [h.adminAccessToken]: 'garbage' },
    });
    expectKnownError(answer, 'UNPARSABLE_ADMIN_ACCESS_TOKEN', 401);
  });
});
