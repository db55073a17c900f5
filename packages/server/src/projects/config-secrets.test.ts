/** Secrets in a project's config are sealed at rest and opened only for the admin view. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSealer } from '../crypto/encryption.js';
import { updateProjectConfig } from '../operations.js';
import { dbOf } from '../storage/open-storage.js';
import { authHeaders, call } from '../test-support/api.js';
import { startTestService, type TestService } from '../testing/index.js';
import { configSealerPurpose, openConfigSecrets, sealConfigSecrets } from './config-secrets.js';
import { defaultProjectConfig, type ProjectConfig, parseStoredConfig } from './project-config.js';

const clientSecret = 'gh-client-secret-7f3a9c';
const smtpPassword = 'smtp-password-d81e22';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
  await service.setProjectConfig({
    oauth_providers: [
      { id: 'github', enabled: true, type: 'standard', client_id: 'gh-id', client_secret: clientSecret },
    ],
    email_config: {
      type: 'standard',
      host: 'smtp.example.com',
      port: 587,
      username: 'mailer',
      password: smtpPassword,
      sender_name: 'Example',
      sender_email: 'noreply@example.com',
    },
  });
});
afterAll(() => service?.close());

async function storedConfigText(projectId = service.projectId): Promise<string> {
  const row = await dbOf(service.storage)
    .selectFrom('projects')
    .select('config')
    .where('id', '=', projectId)
    .executeTakeFirstOrThrow();
  return JSON.stringify(row.config);
}

describe('config secrets', () => {
  it('stores neither the OAuth client secret nor the SMTP password in clear', async () => {
    const stored = await storedConfigText();
    expect(stored).toContain('gh-id');
    expect(stored).toContain('smtp.example.com');
    expect(stored).not.toContain(clientSecret);
    expect(stored).not.toContain(smtpPassword);
    expect(stored).toMatch(/"client_secret":"v1\./);
    expect(stored).toMatch(/"password":"v1\./);
  });

  it('gives them in clear to an admin read, which the protocol requires', async () => {
    const answer = await call(service, 'GET', '/projects/current', { headers: authHeaders(service, 'admin') });
    expect(answer.status).toBe(200);
    expect(answer.body.config.oauth_providers[0]).toEqual(
      expect.objectContaining({ id: 'github', client_id: 'gh-id', client_secret: clientSecret }),
    );
    expect(answer.body.config.email_config.password).toBe(smtpPassword);
    expect(answer.body.config.enabled_oauth_providers).toEqual([{ id: 'github' }]);
  });

  it('never shows them to client or server access', async () => {
    for (const access of ['client', 'server'] as const) {
      const answer = await call(service, 'GET', '/projects/current', { headers: authHeaders(service, access) });
      expect(answer.status).toBe(200);
      expect(answer.text).not.toContain(clientSecret);
      expect(answer.text).not.toContain(smtpPassword);
      expect(answer.text).not.toContain('v1.');
      expect(answer.body.config.enabled_oauth_providers).toEqual([{ id: 'github' }]);
    }
  });

  it('refuses to store a secret without the service secret to seal it', async () => {
    await expect(
      updateProjectConfig(service.storage, service.projectId, {
        oauth_providers: [{ id: 'google', enabled: true, type: 'standard', client_id: 'g', client_secret: 's' }],
      }),
    ).rejects.toThrow(/needs the service secret/);
    expect(await storedConfigText()).toContain('github');
  });

  it('binds a sealed value to its project and field: copied elsewhere, it does not open', () => {
    const sealer = createSealer('a'.repeat(40), configSealerPurpose);
    const config: ProjectConfig = {
      ...defaultProjectConfig,
      oauth_providers: [{ id: 'github', enabled: true, type: 'standard', client_id: 'id', client_secret: 'secret' }],
    };
    const sealed = sealConfigSecrets(config, 'project-a', sealer);
    expect(openConfigSecrets(sealed, 'project-a', sealer).oauth_providers[0]!.client_secret).toBe('secret');
    expect(() => openConfigSecrets(sealed, 'project-b', sealer)).toThrow(/cannot open a secret/);
    const otherKey = createSealer('b'.repeat(40), configSealerPurpose);
    expect(() => openConfigSecrets(sealed, 'project-a', otherKey)).toThrow(/master secret differs/);
  });
});

describe('parseStoredConfig', () => {
  it('fills keys added since the config was stored, with their defaults', () => {
    expect(parseStoredConfig('p', { sign_up_enabled: false })).toEqual({
      ...defaultProjectConfig,
      sign_up_enabled: false,
    });
    expect(parseStoredConfig('p', null)).toEqual(defaultProjectConfig);
  });

  it('refuses a stored config that does not match its schema, naming the project', () => {
    expect(() => parseStoredConfig('p1', { allow_localhost: 'yes' })).toThrow(/stored config of project p1 is invalid/);
    expect(() => parseStoredConfig('p1', { unknown_key: true })).toThrow(/p1/);
  });
});
