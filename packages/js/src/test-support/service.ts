/**
 * The real Latchkey service for SDK tests (`@latchkey/server/testing`): one
 * per test file, called in-process through its fetch handler. A missing
 * service fails the file, it never skips it. Fakes only inject failures: a
 * test app answers the next matching request with a network error, a 429, a
 * 508 or a malformed body instead of asking the service.
 */
import { startTestService, type TestService, type TestServiceOptions } from '@latchkey/server/testing';
import { afterAll, beforeAll, vi } from 'vitest';
import { ClientApp, type ClientAppOptions } from '../client-app.js';
import type { FetchFunction } from '../options.js';
import { type RecordedRequest, recordRequest } from './recorded-request.js';

export type { TestService } from '@latchkey/server/testing';

/** Starts one service for the file before its tests and closes it after; returns its getter. */
export function useTestService(options: TestServiceOptions = {}): () => TestService {
  let service: TestService | undefined;
  beforeAll(async () => {
    service = await startTestService(options);
  }, 120_000);
  afterAll(async () => {
    await service?.close();
  });
  return () => {
    if (!service) throw new Error('The test service has not started.');
    return service;
  };
}

/** An answer put in place of the service's, or a thrown network failure. */
export type Failure = () => Response | Promise<Response>;

/**
 * A `fetch` into `service` (in-process) that records every request and
 * answers the next request of a `METHOD /path` with an injected failure
 * instead, when one was queued with `failNext`.
 */
export function recordingFetch(service: TestService) {
  const requests: RecordedRequest[] = [];
  const failures: Array<{ call: string; failure: Failure }> = [];
  const callOf = (request: RecordedRequest) => `${request.method} ${request.path.replace('/api/v1', '')}`;
  const fetch: FetchFunction = async (input, init) => {
    const request = recordRequest(input, init);
    requests.push(request);
    const index = failures.findIndex((f) => f.call === callOf(request));
    const injected = index < 0 ? undefined : failures.splice(index, 1)[0];
    if (injected) return injected.failure();
    return service.fetch(new Request(input, init));
  };
  return {
    fetch,
    requests,
    /** `METHOD /path` (below `/api/v1`) of every request so far. */
    calls: () => requests.map(callOf),
    /** Answers the next `METHOD /path` request with `failure` instead of the service (once). */
    failNext(call: string, failure: Failure) {
      failures.push({ call, failure });
    },
  };
}

/** A `ClientApp` on `service`, with a recorded `navigate`, a record of its requests and failure injection. */
export function createTestApp(service: TestService, options: Partial<ClientAppOptions> = {}) {
  const navigate = vi.fn<(url: string) => void>();
  const recording = recordingFetch(service);
  const app = new ClientApp({
    projectId: service.projectId,
    publishableClientKey: service.keys.publishableClientKey,
    baseUrl: service.url,
    tokenStore: 'memory',
    fetch: recording.fetch,
    clock: service.clock,
    navigate,
    ...options,
  });
  return { app, navigate, ...recording };
}

export type TestApp = ReturnType<typeof createTestApp>;

let counter = 0;

/** Fresh credentials, so tests sharing one service never meet each other's users. */
export function newCredentials(password = 'correct-horse-1') {
  counter++;
  return { email: `user${counter}-${Math.random().toString(36).slice(2, 8)}@example.com`, password };
}
