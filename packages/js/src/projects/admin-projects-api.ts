/**
 * The project calls of administrators (spec §7, wire-protocol.md §14.7):
 * read, update and delete the current project (admin access), and list and
 * create the projects a dashboard user owns (client access on `internal`).
 */
import type { Send } from '../internal/core.js';
import { definedFields } from '../internal/defined-fields.js';
import {
  type AdminProjectData,
  decodeAdminProject,
  decodeAdminProjectList,
  type EmailConfig,
  type OAuthProviderConfig,
  type RateLimits,
  type TrustedDomain,
} from './admin-project-decoder.js';

/**
 * An e-mail config to store: as `EmailConfig`, except that a standard one may
 * leave out `password` to keep the stored password (when host and username
 * stay the same).
 *
 * @example
 * ```ts
 * const keepPassword: EmailConfigUpdate = { type: 'standard', host: 'smtp.example.com', port: 587, username: 'mailer', senderName: 'Shop', senderEmail: 'no-reply@example.com' };
 * ```
 */
export type EmailConfigUpdate =
  | { type: 'shared' }
  | (Omit<Extract<EmailConfig, { type: 'standard' }>, 'password'> & { password?: string });

/**
 * Changes to a project's config: any key of it; lists (`oauthProviders`,
 * `domains`, permissions) replace the stored list. A standard provider or
 * SMTP config sent without its secret keeps the stored secret.
 *
 * @example
 * ```ts
 * const config: ProjectConfigUpdate = { allowLocalhost: false, domains: [{ domain: 'https://shop.example.com', handlerPath: '/handler' }] };
 * ```
 */
export interface ProjectConfigUpdate {
  signUpEnabled?: boolean;
  credentialEnabled?: boolean;
  magicLinkEnabled?: boolean;
  passkeyEnabled?: boolean;
  clientTeamCreationEnabled?: boolean;
  clientUserDeletionEnabled?: boolean;
  allowLocalhost?: boolean;
  createTeamOnSignUp?: boolean;
  legacyGlobalJwtSigning?: boolean;
  oauthProviders?: OAuthProviderConfig[];
  domains?: TrustedDomain[];
  emailConfig?: EmailConfigUpdate;
  teamCreatorDefaultPermissions?: { id: string }[];
  teamMemberDefaultPermissions?: { id: string }[];
  /** The limits it names change, the others stay (an extension). */
  rateLimits?: Partial<RateLimits>;
  /** Mail users when their account signs in from a browser it has not used (an extension). */
  newDeviceAlertEnabled?: boolean;
}

/**
 * Changes to a project: its names, production mode and config.
 *
 * @example
 * ```ts
 * await adminApp.updateProject({ description: 'The shop', config: { signUpEnabled: false } });
 * ```
 */
export interface ProjectUpdate {
  displayName?: string;
  description?: string | null;
  /** Taken even while a production-mode check fails; `productionModeErrors` lists what does. */
  isProductionMode?: boolean;
  config?: ProjectConfigUpdate;
}

/**
 * A new project: its name, and any setting to start with.
 *
 * @example
 * ```ts
 * const project = await owner.createProject({ displayName: 'Shop', config: { magicLinkEnabled: true } });
 * ```
 */
export interface CreateProjectOptions extends ProjectUpdate {
  displayName: string;
}

const ignoreAnswer = (): void => {};

/** `GET /projects/current` with admin access. */
export function fetchAdminProject(send: Send): Promise<AdminProjectData> {
  return send({ method: 'GET', path: '/projects/current' }, decodeAdminProject);
}

/** `PATCH /projects/current`: the project as it is afterwards. */
export function updateProject(send: Send, update: ProjectUpdate): Promise<AdminProjectData> {
  return send({ method: 'PATCH', path: '/projects/current', body: projectUpdateBody(update) }, decodeAdminProject);
}

/** `DELETE /projects/current`, sent without a body (as the 2.7 SDK does). */
export function deleteProject(send: Send): Promise<void> {
  return send({ method: 'DELETE', path: '/projects/current' }, ignoreAnswer);
}

/** `GET /internal/projects`: the projects the signed-in dashboard user owns. */
export function listOwnedProjects(send: Send): Promise<AdminProjectData[]> {
  return send({ method: 'GET', path: '/internal/projects' }, decodeAdminProjectList);
}

/** `POST /internal/projects`: a project the signed-in dashboard user owns. */
export function createOwnedProject(send: Send, options: CreateProjectOptions): Promise<AdminProjectData> {
  return send({ method: 'POST', path: '/internal/projects', body: projectUpdateBody(options) }, decodeAdminProject);
}

/** The wire body of a project update or creation; `undefined` fields are left out. */
export function projectUpdateBody(update: ProjectUpdate): Record<string, unknown> {
  return definedFields({
    display_name: update.displayName,
    description: update.description,
    is_production_mode: update.isProductionMode,
    config: update.config && configBody(update.config),
  });
}

function configBody(config: ProjectConfigUpdate): Record<string, unknown> {
  return definedFields({
    sign_up_enabled: config.signUpEnabled,
    credential_enabled: config.credentialEnabled,
    magic_link_enabled: config.magicLinkEnabled,
    passkey_enabled: config.passkeyEnabled,
    client_team_creation_enabled: config.clientTeamCreationEnabled,
    client_user_deletion_enabled: config.clientUserDeletionEnabled,
    allow_localhost: config.allowLocalhost,
    create_team_on_sign_up: config.createTeamOnSignUp,
    legacy_global_jwt_signing: config.legacyGlobalJwtSigning,
    oauth_providers: config.oauthProviders?.map((provider) =>
      definedFields({
        id: provider.id,
        enabled: provider.enabled,
        type: provider.type,
        client_id: provider.clientId,
        client_secret: provider.clientSecret,
        facebook_config_id: provider.facebookConfigId,
        microsoft_tenant_id: provider.microsoftTenantId,
        issuer: provider.issuer,
        display_name: provider.displayName,
      }),
    ),
    domains: config.domains?.map((domain) => ({ domain: domain.domain, handler_path: domain.handlerPath })),
    email_config: config.emailConfig && emailConfigBody(config.emailConfig),
    team_creator_default_permissions: config.teamCreatorDefaultPermissions?.map(({ id }) => ({ id })),
    team_member_default_permissions: config.teamMemberDefaultPermissions?.map(({ id }) => ({ id })),
    rate_limits: config.rateLimits && rateLimitsBody(config.rateLimits),
    new_device_alert_enabled: config.newDeviceAlertEnabled,
  });
}

function rateLimitsBody(limits: Partial<RateLimits>): Record<string, unknown> {
  return definedFields({
    sign_in_failures_per_account: limits.signInFailuresPerAccount,
    sign_in_failures_per_client: limits.signInFailuresPerClient,
    sign_ups_per_client: limits.signUpsPerClient,
    mails_per_address: limits.mailsPerAddress,
    mails_per_client: limits.mailsPerClient,
    code_checks_per_client: limits.codeChecksPerClient,
  });
}

function emailConfigBody(email: EmailConfigUpdate): Record<string, unknown> {
  if (email.type === 'shared') return { type: 'shared' };
  const { type, host, port, username, password, senderName, senderEmail } = email;
  return definedFields({ type, host, port, username, password, sender_name: senderName, sender_email: senderEmail });
}
