/**
 * The project's wire views (wire-protocol §15.6): the client view (which
 * sign-in methods are on) for client and server access, the admin view (the
 * whole config, secrets opened) for admin access.
 */
import type { AdminProjectWire, ClientProjectConfigWire, ClientProjectWire } from '@latchkey/protocol';
import { z } from 'zod';
import { millis } from '../common/schemas.js';
import { defineViews, type RenderContext } from '../http/route.js';
import { countUsers } from '../users/user-store.js';
import { openConfigSecrets } from './config-secrets.js';
import { type ProjectConfig, projectConfigSchema } from './project-config.js';
import type { ProjectRecord } from './projects.js';

const enabledProviders = z.array(z.object({ id: z.string(), display_name: z.string().optional() }).strict());

/** The client view's schema. */
const clientProjectSchema = z
  .object({
    id: z.string(),
    display_name: z.string(),
    config: z
      .object({
        sign_up_enabled: z.boolean(),
        credential_enabled: z.boolean(),
        magic_link_enabled: z.boolean(),
        passkey_enabled: z.boolean(),
        client_team_creation_enabled: z.boolean(),
        client_user_deletion_enabled: z.boolean(),
        enabled_oauth_providers: enabledProviders,
      })
      .strict(),
  })
  .strict()
  .meta({ id: 'ClientProject', description: 'A project as clients and server code see it.' });

/** The admin view's schema. */
export const adminProjectSchema = z
  .object({
    id: z.string(),
    display_name: z.string(),
    description: z.string(),
    created_at_millis: millis,
    user_count: z.number().int().nonnegative(),
    is_production_mode: z.boolean(),
    config: projectConfigSchema.extend({ id: z.string(), enabled_oauth_providers: enabledProviders }),
  })
  .strict()
  .meta({ id: 'AdminProject', description: 'A project as its administrators see it, secrets included.' });

/** The providers ordered by id (code-unit order), as Stack answers them whatever order they were stored in. */
function providersById<T extends { id: string }>(providers: readonly T[]): T[] {
  return [...providers].sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** The enabled providers by id; a generic OpenID Connect provider carries its `display_name` for the button. */
function enabledOAuthProviders(config: ProjectConfig): { id: string; display_name?: string }[] {
  return providersById(config.oauth_providers)
    .filter((p) => p.enabled)
    .map((p) => (p.display_name ? { id: p.id, display_name: p.display_name } : { id: p.id }));
}

/** The config as a client sees it. */
function clientConfigView(config: ProjectConfig): ClientProjectConfigWire {
  return {
    sign_up_enabled: config.sign_up_enabled,
    credential_enabled: config.credential_enabled,
    magic_link_enabled: config.magic_link_enabled,
    passkey_enabled: config.passkey_enabled,
    client_team_creation_enabled: config.client_team_creation_enabled,
    client_user_deletion_enabled: config.client_user_deletion_enabled,
    enabled_oauth_providers: enabledOAuthProviders(config),
  };
}

/** The project as clients and server code see it. */
function clientProjectView(project: ProjectRecord): ClientProjectWire {
  return { id: project.id, display_name: project.displayName, config: clientConfigView(project.config) };
}

/** The project as its administrators see it: every config key, secrets opened, and the user count. */
export async function adminProjectView(project: ProjectRecord, { deps }: RenderContext): Promise<AdminProjectWire> {
  const config = openConfigSecrets(project.config, project.id, deps.configSealer);
  return {
    id: project.id,
    display_name: project.displayName,
    description: project.description,
    created_at_millis: project.createdAt.getTime(),
    user_count: await countUsers(deps.db, project.id),
    is_production_mode: project.isProductionMode,
    config: {
      id: project.id,
      ...config,
      oauth_providers: providersById(config.oauth_providers),
      enabled_oauth_providers: enabledOAuthProviders(config),
    },
  };
}

/** A project answered in the caller's view. */
export const projectViews = defineViews<ProjectRecord>({
  client: { schema: clientProjectSchema, render: clientProjectView },
  admin: { schema: adminProjectSchema, render: adminProjectView },
});
