/**
 * @latchkey/server: the Latchkey auth service.
 *
 * @example
 * import { bootstrap, createService, openStorage, startServer } from '@latchkey/server';
 *
 * const storage = await openStorage({ dataDir: '.latchkey' });
 * const dev = await bootstrap(storage, { dev: true }); // keys of the dev project, on the first start only
 * const service = createService({ storage, secret: process.env.LATCHKEY_SECRET! });
 * const { url } = await startServer({ service, port: 8102 });
 */

export type { Clock } from './http/env.js';
export {
  type CreateApiKeySetOptions,
  type CreatedApiKeySet,
  createApiKeySet,
  revokeApiKeySet,
} from './api-keys/api-keys.js';
export { bootstrap, type DevProjectKeys } from './projects/bootstrap.js';
export type { ProjectConfig, ProjectConfigPatch } from './projects/project-config.js';
export {
  type CreateProjectOptions,
  createProject,
  type ProjectRecord,
  updateProjectConfig,
} from './projects/project-store.js';
export { type RunningServer, startServer } from './server.js';
export { createService, type Service, type ServiceOptions } from './service.js';
export { openStorage, type Storage, type StorageOptions } from './storage/open-storage.js';
