/**
 * `ServerApp` and `AdminApp` on the test service, in-process, with a record
 * of their requests and failure injection (as `createTestApp` for `ClientApp`).
 */
import { createApiKeySet } from '@latchkey/server';
import { AdminApp, type AdminAppOptions } from '../admin-app.js';
import { ServerApp, type ServerAppOptions } from '../server-app.js';
import { recordingFetch, type TestService } from './service.js';

/** A `ServerApp` with the test project's secret server key (and publishable key, for request sessions). */
export function createTestServerApp(service: TestService, options: Partial<ServerAppOptions> = {}) {
  const recording = recordingFetch(service);
  const app = new ServerApp({
    projectId: service.projectId,
    baseUrl: service.url,
    secretServerKey: service.keys.secretServerKey,
    publishableClientKey: service.keys.publishableClientKey,
    fetch: recording.fetch,
    clock: service.clock,
    ...options,
  });
  return { app, ...recording };
}

/** Password hashes of `correct-horse-1` made by other systems, to import. */
export const importedHashes = {
  bcrypt: '$2b$10$ypwJk6/OoR.PNa63riUn8.xmb22ulpojTWe5HV9ocKqepDxh5btJa',
  argon2id: '$argon2id$v=19$m=65536,p=4,t=3$P3CGRzHM2DSrGWKgujeaFA$7Z3a4+zl2/ak4Xchg1cbQoE5u5kOOl/p+yB8phCkgj0',
};

/** An `AdminApp` with the test project's super secret admin key, unless the options give other credentials. */
export function createTestAdminApp(service: TestService, options: Partial<AdminAppOptions> = {}) {
  const recording = recordingFetch(service);
  const credentials = options.projectOwnerSession
    ? { projectOwnerSession: options.projectOwnerSession }
    : { superSecretAdminKey: options.superSecretAdminKey ?? service.keys.superSecretAdminKey };
  const app = new AdminApp({
    projectId: options.projectId ?? service.projectId,
    baseUrl: service.url,
    publishableClientKey: service.keys.publishableClientKey,
    fetch: recording.fetch,
    clock: service.clock,
    ...credentials,
  });
  return { app, ...recording };
}

/** A publishable key of the `internal` project, where dashboard users (project owners) sign in. */
export async function internalPublishableKey(service: TestService): Promise<string> {
  const keys = await createApiKeySet(service.storage, 'internal', {
    description: 'Test dashboard',
    hasPublishableClientKey: true,
    now: service.clock.now(),
  });
  return keys.publishableClientKey!;
}
