/** `GET /projects/current`: the client view for client and server access, the admin view for admin access. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders, call, signUp } from '../test-support/api.js';
import { startTestService, type TestService } from '../testing/index.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service?.close());

describe('GET /projects/current', () => {
  it.each(['client', 'server'] as const)('gives %s access the client view', async (accessType) => {
    const answer = await call(service, 'GET', '/projects/current', { headers: authHeaders(service, accessType) });
    expect(answer.status).toBe(200);
    expect(answer.body).toEqual({
      id: service.projectId,
      display_name: 'Test project',
      config: {
        sign_up_enabled: true,
        credential_enabled: true,
        magic_link_enabled: false,
        passkey_enabled: false,
        client_team_creation_enabled: false,
        client_user_deletion_enabled: false,
        enabled_oauth_providers: [],
      },
    });
  });

  it('gives admin access the admin view, with the user count and the full config', async () => {
    await signUp(service);
    await signUp(service);
    await service.setProjectConfig({
      oauth_providers: [
        { id: 'github', enabled: true, type: 'shared' },
        { id: 'google', enabled: false, type: 'shared' },
      ],
    });
    const answer = await call(service, 'GET', '/projects/current', { headers: authHeaders(service, 'admin') });
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      id: service.projectId,
      display_name: 'Test project',
      description: null,
      user_count: 2,
      is_production_mode: false,
    });
    expect(typeof answer.body.created_at_millis).toBe('number');
    expect(answer.body.config).toMatchObject({
      id: service.projectId,
      allow_localhost: true,
      create_team_on_sign_up: false,
      domains: [],
      email_config: { type: 'shared' },
      team_creator_default_permissions: [],
      team_member_default_permissions: [],
      enabled_oauth_providers: [{ id: 'github' }],
    });
    const client = await call(service, 'GET', '/projects/current', { headers: authHeaders(service) });
    expect(client.body.config.enabled_oauth_providers).toEqual([{ id: 'github' }]);
  });

  it('shows config changes at once', async () => {
    await service.setProjectConfig({ sign_up_enabled: false });
    const answer = await call(service, 'GET', '/projects/current', { headers: authHeaders(service) });
    await service.setProjectConfig({ sign_up_enabled: true });
    expect(answer.body.config.sign_up_enabled).toBe(false);
  });
});
