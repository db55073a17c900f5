/** The project as its administrators see it (admin view of spec §3), decoded from wire-protocol.md §15.6. */
import type {
  AdminProjectConfigWire,
  AdminProjectWire,
  ClientProjectConfigWire,
  EmailConfigWire,
  OAuthProviderConfigWire,
  RateLimitsWire,
} from '@latchkey/protocol';
import { asBaseFields, type Fields, optionalObject, optionalString, readFields } from '../internal/decode/fields.js';
import { type Project, readClientConfig } from './project-decoder.js';

/**
 * An OAuth provider as the project configures it. `standard` providers use
 * the project's own OAuth app (`clientId`, `clientSecret`); `shared` ones sign
 * in through the service's development stand-in (never in production mode).
 * An id outside the presets is a generic OpenID Connect provider (an
 * extension), with its `issuer` and the `displayName` of its button.
 *
 * @example
 * ```ts
 * const github: OAuthProviderConfig = { id: 'github', enabled: true, type: 'standard', clientId, clientSecret };
 * const corp: OAuthProviderConfig = {
 *   id: 'corp', enabled: true, type: 'standard', clientId, clientSecret,
 *   issuer: 'https://sso.example.com/realms/staff', displayName: 'Corp SSO',
 * };
 * ```
 */
export interface OAuthProviderConfig {
  /**
   * A preset (`google`, `github`, `microsoft`, `spotify`, `facebook`, `discord`,
   * `gitlab`, `bitbucket`, `linkedin`, `apple`, `x`), or a slug of yours for a
   * generic OpenID Connect provider.
   */
  id: string;
  enabled: boolean;
  type: 'shared' | 'standard';
  clientId?: string;
  clientSecret?: string;
  facebookConfigId?: string;
  microsoftTenantId?: string;
  /** Generic OpenID Connect providers: the issuer URL (discovered from `/.well-known/openid-configuration`). */
  issuer?: string;
  /** Generic OpenID Connect providers: the button label, e.g. `Corp SSO`. */
  displayName?: string;
}

/**
 * How the project sends e-mail: the service's shared sender, or its own SMTP server.
 *
 * @example
 * ```ts
 * const smtp: EmailConfig = { type: 'standard', host: 'smtp.example.com', port: 587, username, password, senderName: 'Shop', senderEmail: 'no-reply@example.com' };
 * ```
 */
export type EmailConfig =
  | { type: 'shared' }
  | {
      type: 'standard';
      host: string;
      port: number;
      username: string;
      password: string;
      senderName: string;
      senderEmail: string;
    };

/**
 * A trusted domain: where redirects may go, and where the handler pages live.
 *
 * @example
 * ```ts
 * const domain: TrustedDomain = { domain: 'https://shop.example.com', handlerPath: '/handler' };
 * ```
 */
export interface TrustedDomain {
  domain: string;
  handlerPath: string;
}

/**
 * A project's limits on guessing (an extension). Sign-in failures are free
 * before a back-off that starts at 1 s and doubles; the other counts are per
 * ten minutes.
 *
 * @example
 * ```ts
 * const { config } = await adminApp.getProject();
 * console.log(config.rateLimits?.signInFailuresPerAccount); // 5 unless changed
 * ```
 */
export interface RateLimits {
  /** Wrong passwords for one account before each further sign-in waits (1 to 100). */
  signInFailuresPerAccount: number;
  /** Failed sign-ins from one client address, on any accounts, before it waits (1 to 10,000). */
  signInFailuresPerClient: number;
  /** Password sign-ups from one client address in ten minutes (1 to 10,000). */
  signUpsPerClient: number;
  /** Mails of one kind to one address in ten minutes (1 to 100). */
  mailsPerAddress: number;
  /** Mails with a code requested from one client address in ten minutes (1 to 10,000). */
  mailsPerClient: number;
  /** Codes checked from one client address in ten minutes (1 to 10,000). */
  codeChecksPerClient: number;
}

/**
 * Every setting of a project: the client config plus the administrators' keys.
 * `oauthProviders` lists every configured provider, enabled or not.
 *
 * @example
 * ```ts
 * const { config } = await adminApp.getProject();
 * if (config.allowLocalhost) console.warn('localhost is trusted');
 * ```
 */
export interface AdminProjectConfig extends Omit<Project['config'], 'oauthProviders'> {
  oauthProviders: OAuthProviderConfig[];
  allowLocalhost: boolean;
  createTeamOnSignUp: boolean;
  /** Signs access tokens with the service-wide legacy key (older SDKs); absent on services without it. */
  legacyGlobalJwtSigning?: boolean;
  domains: TrustedDomain[];
  emailConfig: EmailConfig;
  teamCreatorDefaultPermissions: { id: string }[];
  teamMemberDefaultPermissions: { id: string }[];
  /** The limits on guessing; absent on services that predate them. */
  rateLimits?: RateLimits;
  /** Users get a mail when their account signs in from a browser it has not used; absent on services that predate it. */
  newDeviceAlertEnabled?: boolean;
}

