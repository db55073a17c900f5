import { describe, expect, it } from 'vitest';
import { projectUpdateBody } from './admin-projects-api.js';

describe('projectUpdateBody', () => {
  it('writes every key in its wire name (§15.6) and leaves out what is undefined', () => {
    expect(
      projectUpdateBody({
        displayName: 'Shop',
        description: null,
        isProductionMode: true,
        config: {
          signUpEnabled: false,
          credentialEnabled: true,
          magicLinkEnabled: true,
          passkeyEnabled: false,
          clientTeamCreationEnabled: true,
          clientUserDeletionEnabled: false,
          allowLocalhost: false,
          createTeamOnSignUp: true,
          legacyGlobalJwtSigning: false,
          oauthProviders: [
            { id: 'github', enabled: true, type: 'standard', clientId: 'id', clientSecret: 'secret' },
            { id: 'microsoft', enabled: true, type: 'standard', clientId: 'm', microsoftTenantId: 't' },
            { id: 'google', enabled: false, type: 'shared' },
            {
              id: 'corp',
              enabled: true,
              type: 'standard',
              clientId: 'c',
              issuer: 'https://sso.example.com',
              displayName: 'Corp SSO',
            },
          ],
          domains: [{ domain: 'https://shop.example.com', handlerPath: '/handler' }],
          emailConfig: {
            type: 'standard',
            host: 'smtp.example.com',
            port: 465,
            username: 'u',
            password: 'p',
            senderName: 'Shop',
            senderEmail: 'shop@example.com',
          },
          teamCreatorDefaultPermissions: [{ id: 'admin' }],
          teamMemberDefaultPermissions: [],
        },
      }),
    ).toEqual({
      display_name: 'Shop',
      description: null,
      is_production_mode: true,
      config: {
        sign_up_enabled: false,
        credential_enabled: true,
        magic_link_enabled: true,
        passkey_enabled: false,
        client_team_creation_enabled: true,
        client_user_deletion_enabled: false,
        allow_localhost: false,
        create_team_on_sign_up: true,
        legacy_global_jwt_signing: false,
        oauth_providers: [
          { id: 'github', enabled: true, type: 'standard', client_id: 'id', client_secret: 'secret' },
          { id: 'microsoft', enabled: true, type: 'standard', client_id: 'm', microsoft_tenant_id: 't' },
          { id: 'google', enabled: false, type: 'shared' },
          {
            id: 'corp',
            enabled: true,
            type: 'standard',
            client_id: 'c',
            issuer: 'https://sso.example.com',
            display_name: 'Corp SSO',
          },
        ],
        domains: [{ domain: 'https://shop.example.com', handler_path: '/handler' }],
        email_config: {
          type: 'standard',
          host: 'smtp.example.com',
          port: 465,
          username: 'u',
          password: 'p',
          sender_name: 'Shop',
          sender_email: 'shop@example.com',
        },
        team_creator_default_permissions: [{ id: 'admin' }],
        team_member_default_permissions: [],
      },
    });
  });

  it('sends only what changes: no config key the caller left out', () => {
    expect(projectUpdateBody({ config: { allowLocalhost: false } })).toEqual({ config: { allow_localhost: false } });
    expect(projectUpdateBody({ config: { emailConfig: { type: 'shared' } } })).toEqual({
      config: { email_config: { type: 'shared' } },
    });
    expect(projectUpdateBody({})).toEqual({});
    expect(projectUpdateBody({ config: { rateLimits: { mailsPerAddress: 3 } } })).toEqual({
      config: { rate_limits: { mails_per_address: 3 } },
    });
  });

  it('leaves out an SMTP password not given, so that the stored one is kept', () => {
    const smtp = {
      host: 'smtp.example.com',
      port: 587,
      username: 'u',
      senderName: 'Shop',
      senderEmail: 's@example.com',
    };
    expect(projectUpdateBody({ config: { emailConfig: { type: 'standard', ...smtp } } })).toEqual({
      config: {
        email_config: {
          type: 'standard',
          host: 'smtp.example.com',
          port: 587,
          username: 'u',
          sender_name: 'Shop',
          sender_email: 's@example.com',
        },
      },
    });
  });
});
