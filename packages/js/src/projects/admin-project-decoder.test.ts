import { describe, expect, it } from 'vitest';
import { recordedAnswers, withField, without } from '../test-support/answers.js';
import { decodeAdminProject, decodeAdminProjectList } from './admin-project-decoder.js';
import { decodeClientProject } from './project-decoder.js';

const { adminProject } = recordedAnswers;
const { config } = adminProject;
const withConfig = (key: string, value: unknown) => withField(adminProject, 'config', withField(config, key, value));

describe('decodeAdminProject', () => {
  it('maps every admin key of §15.6 to camelCase; the client config keys read as in the client view', () => {
    const decoded = decodeAdminProject(adminProject);
    const { oauthProviders: _enabledOnly, ...clientConfig } = decodeClientProject(adminProject).config;
    expect(decoded).toEqual({
      id: 'p1',
      displayName: 'Shop',
      description: 'The shop',
      createdAt: new Date(1_690_000_000_000),
      userCount: 42,
      isProductionMode: false,
      config: {
        ...clientConfig,
        oauthProviders: [
          { id: 'github', enabled: true, type: 'standard', clientId: 'gh-id', clientSecret: 'gh-secret' },
          { id: 'google', enabled: false, type: 'shared' },
        ],
        allowLocalhost: true,
        createTeamOnSignUp: false,
        legacyGlobalJwtSigning: false,
        domains: [{ domain: 'https://shop.example.com', handlerPath: '/handler' }],
        emailConfig: {
          type: 'standard',
          host: 'smtp.example.com',
          port: 587,
          username: 'mailer',
          password: 'smtp-secret',
          senderName: 'Shop',
          senderEmail: 'no-reply@shop.example.com',
        },
        teamCreatorDefaultPermissions: [{ id: 'admin' }],
        teamMemberDefaultPermissions: [{ id: 'member' }],
      },
    });
  });

  it('reads a generic OpenID Connect provider with its issuer and display name', () => {
    const corp = {
      id: 'corp',
      enabled: true,
      type: 'standard',
      client_id: 'c',
      issuer: 'https://sso.example.com',
      display_name: 'Corp SSO',
    };
    expect(decodeAdminProject(withConfig('oauth_providers', [corp])).config.oauthProviders).toEqual([
      {
        id: 'corp',
        enabled: true,
        type: 'standard',
        clientId: 'c',
        issuer: 'https://sso.example.com',
        displayName: 'Corp SSO',
      },
    ]);
  });

  it('reads the limits on guessing, and a service without them', () => {
    const limits = {
      sign_in_failures_per_account: 5,
      sign_in_failures_per_client: 50,
      sign_ups_per_client: 100,
      mails_per_address: 5,
      mails_per_client: 30,
      code_checks_per_client: 120,
    };
    expect(decodeAdminProject(withConfig('rate_limits', limits)).config.rateLimits).toEqual({
      signInFailuresPerAccount: 5,
      signInFailuresPerClient: 50,
      signUpsPerClient: 100,
      mailsPerAddress: 5,
      mailsPerClient: 30,
      codeChecksPerClient: 120,
    });
    expect(decodeAdminProject(adminProject).config.rateLimits).toBeUndefined();
    expect(() => decodeAdminProject(withConfig('rate_limits', { ...limits, mails_per_client: 'many' }))).toThrow(
      /rate_limits\.mails_per_client/,
    );
  });

  it('reads the shared e-mail config, and a service without legacy_global_jwt_signing', () => {
    const shared = decodeAdminProject(withConfig('email_config', { type: 'shared' }));
    expect(shared.config.emailConfig).toEqual({ type: 'shared' });
    expect(
      decodeAdminProject(withField(adminProject, 'config', without(config, 'legacy_global_jwt_signing'))).config
        .legacyGlobalJwtSigning,
    ).toBeUndefined();
  });

  it.each(Object.keys(adminProject))('refuses an answer without %s', (key) => {
    expect(() => decodeAdminProject(without(adminProject, key))).toThrow(`${key} is missing`);
  });

  it.each(Object.keys(config).filter((key) => key !== 'legacy_global_jwt_signing' && key !== 'id'))(
    'refuses a config without %s, naming config.%s',
    (key) => {
      expect(() => decodeAdminProject(withField(adminProject, 'config', without(config, key)))).toThrow(
        `config.${key} is missing`,
      );
    },
  );

  it.each([
    ['email_config', { type: 'smtp' }, 'config.email_config.type must be "shared" or "standard"'],
    ['email_config', { type: 'standard', host: 'h' }, 'config.email_config.port is missing'],
    ['oauth_providers', [{ id: 'x', enabled: true, type: 'own' }], 'config.oauth_providers[0].type must be'],
    ['oauth_providers', [{ id: 'x', enabled: true, type: 'standard', client_id: 1 }], 'client_id must be a string'],
    ['domains', [{ domain: 'https://a.example' }], 'config.domains[0].handler_path is missing'],
  ])('refuses config.%s = %j', (key, value, problem) => {
    expect(() => decodeAdminProject(withConfig(key, value))).toThrow(problem);
  });

  it('decodes the list of owned projects', () => {
    expect(decodeAdminProjectList({ items: [adminProject], is_paginated: false })).toEqual([
      decodeAdminProject(adminProject),
    ]);
    expect(() => decodeAdminProjectList({ items: [without(adminProject, 'user_count')] })).toThrow(
      'items[0].user_count is missing',
    );
  });
});