/**
 * A project's data as its administrators see it: the client view plus its
 * description, creation time, user count, production mode and whole config.
 *
 * @example
 * ```ts
 * const project = await adminApp.getProject();
 * console.log(project.displayName, project.userCount, project.isProductionMode);
 * ```
 */
export interface AdminProjectData extends Omit<Project, 'config'> {
  description: string | null;
  createdAt: Date;
  userCount: number;
  isProductionMode: boolean;
  config: AdminProjectConfig;
}

/** Reads the admin view of a project. */
function readAdminProject(project: Fields<AdminProjectWire>): AdminProjectData {
  return {
    id: project.string('id'),
    displayName: project.string('display_name'),
    description: project.stringOrNull('description'),
    createdAt: new Date(project.number('created_at_millis')),
    userCount: project.number('user_count'),
    isProductionMode: project.boolean('is_production_mode'),
    config: project.object('config', readAdminConfig),
  };
}

/** Decodes an admin project answer (`GET /projects/current` with admin access). */
export function decodeAdminProject(body: unknown): AdminProjectData {
  return readFields(body, readAdminProject);
}

/** Decodes a list of admin projects (`GET /internal/projects`). */
export function decodeAdminProjectList(body: unknown): AdminProjectData[] {
  return readFields<{ items: AdminProjectWire[] }, AdminProjectData[]>(body, (list) =>
    list.list('items', readAdminProject),
  );
}

function readAdminConfig(config: Fields<AdminProjectConfigWire>): AdminProjectConfig {
  return {
    ...readClientConfig(asBaseFields<ClientProjectConfigWire, AdminProjectConfigWire>(config)),
    oauthProviders: config.list('oauth_providers', readOAuthProvider),
    allowLocalhost: config.boolean('allow_localhost'),
    createTeamOnSignUp: config.boolean('create_team_on_sign_up'),
    legacyGlobalJwtSigning: config.optionalBoolean('legacy_global_jwt_signing'),
    domains: config.list('domains', (domain) => ({
      domain: domain.string('domain'),
      handlerPath: domain.string('handler_path'),
    })),
    emailConfig: config.object('email_config', readEmailConfig),
    teamCreatorDefaultPermissions: config.list('team_creator_default_permissions', readPermission),
    teamMemberDefaultPermissions: config.list('team_member_default_permissions', readPermission),
    rateLimits: optionalObject(config, 'rate_limits', readRateLimits),
    newDeviceAlertEnabled: config.optionalBoolean('new_device_alert_enabled'),
  };
}

function readRateLimits(limits: Fields<RateLimitsWire>): RateLimits {
  return {
    signInFailuresPerAccount: limits.number('sign_in_failures_per_account'),
    signInFailuresPerClient: limits.number('sign_in_failures_per_client'),
    signUpsPerClient: limits.number('sign_ups_per_client'),
    mailsPerAddress: limits.number('mails_per_address'),
    mailsPerClient: limits.number('mails_per_client'),
    codeChecksPerClient: limits.number('code_checks_per_client'),
  };
}

function readOAuthProvider(provider: Fields<OAuthProviderConfigWire>): OAuthProviderConfig {
  return {
    id: provider.string('id'),
    enabled: provider.boolean('enabled'),
    type: provider.value('type', isOneOf('shared', 'standard'), '"shared" or "standard"'),
    clientId: optionalString(provider, 'client_id'),
    clientSecret: optionalString(provider, 'client_secret'),
    facebookConfigId: optionalString(provider, 'facebook_config_id'),
    microsoftTenantId: optionalString(provider, 'microsoft_tenant_id'),
    issuer: optionalString(provider, 'issuer'),
    displayName: optionalString(provider, 'display_name'),
  };
}

type StandardEmailConfigWire = Extract<EmailConfigWire, { type: 'standard' }>;

function readEmailConfig(email: Fields<EmailConfigWire>): EmailConfig {
  const type = email.value<EmailConfigWire['type']>('type', isOneOf('shared', 'standard'), '"shared" or "standard"');
  if (type === 'shared') return { type };
  // `type` selects the variant; every field of it is still checked as it is read.
  const smtp = email as unknown as Fields<StandardEmailConfigWire>;
  return {
    type,
    host: smtp.string('host'),
    port: smtp.number('port'),
    username: smtp.string('username'),
    password: smtp.string('password'),
    senderName: smtp.string('sender_name'),
    senderEmail: smtp.string('sender_email'),
  };
}

function readPermission(permission: Fields<{ id: string }>): { id: string } {
  return { id: permission.string('id') };
}

function isOneOf(...values: string[]): (value: unknown) => boolean {
  return (value) => typeof value === 'string' && values.includes(value);
}
