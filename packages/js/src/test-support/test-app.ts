/** A `ClientApp` on the fake service, with a recorded `navigate`, for the unit tests of `ClientApp`. */
import { vi } from 'vitest';
import { ClientApp, type ClientAppOptions } from '../client-app.js';
import { type FakeService, testProjectId, testPublishableKey } from './fake-service.js';

export function createTestApp(service: FakeService, options: Partial<ClientAppOptions> = {}) {
  const navigate = vi.fn<(url: string) => void>();
  const app = new ClientApp({
    projectId: testProjectId,
    publishableClientKey: testPublishableKey,
    baseUrl: 'https://auth.example.com',
    tokenStore: 'memory',
    fetch: service.fetch,
    navigate,
    ...options,
  });
  return { app, navigate };
}
