/** The test harness others build on: its API, clock and clean-up. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders, call, countRows, signUp } from '../test-support/api.js';
import { createTestClock } from './clock.js';
import { startTestService, type TestService } from './index.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ projectConfig: { client_user_deletion_enabled: true } });
});
afterAll(() => service?.close());

describe('startTestService', () => {
  it('serves a project with a full key set at url and apiUrl', async () => {
    expect(service.apiUrl).toBe(`${service.url}/api/v1`);
    expect(service.keys.publishableClientKey).toMatch(/^pck_/);
    expect(service.keys.secretServerKey).toMatch(/^ssk_/);
    expect(service.keys.superSecretAdminKey).toMatch(/^sak_/);
    const answer = await call(service, 'GET', '/projects/current', { headers: authHeaders(service, 'admin') });
    expect(answer.body.config.client_user_deletion_enabled).toBe(true);
  });

  it('offers an in-process fetch taking a Request, a URL or a path', async () => {
    const headers = authHeaders(service);
    for (const input of [
      new Request(`${service.apiUrl}/projects/current`, { headers }),
      new URL(`${service.apiUrl}/projects/current`),
      '/api/v1/projects/current',
    ]) {
      const response = await service.fetch(input, input instanceof Request ? undefined : { headers });
      expect(response.status).toBe(200);
    }
  });

  it('has a clock that ticks, advances and can be set', async () => {
    const start = service.clock.now();
    service.clock.advance(10_000);
    expect(service.clock.now() - start).toBeGreaterThanOrEqual(10_000);
    service.clock.set(start);
    expect(Math.abs(service.clock.now() - start)).toBeLessThan(1000);
  });

  it('has a clock that can be stopped, and moved while stopped', () => {
    const clock = createTestClock();
    clock.freeze();
    const stopped = clock.now();
    const real = Date.now();
    while (Date.now() === real); // a real millisecond passes; the stopped clock does not move
    expect(clock.now()).toBe(stopped);
    clock.advance(1_000);
    expect(clock.now()).toBe(stopped + 1_000);
    clock.set(42_000);
    expect(clock.now()).toBe(42_000);
    clock.startWindow(10_000);
    expect(clock.now()).toBe(60_000);
  });

  it('changes config and creates other projects', async () => {
    const config = await service.setProjectConfig({ sign_up_enabled: false });
    expect(config.sign_up_enabled).toBe(false);
    await service.setProjectConfig({ sign_up_enabled: true });
    const other = await service.createOtherProject({ allow_localhost: false });
    expect(other.projectId).not.toBe(service.projectId);
    const answer = await call(service, 'GET', '/projects/current', {
      headers: {
        ...authHeaders(service, 'admin'),
        'x-stack-project-id': other.projectId,
        'x-stack-super-secret-admin-key': other.keys.superSecretAdminKey,
      },
    });
    expect(answer.body).toMatchObject({ id: other.projectId, config: { allow_localhost: false } });
  });

  it('starts every service on an empty database', async () => {
    await signUp(service);
    const second = await startTestService({ databaseUrl: null });
    try {
      expect(await countRows(second, 'users')).toBe(0);
      expect(second.projectId).not.toBe(service.projectId);
    } finally {
      await second.close();
      await second.close();
    }
  });
});
