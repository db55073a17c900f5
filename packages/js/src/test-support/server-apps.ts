/**
 * `ServerApp` and `AdminApp` on the test service, in-process, with a record
 * of their requests and failure injection (as `createTestApp` for `ClientApp`).
 */
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
