/** The project entity (client view of spec §3), mapped from wire-protocol.md §15.6. */
import type { ClientProjectWire } from '@latchkey/protocol';

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
    oauthProviders: { id: string }[];
  };
}

export function mapClientProject(wire: ClientProjectWire): Project {
  const config = wire.config;
  return {
    id: wire.id,
    displayName: wire.display_name,
    config: {
      signUpEnabled: config.sign_up_enabled,
      credentialEnabled: config.credential_enabled,
      magicLinkEnabled: config.magic_link_enabled,
      passkeyEnabled: config.passkey_enabled,
      clientTeamCreationEnabled: config.client_team_creation_enabled,
      clientUserDeletionEnabled: config.client_user_deletion_enabled,
      oauthProviders: (config.enabled_oauth_providers ?? []).map((p) => ({ id: p.id })),
    },
  };
}
