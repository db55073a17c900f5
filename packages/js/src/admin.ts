/**
 * @latchkey/js/admin: the administrators' SDK for browser code (the
 * dashboard, an app's own admin pages). `ProjectOwnerApp` signs in on the
 * `internal` project's session and lists, creates and administers the
 * projects its user owns; `AdminApp` acts on one of them with that session.
 * None of the server entry's request reading (`getUser({ tokenStore:
 * request })`) or webhook verification is here, and an `AdminApp` given the
 * super secret admin key in a browser throws: in browsers an administrator
 * acts with their own session, never with a key.
 *
 * @example
 * ```ts
 * import { ClientApp } from '@latchkey/js';
 * import { ProjectOwnerApp, serverUsersQuery } from '@latchkey/js/admin';
 *
 * const internal = new ClientApp({ projectId: 'internal', publishableClientKey, baseUrl, tokenStore: 'cookie' });
 * const owner = new ProjectOwnerApp({ baseUrl, publishableClientKey, projectOwnerSession: await internal.getUser({ or: 'throw' }) });
 * const page = await owner.adminApp(projectId).load(serverUsersQuery({ query: 'ada', limit: 20 }));
 * ```
 */
export type { ProductionModeError } from '@latchkey/protocol';
export { AdminApp, type AdminAppCommonOptions, type AdminAppModules, type AdminAppOptions } from './admin-app.js';
export { type ApiKeySet, type ApiKeySets, apiKeySetsQuery } from './api-keys/api-key-sets.js';
export type { ApiKeySetData, CreateApiKeySetOptions, ObfuscatedKey } from './api-keys/api-keys-api.js';
export {
  type AuditActor,
  type AuditEvent,
  type AuditLog,
  auditEventsQuery,
  type ListAuditEventsOptions,
} from './audit/audit-log.js';
export type {
  ContactChannelCreate,
  ContactChannelData,
  ContactChannelUpdate,
} from './contact-channels/contact-channels-api.js';
export type { ServerContactChannel } from './contact-channels/server-contact-channel.js';
export {
  type EmailDelivery,
  type SendTestEmailOptions,
  type SendTestEmailResult,
  type SentEmail,
  type SentEmailStatus,
  sentEmailsQuery,
} from './emails/email-delivery.js';
export {
  type EmailPreview,
  type EmailTemplate,
  type EmailTemplateEdit,
  type EmailTemplates,
  type EmailTemplateType,
  emailTemplatesQuery,
} from './emails/email-templates.js';
export type { AdminScope, OwnerScope } from './internal/audience.js';
export { type Metrics, type MetricsDay, metricsQuery, type ProjectMetrics } from './metrics/metrics.js';
export { ProjectOwnerApp, type ProjectOwnerAppModules, type ProjectOwnerAppOptions } from './project-owner-app.js';
export type {
  AdminProjectConfig,
  AdminProjectData,
  EmailConfig,
  OAuthProviderConfig,
  RateLimits,
  TrustedDomain,
} from './projects/admin-project-decoder.js';
export type {
  CreateProjectOptions,
  EmailConfigUpdate,
  ProjectConfigUpdate,
  ProjectUpdate,
} from './projects/admin-projects-api.js';
export { type OwnedProjects, ownedProjectsQuery } from './projects/owned-projects.js';
export { type AdminProject, adminProjectQuery, type ProjectAdministration } from './projects/project-admin.js';
export type { Query, QueryAccess, QueryKey } from './query.js';
export type { Page, ProjectOwnerSession } from './server-types.js';
export type { CreateSessionOptions, SessionTokens, UserSession, UserSessionData } from './sessions/sessions-api.js';
export {
  permissionDefinitionsQuery,
  type TeamPermissionDefinition,
  type TeamPermissionDefinitions,
} from './teams/permission-definitions.js';
export {
  type ServerTeams,
  serverTeamInvitationsQuery,
  serverTeamMembersQuery,
  serverTeamQuery,
  serverTeamsQuery,
} from './teams/server-team.js';
export type { ServerTeam, ServerTeamUser, ServerUser } from './users/server-user.js';
export {
  serverUserQuery,
  serverUsersQuery,
  userConnectedAccountsQuery,
  userContactChannelsQuery,
  userSessionsQuery,
  userTeamPermissionsQuery,
  userTeamsQuery,
} from './users/server-users.js';
export type { CreateUserOptions, ListUsersOptions, ServerUserUpdate } from './users/server-users-api.js';
export type { ServerUserData } from './users/user-decoder.js';
export {
  type CreateWebhookEndpointOptions,
  type WebhookAdministration,
  type WebhookAttempt,
  type WebhookEndpoint,
  type WebhookEndpointUpdate,
  type WebhookMessage,
  type WebhookMessageStatus,
  webhookAttemptsQuery,
  webhookEndpointsQuery,
  webhookMessagesQuery,
} from './webhooks/webhooks-admin.js';
