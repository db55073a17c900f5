/**
 * A project's configuration: stored as the admin config of wire-protocol §15.6
 * (without the derived `id` and `enabled_oauth_providers`), parsed with its
 * schema on every read (defaults fill keys a stored config lacks), and the
 * zod schema of a config patch. Secret fields (OAuth client secrets, the SMTP
 * password) are stored sealed (`config-secrets.ts`). `rate_limits` (an
 * extension) holds the project's limits on guessing (`rate-limit/limit-settings.ts`); `mfa_required`
 * (an extension) asks every sign-in for a TOTP second factor (`mfa/`); `new_device_alert_enabled`
 * (an extension) mails a user when their account signs in from a browser it has not used
 * (`sessions/new-device-alert.ts`).
 */
import { type AdminProjectConfigWire, KnownError, oauthProviderPresets } from '@latchkey/protocol';
import { z } from 'zod';
import { describeIssues } from '../common/validate.js';
import { StatusRefusal } from '../http/responses.js';
import { defaultRateLimits, rateLimitSettings } from '../rate-limit/limit-settings.js';

/** The stored configuration (the admin config of wire-protocol §15.6 less its derived keys). */
export type ProjectConfig = z.output<typeof projectConfigSchema>;

// The stored config must stay a valid admin config on the wire.
const _wireCompatible: (config: ProjectConfig) => Omit<AdminProjectConfigWire, 'id' | 'enabled_oauth_providers'> = (
  config,
) => config;

/** Settings of a new project. */
export const defaultProjectConfig: ProjectConfig = {
  allow_localhost: true,
  sign_up_enabled: true,
  credential_enabled: true,
  magic_link_enabled: false,
  passkey_enabled: false,
  client_team_creation_enabled: false,
  client_user_deletion_enabled: false,
  create_team_on_sign_up: false,
  legacy_global_jwt_signing: false,
  oauth_providers: [],
  domains: [],
  email_config: { type: 'shared' },
  team_creator_default_permissions: [{ id: 'admin' }],
  team_member_default_permissions: [{ id: 'member' }],
  rate_limits: defaultRateLimits,
  mfa_required: false,
  // Off for projects stored before the setting existed; a project created on a production service turns it on.
  new_device_alert_enabled: false,
};

/** The preset ids, as the protocol lists them (`oauthProviderPresets`). */
const oauthProviderIds = oauthProviderPresets;

/** Ids of the presets, plus the slug an operator gives a generic OpenID Connect provider. */
const providerId = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, { error: 'must be a provider id: lowercase letters, digits and dashes' });

/**
 * A provider's fields; a standard provider's `client_secret` may be left out
 * of an update to keep the stored one. An id outside the presets is a generic
 * OpenID Connect provider (an extension): it needs `issuer` (discovered from
 * `<issuer>/.well-known/openid-configuration`) and `display_name`.
 */
const oauthProviderFields = z.strictObject({
  id: providerId,
  enabled: z.boolean(),
  type: z.enum(['shared', 'standard']),
  client_id: z.string().min(1).max(1024).optional(),
  client_secret: z.string().min(1).max(4096).optional(),
  facebook_config_id: z.string().max(1024).optional(),
  microsoft_tenant_id: z
    .string()
    .regex(/^[A-Za-z0-9.-]{1,128}$/, { error: 'must be a tenant id or domain' })
    .optional(),
  issuer: z
    .url({ protocol: /^https?$/ })
    .max(1024)
    .optional(),
  display_name: z.string().min(1).max(64).optional(),
});

/** True for the eleven provider ids of wire-protocol §15.6. */
function isPresetProvider(id: string): id is (typeof oauthProviderIds)[number] {
  return (oauthProviderIds as readonly string[]).includes(id);
}

type ProviderFields = z.infer<typeof oauthProviderFields>;

