/** The project entity (client view of spec §3), decoded from wire-protocol.md §15.6. */
import type { ClientProjectConfigWire, ClientProjectWire } from '@latchkey/protocol';
import { type Fields, optionalString, readFields } from '../internal/decode/fields.js';

/**
 * An OAuth provider the project enabled; `displayName` names a generic
 * OpenID Connect provider (an extension: the preset providers have none).
 *
 * @example
 * ```ts
 * const label = provider.displayName ?? provider.id;
 * ```
 */
export interface EnabledOAuthProvider {
  id: string;
  displayName?: string;
}

/**
 * A project as a client sees it: what sign-in methods and actions it allows.
 *
 * @example
 * ```ts
 * const project = await app.getProject();
 * if (project.config.signUpEnabled) showSignUpLink();
 * ```
 */
export interface Project {
  id: string;
  displayName: string;
  config: {
    signUpEnabled: boolean;
    credentialEnabled: boolean;
    magicLinkEnabled: boolean;
    passkeyEnabled: boolean;
    clientTeamCreationEnabled: boolean;
    clientUserDeletionEnabled: boolean;
    oauthProviders: EnabledOAuthProvider[];
  };
}

/** Decodes a client project answer (`GET /projects/current`). */
export function decodeClientProject(body: unknown): Project {
  return readFields<ClientProjectWire, Project>(body, (project) => ({
    id: project.string('id'),
    displayName: project.string('display_name'),
    config: project.object('config', readClientConfig),
  }));
}

/** Reads the client config; the admin config adds its own keys to this. */
export function readClientConfig(config: Fields<ClientProjectConfigWire>): Project['config'] {
  return {
    signUpEnabled: config.boolean('sign_up_enabled'),
    credentialEnabled: config.boolean('credential_enabled'),
    magicLinkEnabled: config.boolean('magic_link_enabled'),
    passkeyEnabled: config.boolean('passkey_enabled'),
    clientTeamCreationEnabled: config.boolean('client_team_creation_enabled'),
    clientUserDeletionEnabled: config.boolean('client_user_deletion_enabled'),
    oauthProviders: config.list('enabled_oauth_providers', (provider) => {
      const displayName = optionalString(provider, 'display_name');
      return displayName === undefined ? { id: provider.string('id') } : { id: provider.string('id'), displayName };
    }),
  };
}
