/**
 * The client's address behind a trusted proxy: the entry the proxy appended
 * to `x-forwarded-for`, never one the client wrote (nginx, ALB, Traefik, Caddy
 * and Heroku append to what the client sent). Every per-address limit, and
 * the address recorded in the audit log and on sessions, rests on it. Tests
 * go through real appending proxies on loopback.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders, call, goodPassword, newEmail } from '../test-support/api.js';
import { startAppendingProxy } from '../test-support/appending-proxy.js';
import { auditEvents } from '../test-support/audit.js';
import { describeEachBackend } from '../test-support/backends.js';
import { startTestService, type TestService, type TestServiceOptions } from '../testing/index.js';

const statusOf = (answer: { status: number; headers: Headers }) =>
  Number(answer.headers.get('x-stack-actual-status') ?? answer.status);

/** A password sign-up through `target`, the client writing `forwardedFor` itself when given. */
async function signUpVia(target: TestService, forwardedFor?: string) {
  const answer = await call(target, 'POST', '/auth/password/sign-up', {
    headers: { ...authHeaders(target), ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}) },
    json: { email: newEmail('proxied'), password: goodPassword },
  });
  return { status: statusOf(answer), userId: answer.body.user_id as string | undefined };
}

/** The client address the audit log recorded for the user's sign-up. */
async function signUpAddress(service: TestService, userId: string) {
  const [event] = await auditEvents(service, { user_id: userId, type: 'sign_up' });
  return event?.ip_address;
}

describeEachBackend('behind one appending proxy', ({ databaseUrl }) => {
  let service: TestService;
  let proxy: Awaited<ReturnType<typeof startAppendingProxy>>;
  beforeAll(async () => {
    service = await startTestService({
      databaseUrl,
      trustedProxyHeader: 'x-forwarded-for',
      projectConfig: { rate_limits: { sign_ups_per_client: 3 } },
    });
    proxy = await startAppendingProxy(service);
  });
  afterAll(async () => {
    await proxy?.close();
    await service?.close();
  });

  it('a client writing its own x-forwarded-for entry is still limited, and recorded, by its real address', async () => {
    service.clock.startWindow(10 * 60_000);
    const statuses: number[] = [];
    const users: string[] = [];
    for (let i = 1; i <= 4; i++) {
      const { status, userId } = await signUpVia(proxy, `1.2.3.${i}`);
      statuses.push(status);
      if (userId) users.push(userId);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    expect(await signUpAddress(service, users[0]!)).toBe('127.0.0.1');
  });
});

describe('behind two appending proxies in a row', () => {
  let service: TestService;
  let inner: Awaited<ReturnType<typeof startAppendingProxy>>;
  let edge: Awaited<ReturnType<typeof startAppendingProxy>>;
  const start = async (options: TestServiceOptions) => {
    service = await startTestService({ databaseUrl: null, trustedProxyHeader: 'x-forwarded-for', ...options });
    inner = await startAppendingProxy(service);
    // The edge proxy reaches the inner one from an address of its own, which the inner one appends.
    edge = await startAppendingProxy(inner, { fromAddress: '127.0.0.5' });
  };
  const stop = async () => {
    await edge?.close();
    await inner?.close();
    await service?.close();
  };

  it('with two hops set, takes the address the edge proxy saw, not the edge proxy’s nor the client’s entry', async () => {
    await start({ trustedProxyHops: 2 });
    try {
      const { status, userId } = await signUpVia(edge, '1.2.3.4');
      expect(status).toBe(200);
      expect(await signUpAddress(service, userId!)).toBe('127.0.0.1');
    } finally {
      await stop();
    }
  });
});

describe('a forwarded header that cannot be the client address', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ databaseUrl: null, trustedProxyHeader: 'x-forwarded-for', trustedProxyHops: 2 });
  });
  afterAll(() => service?.close());

  it('falls back to the socket address when malformed or shorter than the hops, never 500', async () => {
    for (const header of ['not-an-address', '<script>, 10.0.0.1', '1.2.3.4', ' , ', '999.1.1.1, 127.0.0.9']) {
      const { status, userId } = await signUpVia(service, header);
      expect(status, header).toBe(200);
      expect(await signUpAddress(service, userId!), header).toBe('127.0.0.1');
    }
  });
});