/** What a provider entry lacks to be usable, or null. */
function providerProblem(p: ProviderFields, requireSecret: boolean): string | null {
  if (isPresetProvider(p.id)) {
    if (p.issuer !== undefined) return `${p.id} is a preset; issuer is only for generic OpenID Connect providers`;
  } else {
    if (p.type !== 'standard' || !p.issuer || !p.display_name) {
      return `${p.id} is not a preset provider (${oauthProviderIds.join(', ')}); a generic OpenID Connect provider needs type standard, issuer and display_name`;
    }
  }
  if (p.type === 'standard' && (!p.client_id || (requireSecret && !p.client_secret))) {
    return 'a standard OAuth provider needs client_id and client_secret';
  }
  return null;
}

/** A complete provider entry. */
const oauthProvider = oauthProviderFields.superRefine((p, context) => {
  const problem = providerProblem(p, true);
  if (problem) context.addIssue({ code: 'custom', message: problem });
});

/** A provider entry of a config patch (its `client_secret` may be left out to keep the stored one). */
const oauthProviderPatch = oauthProviderFields.superRefine((p, context) => {
  const problem = providerProblem(p, false);
  if (problem) context.addIssue({ code: 'custom', message: problem });
});

/** A provider list names each provider once (its sealed secret is bound to its id). */
function oauthProviderList<T extends z.ZodType<{ id: string }>>(provider: T) {
  return z
    .array(provider)
    .max(oauthProviderIds.length + 20)
    .refine((list) => new Set(list.map((p) => p.id)).size === list.length, { message: 'names a provider twice' });
}

const sharedEmail = z.strictObject({ type: z.literal('shared') });
const standardEmail = z.strictObject({
  type: z.literal('standard'),
  host: z.string().min(1).max(1024),
  port: z.number().int().min(1).max(65_535),
  username: z.string().max(1024),
  password: z.string().max(4096),
  sender_name: z.string().max(256),
  // Any address the WHATWG rule of HTML forms accepts, as the original backend's (`test@email.com2` too).
  sender_email: z.email({ pattern: z.regexes.html5Email }),
});

const emailConfig = z.discriminatedUnion('type', [sharedEmail, standardEmail]);

const permissionList = z.array(z.strictObject({ id: z.string().min(1).max(256) })).max(100);

/** A complete configuration. */
export const projectConfigSchema = z.strictObject({
  allow_localhost: z.boolean(),
  sign_up_enabled: z.boolean(),
  credential_enabled: z.boolean(),
  magic_link_enabled: z.boolean(),
  passkey_enabled: z.boolean(),
  client_team_creation_enabled: z.boolean(),
  client_user_deletion_enabled: z.boolean(),
  create_team_on_sign_up: z.boolean(),
  legacy_global_jwt_signing: z.boolean(),
  oauth_providers: oauthProviderList(oauthProvider),
  domains: z
    .array(
      z.strictObject({
        domain: z.url({ protocol: /^https?$/ }),
        handler_path: z.string().startsWith('/').max(1024),
      }),
    )
    .max(100),
  email_config: emailConfig,
  team_creator_default_permissions: permissionList,
  team_member_default_permissions: permissionList,
  rate_limits: rateLimitSettings,
  mfa_required: z.boolean().meta({
    description:
      'Latchkey extension: every sign-in needs a TOTP code; a user without an authenticator app sets one up to finish signing in (`MULTI_FACTOR_AUTHENTICATION_SETUP_REQUIRED`).',
  }),
  new_device_alert_enabled: z.boolean().meta({
    description:
      'Latchkey extension: a sign-in from a browser the account has not used mails the user (template `new_device_sign_in`), with a link to the Sessions section of their account settings. Default: on for projects created on a production service, off in development.',
  }),
});

/**
 * A config patch: every key optional; lists replace the stored list. A
 * standard OAuth provider may leave out `client_secret`, and a standard e-mail
 * config its `password`, to keep the stored one; `rate_limits` may name only
 * the limits it changes (see `mergeConfig`).
 */
