import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, expect, it } from 'vitest';
import { type FetchGuard, guardFetch } from './fetch-guard.js';
import { StackClientApp } from './sdk.js';

let guard: FetchGuard | undefined;
afterEach(() => guard?.restore());

it('refuses non-loopback hosts at once, with a TypeError, and records them', async () => {
  const before = globalThis.fetch;
  guard = guardFetch();

  for (const url of ['https://1.1.1.1/cdn-cgi/trace', 'https://api.stack-auth.com/health', 'http://example.com/']) {
    await expect(fetch(url)).rejects.toThrow(TypeError);
  }

  expect(guard.blocked).toEqual([
    'https://1.1.1.1/cdn-cgi/trace',
    'https://api.stack-auth.com/health',
    'http://example.com/',
  ]);
  expect(guard.requests).toEqual([]);
  guard.restore();
  expect(globalThis.fetch).toBe(before);
});

it('lets loopback through and records what the SDK would see', async () => {
  const server = createServer((request, response) => {
    response.setHeader('x-stack-actual-status', '409');
    response.setHeader('x-stack-known-error', 'USER_EMAIL_ALREADY_EXISTS');
    response.setHeader('content-type', 'application/json');
    response.end(JSON.stringify({ code: 'USER_EMAIL_ALREADY_EXISTS', error: request.method }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    const { port } = server.address() as AddressInfo;
    guard = guardFetch();

    const response = await fetch(`http://localhost:${port}/api/v1/auth/password/sign-up`, { method: 'POST' });

    expect(await response.json()).toEqual({ code: 'USER_EMAIL_ALREADY_EXISTS', error: 'POST' });
    expect(guard.trail()).toEqual(['POST /auth/password/sign-up -> USER_EMAIL_ALREADY_EXISTS']);
    expect(guard.requests[0]).toMatchObject({ httpStatus: 200, status: 409 });
    expect(guard.blocked).toEqual([]);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

it("blocks the real SDK's network diagnostics when the service is unreachable", async () => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
  const { port } = closed.address() as AddressInfo;
  await new Promise((resolve) => closed.close(resolve));
  guard = guardFetch();
  const app = new StackClientApp({
    baseUrl: `http://127.0.0.1:${port}`,
    projectId: '00000000-0000-4000-8000-000000000000',
    publishableClientKey: `pck_${'0'.repeat(45)}`,
    tokenStore: 'memory',
    noAutomaticPrefetch: true,
  });

  // A network error on a POST is not retried: the SDK runs its diagnostics at once.
  const signUp = app.signUpWithCredential({
    email: 'nobody@example.com',
    password: 'correct horse battery staple',
    noRedirect: true,
    verificationCallbackUrl: 'http://localhost:3000/handler/email-verification',
  });

  await expect(signUp).rejects.toThrow('Stack Auth is unable to connect to the server');
  expect(guard.blocked).toEqual([
    'https://1.1.1.1/cdn-cgi/trace',
    'https://app.stack-auth.com/health',
    'https://api.stack-auth.com/health',
  ]);
});
