import type { ClientUserWire } from '@latchkey/protocol';
import { describe, expect, it } from 'vitest';
import { mapClientProject } from '../projects/project-mapper.js';
import { mapClientUser } from './user-mapper.js';

const wire: ClientUserWire = {
  id: 'u1',
  primary_email: 'alice@example.com',
  primary_email_verified: true,
  display_name: 'Alice',
  selected_team: { id: 't1', display_name: 'Team', profile_image_url: null, client_metadata: { a: 1 } },
  selected_team_id: 't1',
  profile_image_url: 'https://img.example/a.png',
  signed_up_at_millis: 1_700_000_000_000,
  has_password: true,
  otp_auth_enabled: false,
  passkey_auth_enabled: true,
  client_metadata: { theme: 'dark' },
  client_read_only_metadata: { plan: 'pro' },
  oauth_providers: [{ id: 'github', account_id: '42', email: null }],
  auth_with_email: true,
  requires_totp_mfa: false,
};

describe('mapClientUser', () => {
  it('maps every client field of spec §3 to camelCase', () => {
    expect(mapClientUser(wire)).toEqual({
      id: 'u1',
      displayName: 'Alice',
      primaryEmail: 'alice@example.com',
      primaryEmailVerified: true,
      profileImageUrl: 'https://img.example/a.png',
      signedUpAt: new Date(1_700_000_000_000),
      clientMetadata: { theme: 'dark' },
      clientReadOnlyMetadata: { plan: 'pro' },
      hasPassword: true,
      emailAuthEnabled: true,
      otpAuthEnabled: false,
      oauthProviders: [{ id: 'github', accountId: '42', email: null }],
      passkeyAuthEnabled: true,
      isMultiFactorRequired: false,
      selectedTeam: {
        id: 't1',
        displayName: 'Team',
        profileImageUrl: null,
        clientMetadata: { a: 1 },
        clientReadOnlyMetadata: null,
      },
    });
  });
});

describe('mapClientProject', () => {
  it('maps the client project config', () => {
    const project = mapClientProject({
      id: 'p',
      display_name: 'P',
      config: {
        sign_up_enabled: true,
        credential_enabled: true,
        magic_link_enabled: false,
        passkey_enabled: false,
        client_team_creation_enabled: true,
        client_user_deletion_enabled: false,
        enabled_oauth_providers: [{ id: 'google' }],
      },
    });
    expect(project).toEqual({
      id: 'p',
      displayName: 'P',
      config: {
        signUpEnabled: true,
        credentialEnabled: true,
        magicLinkEnabled: false,
        passkeyEnabled: false,
        clientTeamCreationEnabled: true,
        clientUserDeletionEnabled: false,
        oauthProviders: [{ id: 'google' }],
      },
    });
  });
});