export const projectConfigPatchSchema = projectConfigSchema.partial().extend({
  rate_limits: rateLimitSettings.partial().optional(),
  oauth_providers: oauthProviderList(oauthProviderPatch).optional(),
  email_config: z
    .discriminatedUnion('type', [sharedEmail, standardEmail.extend({ password: z.string().max(4096).optional() })])
    .optional(),
});

/**
 * A change to a project's configuration: any subset of `ProjectConfig`; lists
 * (`domains`, `oauth_providers`, permissions) replace the stored list. Leave
 * out a standard provider's `client_secret` (or the SMTP `password`) to keep
 * the stored one, as long as its `client_id` (the SMTP host and username) stay
 * the same. `rate_limits` changes the limits it names and keeps the others.
 *
 * @example
 * const patch: ProjectConfigPatch = { allow_localhost: false, domains: [{ domain: 'https://app.example.com', handler_path: '/handler' }] };
 */
export type ProjectConfigPatch = z.infer<typeof projectConfigPatchSchema>;

/**
 * The stored config, completed with defaults for keys added since it was
 * written and checked against the schema. A stored config that does not parse
 * is a fault of the service's data, not of the caller: it throws a plain error.
 */
export function parseStoredConfig(projectId: string, stored: unknown): ProjectConfig {
  const object: { rate_limits?: unknown } =
    stored && typeof stored === 'object' && !Array.isArray(stored) ? stored : {};
  // Limits added since the config was written take their defaults too.
  const limits = object.rate_limits ?? {};
  const rateLimits = typeof limits === 'object' ? { ...defaultRateLimits, ...limits } : limits;
  const parsed = projectConfigSchema.safeParse({ ...defaultProjectConfig, ...object, rate_limits: rateLimits });
  if (!parsed.success) throw new Error(`the stored config of project ${projectId} is invalid: ${parsed.error.message}`);
  return parsed.data;
}

/**
 * The config after `patch` (validated, its secrets already sealed) is applied
 * to `stored`: keys of the patch replace stored ones, lists wholesale. A
 * standard provider sent without `client_secret` keeps the stored secret when
 * the stored provider is standard with the same `client_id`; a standard e-mail
 * config without `password` keeps the stored one when host and username are
 * unchanged; `rate_limits` keeps the stored limits it does not name. Anything
 * else missing is SCHEMA_ERROR, as is any result that is not a complete config.
 */
export function mergeConfig(stored: ProjectConfig, patch: ProjectConfigPatch): ProjectConfig {
  const merged: Record<string, unknown> = { ...stored, ...patch };
  if (patch.rate_limits) merged.rate_limits = { ...stored.rate_limits, ...patch.rate_limits };
  if (patch.oauth_providers) {
    merged.oauth_providers = patch.oauth_providers.map((provider) => {
      if (provider.type !== 'standard' || provider.client_secret !== undefined) return provider;
      const kept = stored.oauth_providers.find(
        (old) => old.id === provider.id && old.type === 'standard' && old.client_id === provider.client_id,
      );
      return kept?.client_secret ? { ...provider, client_secret: kept.client_secret } : provider;
    });
  }
  const email = patch.email_config;
  if (email?.type === 'standard' && email.password === undefined) {
    const old = stored.email_config;
    const same = old.type === 'standard' && old.host === email.host && old.username === email.username;
    merged.email_config = same ? { ...email, password: old.password } : email;
  }
  const result = projectConfigSchema.safeParse(merged);
  if (!result.success) {
    throw new KnownError('SCHEMA_ERROR', { message: describeIssues(result.error, 'config') });
  }
  // A domain named twice is the original backend's plain-text refusal, after the schema's checks.
  const domains = result.data.domains.map((d) => d.domain);
  if (new Set(domains).size !== domains.length) throw new StatusRefusal(400, 'Duplicated domain found');
  return result.data;
}
