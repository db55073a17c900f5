/**
 * What every compat suite starts from: a real Latchkey service (one per test
 * file) and the fetch guard that records the official SDK's requests. The
 * hooks reset the guard and the service clock before each test, so service
 * time is the SDK's time again after a test moved it.
 */
import { startTestService, type TestService } from '@latchkey/server/testing';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type FetchGuard, guardFetch } from './fetch-guard.js';

/** A password the service accepts. */
export const password = 'correct horse battery staple';

/** Sign-up needs it in Node: without it the SDK builds one from `window.location` and throws. */
export const verificationCallbackUrl = 'http://localhost:3000/handler/email-verification';

/** The suite's service and fetch guard, set up by hooks this registers. */
export interface CompatEnvironment {
  readonly svc: TestService;
  readonly net: FetchGuard;
}

/**
 * Registers the suite's hooks and returns its environment (read it inside tests and hooks).
 *
 * @example
 * const env = useCompatEnvironment();
 * it('signs up', async () => { const app = clientApp(env.svc); ... expect(env.net.requests).toHaveLength(1); });
 */
export function useCompatEnvironment(): CompatEnvironment {
  let svc: TestService | undefined;
  let net: FetchGuard | undefined;
  beforeAll(async () => {
    net = guardFetch();
    svc = await startTestService();
  });
  afterAll(async () => {
    await svc?.close();
    net?.restore();
  });
  beforeEach(() => {
    net!.reset();
    svc!.clock.set(Date.now());
  });
  return {
    get svc() {
      return svc!;
    },
    get net() {
      return net!;
    },
  };
}
