/**
 * @latchkey/js/server: the SDK for server code. `ServerApp` acts with the
 * project's secret server key; `AdminApp` with the super secret admin key or
 * a project owner's session; `ProjectOwnerApp` lists and creates the projects
 * a dashboard user owns. `ServerApp` and `AdminApp` read the user of an
 * incoming request (`tokenStore: request`). Never import this entry in
 * browser code: the browser entry (`@latchkey/js`) holds none of it, and an
 * app built with a secret key in a browser throws. Each audience loads,
 * subscribes to and invalidates the queries exported here (`query.ts`).
 *
 * @example
 * ```ts
 * import { ServerApp } from '@latchkey/js/server';
 *
 * const serverApp = new ServerApp({ projectId, baseUrl, secretServerKey, publishableClientKey });
 * export async function loader({ request }: { request: Request }) {
 *   const user = await serverApp.getUser({ tokenStore: request });
 *   return { email: user?.primaryEmail ?? null };
 * }
 * ```
 */

/**
 * The production-mode problem type of `AdminProject.productionModeErrors`, from the protocol.
 *
 * @example
 * ```ts
 * const problems: ProductionModeError[] = (await adminApp.getProject()).productionModeErrors;
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
export type { ServerEmailFlows } from './auth/server-email-flows.js';
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
export type { Access, AdminScope, AudienceScope, OwnerScope, ServerScope } from './internal/audience.js';
export { type Metrics, type MetricsDay, metricsQuery, type ProjectMetrics } from './metrics/metrics.js';
export { ProjectOwnerApp, type ProjectOwnerAppModules, type ProjectOwnerAppOptions } from './project-owner-app.js';
export type {
  AdminProjectConfig,
  AdminProjectData,
  EmailConfig,
  OAuthProviderConfig,
  TrustedDomain,
} from './projects/admin-project-decoder.js';
export type { CreateProjectOptions, ProjectConfigUpdate, ProjectUpdate } from './projects/admin-projects-api.js';
export { type OwnedProjects, ownedProjectsQuery } from './projects/owned-projects.js';
export { type AdminProject, adminProjectQuery, type ProjectAdministration } from './projects/project-admin.js';
export type { Query, QueryAccess, QueryKey } from './query.js';
export { ServerApp, type ServerAppModules, type ServerAppOptions } from './server-app.js';
export type { HeadersLike, Page, ProjectOwnerSession, RequestLike, RequestTokenStore } from './server-types.js';
export type { CreateSessionOptions, SessionTokens, UserSessionData } from './sessions/sessions-api.js';
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
export type { ServerTeam, ServerTeamUser, ServerUser, UserSession } from './users/server-user.js';
export {
  type RequestAuthentication,
  type RequestUserOptions,
  type ServerUsers,
  serverUserQuery,
  serverUsersQuery,
  userConnectedAccountsQuery,
  userContactChannelsQuery,
  userTeamPermissionsQuery,
} from './users/server-users.js';
export type { CreateUserOptions, ListUsersOptions, ServerUserUpdate } from './users/server-users-api.js';
export type { ServerUserData } from './users/user-decoder.js';
export {
  type ReceivedWebhook,
  verifyWebhook,
  type WebhookEvent,
  type WebhookEventData,
  type WebhookEventType,
  type WebhookObjectGone,
  WebhookVerificationError,
} from './webhooks/verify-webhook.js';
export {
  type CreateWebhookEndpointOptions,
  type WebhookAdministration,
  type WebhookAttempt,
  type WebhookEndpoint,
  type WebhookEndpointUpdate,
  type WebhookMessage,
  type WebhookMessageStatus,
  webhookEndpointsQuery,
  webhookMessagesQuery,
} from './webhooks/webhooks-admin.js';
