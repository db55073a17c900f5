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

export { apiKeySetFirstView } from './api-keys/api-key-views.js';
export type { CreateApiKeySetOptions, CreatedApiKeySet } from './api-keys/api-keys.js';
export type { Clock } from './common/clock.js';
export { secretWeakness } from './crypto/secret-strength.js';
export type { DashboardConfig, DashboardOptions } from './dashboard/dashboard.js';
export type { RefreshTokenCookieOptions } from './http/refresh-cookie.js';
export type { ImportRecord, SkipReason } from './import/import-records.js';
export type { ImportCounts, ImportItem, ImportNotice } from './import/import-users.js';
export type { MailboxMessage } from './mail/mailbox.js';
export {
  addProjectOwner,
  bootstrap,
  type CheckedImportRecord,
  checkImportRecord,
  createApiKeySet,
  createOwner,
  createProject,
  createUser,
  exportUsers,
  findDevProject,
  findOwner,
  type ImportUsersOptions,
  importUsers,
  issueDevKeys,
  listApiKeySets,
  listProjects,
  listUsers,
  type ProjectSummary,
  pinSecret,
  prepareDashboard,
  revokeApiKeySet,
  rotateSecret,
  type SecretOption,
  type SecretRotation,
  updateProjectConfig,
  verifySecret,
} from './operations.js';
export type { BootstrapOptions, DevProjectKeys } from './projects/bootstrap.js';
export type { ProjectConfig, ProjectConfigPatch } from './projects/project-config.js';
export type { CreateProjectOptions, ProjectRecord } from './projects/projects.js';
export { type RunningServer, type ServedService, startServer } from './server.js';
export { type ConnectionInfo, createService, type Service, type ServiceOptions } from './service.js';
export { openStorage, type Storage, type StorageOptions } from './storage/open-storage.js';
export { SecretMismatchError } from './tokens/signing-keys.js';
export type { CreateUserInput } from './users/users.js';
