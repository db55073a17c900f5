/**
 * A project's configuration: stored as the admin config of wire-protocol §15.6
 * (without the derived `id` and `enabled_oauth_providers`), with defaults for
 * keys a stored config lacks, and the zod schema of a config patch.
 */
import type { AdminProjectConfigWire, ClientProjectConfigWire } from '@latchkey/protocol';
import { z } from 'zod';

/** The stored configuration. */
export type ProjectConfig = Omit<AdminProjectConfigWire, 'id' | 'enabled_oauth_providers'>;

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
  team_creator_default_permissions: [],
  team_member_default_permissions: [],
};

const oauthProviderIds = [
  'google',
  'github',
  'microsoft',
  'spotify',
  'facebook',
  'discord',
  'gitlab',
  'bitbucket',
  'linkedin',
  'apple',
  'x',
] as const;

const oauthProvider = z
  .strictObject({
    id: z.enum(oauthProviderIds),
    enabled: z.boolean(),
    type: z.enum(['shared', 'standard']),
    client_id: z.string().min(1).optional(),
    client_secret: z.string().min(1).optional(),
    facebook_config_id: z.string().optional(),
    microsoft_tenant_id: z.string().optional(),
  })
  .refine((p) => p.type === 'shared' || (p.client_id && p.client_secret), {
    message: 'a standard OAuth provider needs client_id and client_secret',
  });

const emailConfig = z.discriminatedUnion('type', [
  z.strictObject({ type: z.literal('shared') }),
  z.strictObject({
    type: z.literal('standard'),
    host: z.string().min(1),
    port: z.number().int().min(1).max(65_535),
    username: z.string(),
    password: z.string(),
    sender_name: z.string(),
    sender_email: z.email(),
  }),
]);

const permissionList = z.array(z.strictObject({ id: z.string().min(1).max(256) })).max(100);

/** A config patch: every key optional; lists replace the stored list. */
export const projectConfigPatchSchema = z
  .strictObject({
    allow_localhost: z.boolean(),
    sign_up_enabled: z.boolean(),
    credential_enabled: z.boolean(),
    magic_link_enabled: z.boolean(),
    passkey_enabled: z.boolean(),
    client_team_creation_enabled: z.boolean(),
    client_user_deletion_enabled: z.boolean(),
    create_team_on_sign_up: z.boolean(),
    legacy_global_jwt_signing: z.boolean(),
    oauth_providers: z.array(oauthProvider).max(oauthProviderIds.length),
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
  })
  .partial();

/**
 * A change to a project's configuration: any subset of `ProjectConfig`; lists
 * (`domains`, `oauth_providers`, permissions) replace the stored list.
 *
 * @example
 * const patch: ProjectConfigPatch = { allow_localhost: false, domains: [{ domain: 'https://app.example.com', handler_path: '/handler' }] };
 */
export type ProjectConfigPatch = z.infer<typeof projectConfigPatchSchema>;

/** The stored config completed with defaults for keys added since it was written. */
export function completeConfig(stored: unknown): ProjectConfig {
  const object = stored && typeof stored === 'object' && !Array.isArray(stored) ? stored : {};
  return { ...defaultProjectConfig, ...(object as Partial<ProjectConfig>) };
}

/** `{id}` of each enabled OAuth provider. */
function enabledProviders(config: ProjectConfig): { id: string }[] {
  return config.oauth_providers.filter((p) => p.enabled).map((p) => ({ id: p.id }));
}

/** The config as a client sees it. */
export function clientConfigView(config: ProjectConfig): ClientProjectConfigWire {
  return {
    sign_up_enabled: config.sign_up_enabled,
    credential_enabled: config.credential_enabled,
    magic_link_enabled: config.magic_link_enabled,
    passkey_enabled: config.passkey_enabled,
    client_team_creation_enabled: config.client_team_creation_enabled,
    client_user_deletion_enabled: config.client_user_deletion_enabled,
    enabled_oauth_providers: enabledProviders(config),
  };
}

/** The config as an administrator sees it. */
export function adminConfigView(projectId: string, config: ProjectConfig): AdminProjectConfigWire {
  return { id: projectId, ...config, enabled_oauth_providers: enabledProviders(config) };
}
