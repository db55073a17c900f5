/**
 * A project's configuration: stored as the admin config of wire-protocol §15.6
 * (without the derived `id` and `enabled_oauth_providers`), parsed with its
 * schema on every read (defaults fill keys a stored config lacks), and the
 * zod schema of a config patch. Secret fields (OAuth client secrets, the SMTP
 * password) are stored sealed (`config-secrets.ts`).
 */
import type { AdminProjectConfigWire } from '@latchkey/protocol';
import { z } from 'zod';

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
  team_creator_default_permissions: [],
  team_member_default_permissions: [],
};

export const oauthProviderIds = [
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

export const oauthProvider = z
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

export const emailConfig = z.discriminatedUnion('type', [
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

export const permissionList = z.array(z.strictObject({ id: z.string().min(1).max(256) })).max(100);

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
});

/** A config patch: every key optional; lists replace the stored list. */
export const projectConfigPatchSchema = projectConfigSchema.partial();

/**
 * A change to a project's configuration: any subset of `ProjectConfig`; lists
 * (`domains`, `oauth_providers`, permissions) replace the stored list.
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
  const object = stored && typeof stored === 'object' && !Array.isArray(stored) ? stored : {};
  const parsed = projectConfigSchema.safeParse({ ...defaultProjectConfig, ...object });
  if (!parsed.success) throw new Error(`the stored config of project ${projectId} is invalid: ${parsed.error.message}`);
  return parsed.data;
}
