/**
 * Secrets inside a project's config — each standard OAuth provider's
 * `client_secret` and the standard e-mail config's `password` — are sealed
 * with the service's master secret before they are stored, and opened only
 * for the admin view, which the protocol requires to carry them. The
 * associated data binds each sealed value to its project and field, so a
 * value copied elsewhere does not open.
 */
import type { Sealer } from '../crypto/encryption.js';
import type { ProjectConfig, ProjectConfigPatch } from './project-config.js';

function oauthField(projectId: string, providerId: string): string {
  return `project-config:${projectId}:oauth:${providerId}:client_secret`;
}

function emailField(projectId: string): string {
  return `project-config:${projectId}:email:password`;
}

type Transform = (value: string, associatedData: string) => string;

function mapSecrets<C extends ProjectConfigPatch>(config: C, projectId: string, transform: Transform): C {
  const result = { ...config };
  if (config.oauth_providers) {
    result.oauth_providers = config.oauth_providers.map((provider) =>
      provider.client_secret === undefined
        ? provider
        : { ...provider, client_secret: transform(provider.client_secret, oauthField(projectId, provider.id)) },
    );
  }
  if (config.email_config?.type === 'standard' && config.email_config.password !== undefined) {
    const email = config.email_config;
    result.email_config = { ...email, password: transform(email.password!, emailField(projectId)) };
  }
  return result;
}

/** The config (or patch) with its secrets sealed, ready to store. */
export function sealConfigSecrets<C extends ProjectConfigPatch>(config: C, projectId: string, sealer: Sealer): C {
  return mapSecrets(config, projectId, (value, data) => sealer.seal(value, data));
}

/** The stored config with its secrets in clear (the admin view only). */
export function openConfigSecrets(config: ProjectConfig, projectId: string, sealer: Sealer): ProjectConfig {
  return mapSecrets(config, projectId, (value, data) => {
    try {
      return sealer.open(value, data);
    } catch {
      throw new Error(
        `cannot open a secret in the config of project ${projectId}: the master secret differs from the one it was stored with`,
      );
    }
  });
}

/** One standard provider's client secret in clear, to call the provider with. */
export function openProviderSecret(sealed: string, projectId: string, providerId: string, sealer: Sealer): string {
  return sealer.open(sealed, oauthField(projectId, providerId));
}

/** True when the patch carries a secret to seal. */
export function hasConfigSecrets(config: ProjectConfigPatch): boolean {
  return (
    (config.oauth_providers ?? []).some((provider) => provider.client_secret !== undefined) ||
    (config.email_config?.type === 'standard' && config.email_config.password !== undefined)
  );
}

/** Purpose of the config sealer's derived key. */
export const configSealerPurpose = 'project-config';
