/** The user entity (spec §3), mapped from its wire shape (wire-protocol.md §15.1). */
import type { ClientUserWire, Json } from '@latchkey/protocol';
import { mapClientTeam, type Team } from '../teams/team-mapper.js';

/**
 * An OAuth account connected to the user.
 *
 * @example
 * ```ts
 * const hasGitHub = user.oauthProviders.some((p: OAuthProviderLink) => p.id === 'github');
 * ```
 */
export interface OAuthProviderLink {
  /** Provider id, e.g. `github`. */
  id: string;
  accountId: string;
  email: string | null;
}

/**
 * The user's data as a client sees it (client view of spec §3).
 *
 * @example
 * ```ts
 * const user = await app.getUser({ or: 'throw' });
 * console.log(user.displayName ?? user.primaryEmail, user.signedUpAt.toISOString());
 * ```
 */
export interface UserData {
  id: string;
  displayName: string | null;
  primaryEmail: string | null;
  primaryEmailVerified: boolean;
  profileImageUrl: string | null;
  signedUpAt: Date;
  clientMetadata: Json;
  clientReadOnlyMetadata: Json;
  hasPassword: boolean;
  emailAuthEnabled: boolean;
  otpAuthEnabled: boolean;
  oauthProviders: OAuthProviderLink[];
  passkeyAuthEnabled: boolean;
  isMultiFactorRequired: boolean;
  selectedTeam: Team | null;
}

export function mapClientUser(wire: ClientUserWire): UserData {
  return {
    id: wire.id,
    displayName: wire.display_name,
    primaryEmail: wire.primary_email,
    primaryEmailVerified: wire.primary_email_verified,
    profileImageUrl: wire.profile_image_url,
    signedUpAt: new Date(wire.signed_up_at_millis),
    clientMetadata: wire.client_metadata ?? null,
    clientReadOnlyMetadata: wire.client_read_only_metadata ?? null,
    hasPassword: wire.has_password,
    emailAuthEnabled: wire.auth_with_email,
    otpAuthEnabled: wire.otp_auth_enabled,
    oauthProviders: (wire.oauth_providers ?? []).map((p) => ({ id: p.id, accountId: p.account_id, email: p.email })),
    passkeyAuthEnabled: wire.passkey_auth_enabled,
    isMultiFactorRequired: wire.requires_totp_mfa,
    selectedTeam: wire.selected_team ? mapClientTeam(wire.selected_team) : null,
  };
}
