/**
 * Derived from the route table: every route that may write (every method but
 * `GET`) either is exercised here, with the write guard of strict mode on,
 * by a request that changes data and records its event once, or is named in
 * `routesNotYetActions` (its feature's changes are not actions yet). A
 * handler that writes outside an action fails here, and in every other test
 * of its route, since every test service is strict. `GET` routes must not
 * write: the same guard fails their tests if they do.
 */
import { headers as h, internalProjectId } from '@latchkey/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiKeySet } from '../operations.js';
import { apiRoutes } from '../routes.js';
import { type Answer, authHeaders, call, newEmail, signUp, userHeaders } from '../test-support/api.js';
import { type AuditEvent, auditEvents } from '../test-support/audit.js';
import { startTestService, type TestKeys, type TestService } from '../testing/index.js';
import { routesNotYetActions } from './action-guard.js';

let service: TestService;

beforeAll(async () => {
  service = await startTestService({ projectConfig: { client_user_deletion_enabled: true } });
});
afterAll(() => service?.close());

/** A request that exercises one route, and the event it must record (once), if any. */
interface Exercise {
  run(): Promise<Answer>;
  /** The audit event the change records, read from this service's project; absent for an unaudited one. */
  records?: string;
}

const admin = () => authHeaders(service, 'admin');
const server = () => authHeaders(service, 'server');
const newUser = async () =>
  (await call(service, 'POST', '/users', { headers: server(), json: { primary_email: newEmail() } })).body.id;

/** One exercise per writing route that is an action, by `METHOD path`. */
const exercises: Record<string, Exercise> = {
  'PATCH /users/me': {
    run: async () =>
      call(service, 'PATCH', '/users/me', {
        headers: userHeaders(service, await signUp(service)),
        json: { display_name: 'Me' },
      }),
  },
  'DELETE /users/me': {
    run: async () => call(service, 'DELETE', '/users/me', { headers: userHeaders(service, await signUp(service)) }),
    records: 'user.deleted',
  },
  'POST /users': {
    run: () => call(service, 'POST', '/users', { headers: server(), json: { primary_email: newEmail() } }),
    records: 'user.created',
  },
  'PATCH /users/:userId': {
    run: async () =>
      call(service, 'PATCH', `/users/${await newUser()}`, { headers: server(), json: { display_name: 'Ada' } }),
    records: 'user.updated',
  },
  'DELETE /users/:userId': {
    run: async () => call(service, 'DELETE', `/users/${await newUser()}`, { headers: server() }),
    records: 'user.deleted',
  },
  'PATCH /projects/current': {
    run: () => call(service, 'PATCH', '/projects/current', { headers: admin(), json: { description: 'proof' } }),
    records: 'project.updated',
  },
  'POST /internal/api-keys': {
    run: () => call(service, 'POST', '/internal/api-keys', { headers: admin(), json: { has_secret_server_key: true } }),
    records: 'api_key.created',
  },
  'PATCH /internal/api-keys/:keySetId': {
    run: async () => {
      const made = await call(service, 'POST', '/internal/api-keys', {
        headers: admin(),
        json: { has_secret_server_key: true },
      });
      return call(service, 'PATCH', `/internal/api-keys/${made.body.id}`, {
        headers: admin(),
        json: { revoked: true },
      });
    },
    records: 'api_key.revoked',
  },
  'POST /internal/projects': {
    run: async () => {
      const keys = (await createApiKeySet(service.storage, internalProjectId)) as TestKeys;
      const internal = { ...service, projectId: internalProjectId, keys };
      const owner = await signUp(internal);
      return call(service, 'POST', '/internal/projects', {
        headers: userHeaders(internal, owner),
        json: { display_name: 'Owned' },
      });
    },
  },
  'DELETE /projects/current': {
    run: async () => {
      const other = await service.createOtherProject();
      return call(service, 'DELETE', '/projects/current', {
        headers: {
          ...admin(),
          'x-stack-project-id': other.projectId,
          'x-stack-publishable-client-key': other.keys.publishableClientKey,
          'x-stack-secret-server-key': other.keys.secretServerKey,
          'x-stack-super-secret-admin-key': other.keys.superSecretAdminKey,
        },
      });
    },
  },
  // Changes nothing: exercised to prove it writes nothing outside an action either.
  'POST /check-feature-support': {
    run: () => call(service, 'POST', '/check-feature-support', { headers: authHeaders(service), json: {} }),
  },
};

const routeKeys = apiRoutes.map((route) => `${route.method} ${route.path}`);
const writing = routeKeys.filter((key) => !key.startsWith('GET '));

describe('every route that writes', () => {
  it('is exercised here as an action, or named as not one yet', () => {
    const unaccounted = writing.filter((key) => !(key in exercises) && !routesNotYetActions.has(key));
    expect(unaccounted).toEqual([]);
    const both = Object.keys(exercises).filter((key) => routesNotYetActions.has(key));
    expect(both).toEqual([]);
  });

  it('names only routes of the table', () => {
    const known = new Set(routeKeys);
    expect(Object.keys(exercises).filter((key) => !known.has(key))).toEqual([]);
    expect([...routesNotYetActions].filter((key) => !known.has(key))).toEqual([]);
  });

  for (const [key, exercise] of Object.entries(exercises)) {
    it(`${key} writes inside an action${exercise.records ? `, recording ${exercise.records} once` : ''}`, async () => {
      const before = exercise.records ? await ofType(exercise.records) : [];
      const answer = await exercise.run();
      expect(answer.status, answer.text).toBeLessThan(300);
      expect(answer.headers.get('x-stack-known-error'), answer.text).toBeNull();
      if (exercise.records) {
        const after = await ofType(exercise.records);
        expect(after.length - before.length).toBe(1);
      }
    });
  }
});

describe('the write guard in a test service', () => {
  it('fails a route handler that writes outside an action', async () => {
    const route = 'POST /teams';
    expect(routesNotYetActions.has(route)).toBe(true);
    (routesNotYetActions as Set<string>).delete(route);
    try {
      // Without the status override, so a failure answers its own status.
      const { [h.overrideErrorStatus]: _override, ...headers } = server();
      const answer = await call(service, 'POST', '/teams', { headers, json: { display_name: 'T' } });
      expect(answer.status, answer.text).toBe(500);
    } finally {
      (routesNotYetActions as Set<string>).add(route);
    }
  });
});

function ofType(type: string): Promise<AuditEvent[]> {
  return auditEvents(service, { type, limit: '1000' });
}
