/**
 * `AdminApp`: the SDK for a project's administrators (spec §6), acting with
 * the project's super secret admin key or a project owner's session (an
 * admin access token, wire-protocol.md §7.2). An audience over the shared
 * core: those credentials, plus the modules it mounts: the users module
 * `ServerApp` mounts too, the project, API keys, metrics and webhooks.
 */
import { headers } from '@latchkey/protocol';
import { type ApiKeySets, apiKeySets } from './api-keys/api-key-sets.js';
import { type AuditLog, auditLog } from './audit/audit-log.js';
import { type ServerEmailFlows, serverEmailFlows } from './auth/server-email-flows.js';
import { type EmailDelivery, emailDelivery } from './emails/email-delivery.js';
import { type EmailTemplates, emailTemplates } from './emails/email-templates.js';
import { type AdminScope, createAudienceScope, queryAccess, refuseSecretKeyInBrowser } from './internal/audience.js';
import { createCore } from './internal/core.js';
import { adminAccessTokenCredentials, type Credentials, projectKeyCredentials } from './internal/http/credentials.js';
import { mounted } from './internal/mounted.js';
import { requireOption } from './internal/require-options.js';
import { type ProjectMetrics, projectMetrics } from './metrics/metrics.js';
import type { Clock, FetchFunction, Timers } from './options.js';
import { type ProjectAdministration, projectAdministration } from './projects/project-admin.js';
import type { QueryAccess } from './query.js';
import type { ProjectOwnerSession } from './server-types.js';
import { type TeamPermissionDefinitions, teamPermissionDefinitions } from './teams/permission-definitions.js';
import { type ServerTeams, serverTeams } from './teams/server-team.js';
import { type ServerUsers, serverUsers } from './users/server-users.js';
import { type WebhookAdministration, webhookAdministration } from './webhooks/webhooks-admin.js';

/**
 * Options of `new AdminApp(...)`: the project, and either its super secret
 * admin key (server code) or a session of a user who owns it.
 *
 * @example
 * ```ts
 * const withKey: AdminAppOptions = { projectId, baseUrl, superSecretAdminKey: process.env.LATCHKEY_ADMIN_KEY! };
 * const asOwner: AdminAppOptions = { projectId, baseUrl, projectOwnerSession: await internalApp.getUser({ or: 'throw' }) };
 * ```
 */
export type AdminAppOptions = AdminAppCommonOptions &
  (
    | { superSecretAdminKey: string; projectOwnerSession?: undefined }
    | { projectOwnerSession: ProjectOwnerSession; superSecretAdminKey?: undefined }
  );

/**
 * What every `AdminApp` is configured with, whatever its credentials.
 *
 * @example
 * ```ts
 * const common: AdminAppCommonOptions = { projectId, baseUrl: 'https://auth.example.com' };
 * ```
 */
export interface AdminAppCommonOptions {
  projectId: string;
  /** The service's origin, e.g. `https://auth.example.com` (a base ending in `/api/v1` is accepted too). */
  baseUrl: string;
  /** Needed by `getUser({ tokenStore })` only: it refreshes the sessions of incoming requests with it. */
  publishableClientKey?: string;
  fetch?: FetchFunction;
  /** Time source for token expiry and key validity; tests move it. */
  clock?: Clock;
  /** Timer functions for retries. */
  timers?: Timers;
}

/**
 * What an `AdminApp` can do: every method comes from a module it mounts. Its
 * data methods run the queries of server and admin access.
 */
export interface AdminAppModules
  extends ServerUsers,
    ServerEmailFlows,
    ProjectAdministration,
    ApiKeySets,
    ProjectMetrics,
    EmailTemplates,
    EmailDelivery,
    AuditLog,
    ServerTeams,
    TeamPermissionDefinitions,
    WebhookAdministration,
    QueryAccess<AdminScope> {
  readonly projectId: string;
}

/**
 * The admin SDK: everything `ServerApp` does, plus the project (read,
 * update, delete), its API key sets, its metrics, its e-mail templates and
 * e-mail delivery (a test mail, the status of recent mails), the audit log
 * and webhooks (endpoints, deliveries, replays, the webhook token).
 *
 * @example
 * ```ts
 * import { AdminApp } from '@latchkey/js/server';
 *
 * const adminApp = new AdminApp({ projectId, baseUrl, superSecretAdminKey });
 * await adminApp.updateProject({ displayName: 'Shop', config: { signUpEnabled: false } });
 * const keys = await adminApp.createApiKeySet({ description: 'Backend', hasSecretServerKey: true });
 * ```
 */
export class AdminApp extends mounted<AdminAppModules>() {
  constructor(options: AdminAppOptions) {
    super(mountAdminApp(options));
  }
}

function mountAdminApp(options: AdminAppOptions): AdminAppModules {
  requireOption('AdminApp', options, 'projectId');
  requireOption('AdminApp', options, 'baseUrl');
  const core = createCore(options);
  const credentials = adminCredentials(options);
  const scope = createAudienceScope({
    audience: 'AdminApp',
    access: 'admin',
    core,
    options,
    credentials,
    publishableClientKey: options.publishableClientKey,
  });
  return {
    projectId: options.projectId,
    ...serverUsers(scope),
    ...serverEmailFlows(scope),
    ...projectAdministration(scope),
    ...apiKeySets(scope),
    ...projectMetrics(scope),
    ...emailTemplates(scope),
    ...emailDelivery(scope),
    ...auditLog(scope),
    ...serverTeams(scope),
    ...teamPermissionDefinitions(scope),
    ...webhookAdministration(scope),
    ...queryAccess(scope),
  };
}

/** The admin key (refused in browsers), or the owner's access token as an admin access token. */
function adminCredentials(options: AdminAppOptions): Credentials {
  if (options.projectOwnerSession) return adminAccessTokenCredentials('admin', options.projectOwnerSession);
  requireOption('AdminApp', options, 'superSecretAdminKey');
  refuseSecretKeyInBrowser('AdminApp', 'super secret admin key');
  return projectKeyCredentials('admin', { [headers.superSecretAdminKey]: options.superSecretAdminKey });
}
