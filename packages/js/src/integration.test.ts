/**
 * ClientApp against the real Latchkey service (`@latchkey/server/testing`):
 * a fresh database and project per suite, and one controllable clock shared
 * by the service and the SDK where expiry matters. Nothing is mocked.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ClientApp, type ClientAppOptions } from './client-app.js';
import type { FetchFunction } from './options.js';

interface TestService {
  url: string;
  apiUrl: string;
  fetch: (input: Request | string, init?: RequestInit) => Promise<Response>;
  projectId: string;
  keys: { publishableClientKey: string; secretServerKey: string; superSecretAdminKey: string };
  clock: { now(): number; advance(ms: number): void; set(ms: number): void };
  setProjectConfig(patch: Record<string, unknown>): Promise<unknown>;
  close(): Promise<void>;
}

const testingEntry = fileURLToPath(new URL('../../server/src/testing/index.ts', import.meta.url));
const serviceExists = existsSync(testingEntry);
if (!serviceExists) console.warn(`integration tests skipped: ${testingEntry} does not exist yet`);

/** Access-token lifetime the service issues (wire-protocol.md §5.1). */
const accessTokenLifetimeMs = 600_000;

describe.skipIf(!serviceExists)('ClientApp against the real service', { timeout: 30_000 }, () => {
  let service: TestService;

  beforeAll(async () => {
    const specifier = '@latchkey/server/testing';
    const testing = (await import(/* @vite-ignore */ specifier)) as { startTestService(): Promise<TestService> };
    service = await testing.startTestService();
  }, 120_000);
  afterAll(async () => {
    await service?.close();
  });

  /** A ClientApp on the service, recording `METHOD path` of every request. */
  function createApp(overrides: Partial<ClientAppOptions> = {}) {
    const calls: string[] = [];
    const fetch: FetchFunction = (input, init) => {
      calls.push(`${init.method ?? 'GET'} ${new URL(input).pathname.replace('/api/v1', '')}`);
      return service.fetch(new Request(input, init));
    };
    const app = new ClientApp({
      projectId: service.projectId,
      publishableClientKey: service.keys.publishableClientKey,
      baseUrl: service.url,
      tokenStore: 'memory',
      fetch,
      clock: service.clock,
      ...overrides,
    });
    return { app, calls };
  }

  let counter = 0;
  const newCredentials = () => ({ email: `user${++counter}-${Date.now()}@example.com`, password: 'correct-horse-1' });

  async function signedInApp(overrides: Partial<ClientAppOptions> = {}) {
    const credentials = newCredentials();
    const context = createApp(overrides);
    const verificationCallbackUrl = 'http://localhost:3000/handler/email-verification';
    await context.app.signUpWithCredential({ ...credentials, noRedirect: true, verificationCallbackUrl });
    return { ...context, credentials };
  }

  it('signs up, reads, updates, signs out and signs back in', async () => {
    const { app, credentials } = await signedInApp();
    const user = await app.getUser({ or: 'throw' });
    expect(user).toMatchObject({ primaryEmail: credentials.email, hasPassword: true, displayName: null });
    await user.update({ displayName: 'Alice', clientMetadata: { theme: 'dark', n: 1 } });
    expect(await app.getUser()).toMatchObject({ displayName: 'Alice', clientMetadata: { theme: 'dark', n: 1 } });
    await user.signOut({ noRedirect: true });
    await expect(app.getUser()).resolves.toBeNull();
    await app.signInWithCredential({ ...credentials, noRedirect: true });
    expect(await app.getUser()).toMatchObject({ id: user.id, displayName: 'Alice' });
  });

  it('reports refusals as KnownErrors', async () => {
    const { app, credentials } = await signedInApp();
    await expect(app.signUpWithCredential({ ...credentials, noRedirect: true })).rejects.toMatchObject({
      code: 'USER_EMAIL_ALREADY_EXISTS',
    });
    await expect(
      app.signUpWithCredential({ ...newCredentials(), password: '123', noRedirect: true }),
    ).rejects.toMatchObject({ code: 'PASSWORD_TOO_SHORT', details: { min_length: 8 } });
    await expect(
      app.signInWithCredential({ ...credentials, password: 'wrong-password', noRedirect: true }),
    ).rejects.toMatchObject({ code: 'EMAIL_PASSWORD_MISMATCH' });
    const bad = createApp({ publishableClientKey: 'pck_bad' }).app;
    await expect(bad.getProject()).rejects.toMatchObject({ code: 'INVALID_PUBLISHABLE_CLIENT_KEY' });
  });

  it('refreshes proactively near expiry (one clock for service and SDK)', async () => {
    const { app, calls } = await signedInApp();
    const user = await app.getUser({ or: 'throw' });
    service.clock.advance(accessTokenLifetimeMs - 10_000);
    calls.length = 0;
    await user.update({ displayName: 'Near expiry' });
    expect(calls).toEqual(['POST /auth/oauth/token', 'PATCH /users/me', 'GET /users/me']);
  });

  it('refreshes and retries after the service answers ACCESS_TOKEN_EXPIRED', async () => {
    const sdkNow = service.clock.now();
    const { app, calls } = await signedInApp({ clock: { now: () => sdkNow } });
    const user = await app.getUser({ or: 'throw' });
    const { accessToken } = await user.getTokens();
    service.clock.advance(accessTokenLifetimeMs + 1_000);
    calls.length = 0;
    await user.update({ displayName: 'After expiry' });
    expect(calls).toEqual(['PATCH /users/me', 'POST /auth/oauth/token', 'PATCH /users/me', 'GET /users/me']);
    expect(app.getUserSnapshot()?.displayName).toBe('After expiry');
    const expired = await service.fetch('/api/v1/users/me', {
      headers: {
        'x-stack-override-error-status': 'true',
        'x-stack-project-id': service.projectId,
        'x-stack-access-type': 'client',
        'x-stack-publishable-client-key': service.keys.publishableClientKey,
        'x-stack-access-token': accessToken!,
        'x-stack-refresh-token': 'any',
      },
    });
    expect(expired.headers.get('x-stack-known-error')).toBe('ACCESS_TOKEN_EXPIRED');
    expect(await expired.json()).toMatchObject({ details: { expired_at_millis: null } }); // decision a
  });

  it('is signed out once the session is revoked', async () => {
    const { app } = await signedInApp();
    const tokens = await (await app.getUser({ or: 'throw' })).getTokens();
    const otherDevice = createApp({ tokenStore: { ...tokens } }).app;
    await (await otherDevice.getUser({ or: 'throw' })).signOut({ noRedirect: true });
    service.clock.advance(accessTokenLifetimeMs);
    const { app: fresh, calls } = createApp({ tokenStore: { ...tokens } });
    await expect(fresh.getUser()).resolves.toBeNull();
    expect(calls).toEqual(['POST /auth/oauth/token', 'GET /users/me']);
    expect((await fresh.getProject()).id).toBe(service.projectId);
  });

  it('gets answers shaped as the wire protocol says (errors as 200 + headers, no refresh-token rotation)', async () => {
    const answers: Array<{ path: string; status: number; headers: Headers; body: string }> = [];
    const fetch: FetchFunction = async (input, init) => {
      const response = await service.fetch(new Request(input, init));
      const body = await response.clone().text();
      answers.push({ path: new URL(input).pathname, status: response.status, headers: response.headers, body });
      return response;
    };
    const { app, credentials } = await signedInApp({ fetch });
    await app.signUpWithCredential({ ...credentials, noRedirect: true }).catch(() => {});
    const conflict = answers.at(-1)!;
    expect(conflict.status).toBe(200);
    expect(conflict.headers.get('x-stack-actual-status')).toBe('409');
    expect(conflict.headers.get('x-stack-known-error')).toBe('USER_EMAIL_ALREADY_EXISTS');
    service.clock.advance(accessTokenLifetimeMs);
    await app.getUser();
    const refresh = answers.find((a) => a.path === '/api/v1/auth/oauth/token')!;
    expect(refresh.status).toBe(200);
    const refreshBody = JSON.parse(refresh.body) as Record<string, unknown>;
    expect(refreshBody).toMatchObject({ access_token: expect.any(String), token_type: 'Bearer' });
    expect(refreshBody.refresh_token).toBeUndefined();
  });

  it('works over real HTTP with the global fetch', async () => {
    const app = new ClientApp({
      projectId: service.projectId,
      publishableClientKey: service.keys.publishableClientKey,
      baseUrl: `${service.url}/`,
      tokenStore: 'memory',
      clock: service.clock,
    });
    const credentials = newCredentials();
    await app.signUpWithCredential({ ...credentials, noRedirect: true });
    const user = await app.getUser({ or: 'throw' });
    expect(user.primaryEmail).toBe(credentials.email);
    await user.signOut({ noRedirect: true });
    await expect(app.getUser()).resolves.toBeNull();
  });

  it('makes one refresh for many concurrent calls', async () => {
    const { app, calls } = await signedInApp();
    const user = await app.getUser({ or: 'throw' });
    service.clock.advance(accessTokenLifetimeMs - 5_000);
    calls.length = 0;
    const results = await Promise.all([
      ...Array.from({ length: 10 }, () => app.getUser()),
      ...Array.from({ length: 10 }, () => user.getTokens()),
    ]);
    expect(results.every((r) => r !== null)).toBe(true);
    expect(calls.filter((c) => c === 'POST /auth/oauth/token')).toHaveLength(1);
  });

  it('deletes the user when the project allows it', async () => {
    await service.setProjectConfig({ client_user_deletion_enabled: true });
    const { app, credentials } = await signedInApp();
    await (await app.getUser({ or: 'throw' })).delete();
    await expect(app.getUser()).resolves.toBeNull();
    await expect(app.signInWithCredential({ ...credentials, noRedirect: true })).rejects.toMatchObject({
      code: 'EMAIL_PASSWORD_MISMATCH',
    });
  });
});
