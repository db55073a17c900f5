/** `createService` and `startServer`: options, logging, unexpected failures, listening. */
import { createServer } from 'node:net';
import { Writable } from 'node:stream';
import { headers as h } from '@latchkey/protocol';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { createApiKeySet, createProject } from './operations.js';
import { startServer } from './server.js';
import { createService } from './service.js';
import { openPGlite } from './storage/open-storage.js';
import { authHeaders, call, signUp, userHeaders } from './test-support/api.js';
import { startTestService } from './testing/index.js';
import { authorizeUrl } from './testing/oauth-browser.js';
import { startOidcUpstream, upstreamProvider } from './testing/oidc-upstream.js';
import { testSeed } from './testing/seed-cache.js';

describe('createService', () => {
  it('refuses a weak master secret: short, repeated, or too predictable', async () => {
    const storage = await openPGlite({ schema: 'public', seed: await testSeed() });
    try {
      expect(() => createService({ storage, secret: 'short', logger: false })).toThrow(/shorter than 32/);
      // 32 characters, no secret at all: the length check alone let it through.
      expect(() => createService({ storage, secret: 'x'.repeat(40), logger: false })).toThrow(/latchkey rotate-secret/);
    } finally {
      await storage.close();
    }
  });

  it('logs one line per request with its request id, and no secret', async () => {
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const text of String(chunk).split('\n').filter(Boolean)) lines.push(JSON.parse(text));
        done();
      },
    });
    const service = await startTestService({ logger: pino(sink) });
    try {
      const user = await signUp(service, 'logged@example.com', 'a secret password');
      const me = await call(service, 'GET', '/users/me', { headers: userHeaders(service, user) });
      await call(service, 'GET', '/users/me', { headers: { ...authHeaders(service), 'x-stack-access-token': 'junk' } });
      await new Promise((resolve) => setImmediate(resolve));
      expect(lines).toHaveLength(3);
      expect(lines[1]).toMatchObject({
        reqId: me.headers.get(h.requestId),
        method: 'GET',
        path: '/api/v1/users/me',
        status: 200,
      });
      expect(lines[2]).toMatchObject({ status: 401, error: 'UNPARSABLE_ACCESS_TOKEN' }); // the real status
      const text = JSON.stringify(lines);
      for (const secret of [
        'a secret password',
        user.access_token,
        user.refresh_token,
        service.keys.publishableClientKey,
        service.keys.secretServerKey,
      ]) {
        expect(text).not.toContain(secret);
      }
    } finally {
      await service.close();
    }
  });

  it('keeps passwords, tokens and keys out of the log on error paths too', async () => {
    const lines: string[] = [];
    const sink = new Writable({
      write(chunk, _encoding, done) {
        lines.push(String(chunk));
        done();
      },
    });
    // PGlite: the test closes the storage to provoke a 500, which a PostgreSQL test schema could not then drop.
    const service = await startTestService({ logger: pino(sink), databaseUrl: null });
    const password = 'a logged-out secret password';
    try {
      const user = await signUp(service, 'errors@example.com', password);
      const json = { ...authHeaders(service), 'content-type': 'application/json' };
      await call(service, 'POST', '/auth/password/sign-in', {
        headers: authHeaders(service),
        json: { email: user.email, password: `${password}!` },
      });
      await call(service, 'POST', '/auth/password/sign-in', { headers: json, body: `{"password":"${password}"` });
      await call(service, 'POST', '/auth/password/sign-in', { headers: json, body: `password=${password}` });
      await call(service, 'GET', '/users/me', {
        headers: { ...userHeaders(service, user, 'server'), [h.secretServerKey]: `${service.keys.secretServerKey}x` },
      });
      await call(service, 'POST', '/auth/oauth/token', {
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `grant_type=refresh_token&refresh_token=${user.refresh_token}x&client_id=${service.projectId}&client_secret=${service.keys.publishableClientKey}`,
      });
      const basic = Buffer.from(`${service.projectId}:${service.keys.publishableClientKey}`).toString('base64');
      await call(service, 'POST', '/auth/oauth/token?refresh_token=in-the-query', {
        headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}` },
        body: `grant_type=refresh_token&refresh_token=${user.refresh_token}`,
      });
      await service.storage.close();
      await call(service, 'GET', '/users/me', { headers: userHeaders(service, user) });
      await new Promise((resolve) => setImmediate(resolve));
      const text = lines.join('');
      expect(text).toContain('"status":500');
      for (const secret of [
        password,
        user.access_token,
        user.refresh_token,
        service.keys.publishableClientKey,
        service.keys.secretServerKey,
        basic,
        'in-the-query',
      ]) {
        expect(text).not.toContain(secret);
      }
    } finally {
      await service.close();
    }
  });

  it('answers 500 text (with the request id) when something unexpected breaks, honouring the override', async () => {
    const storage = await openPGlite({ schema: 'public', seed: await testSeed() });
    const project = await createProject(storage, { displayName: 'P' });
    const keys = await createApiKeySet(storage, project.id);
    const service = createService({ storage, secret: 'a service secret for this test, 32+ chars', logger: false });
    await storage.close();
    const request = (override: boolean) =>
      service.fetch(
        new Request('http://local/api/v1/projects/current', {
          headers: {
            [h.projectId]: project.id,
            [h.accessType]: 'client',
            [h.publishableClientKey]: keys.publishableClientKey!,
            ...(override ? { [h.overrideErrorStatus]: 'true' } : {}),
          },
        }),
      );
    const plain = await request(false);
    expect(plain.status).toBe(500);
    expect(plain.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await plain.text()).toContain(plain.headers.get(h.requestId)!);
    const overridden = await request(true);
    expect(overridden.status).toBe(200);
    expect(overridden.headers.get(h.actualStatus)).toBe('500');
    expect(overridden.headers.get(h.knownError)).toBeNull();
  });
});

describe('two services in one process', () => {
  it('share no provider discovery: each reads the issuer itself, then answers from its own cache', async () => {
    const upstream = await startOidcUpstream({ redirectUris: [] });
    const discoveries: string[] = [];
    // One network for both, as an embedding that starts two services might pass.
    const oauthProviderNetwork = {
      rewriteUrl: (url: string) => url,
      fetch: (input: string | URL | Request, init?: RequestInit) => {
        const url = String(input instanceof Request ? input.url : input);
        if (url.endsWith('/.well-known/openid-configuration')) discoveries.push(url);
        return fetch(input, init);
      },
    };
    const first = await startTestService({ oauthProviderNetwork });
    const second = await startTestService({ oauthProviderNetwork });
    try {
      const started = async (service: typeof first) => {
        await service.setProjectConfig({ oauth_providers: [upstreamProvider(upstream)] });
        const response = await fetch(authorizeUrl(service, 'corp').url, { redirect: 'manual' });
        expect(response.status).toBe(307);
        return new URL(response.headers.get('location')!).origin;
      };
      expect(await started(first)).toBe(upstream.issuer);
      expect(discoveries).toHaveLength(1);
      expect(await started(second)).toBe(upstream.issuer);
      expect(discoveries).toHaveLength(2);
      await started(first);
      await started(second);
      expect(discoveries).toHaveLength(2);
    } finally {
      await Promise.all([first.close(), second.close(), upstream.close()]);
    }
  });
});

describe('startServer', () => {
  it('reports the real port when asked for port 0, and closes', async () => {
    const storage = await openPGlite({ schema: 'public', seed: await testSeed() });
    const service = createService({ storage, secret: 'a service secret for this test, 32+ chars', logger: false });
    const server = await startServer({ service, port: 0 });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(server.url).not.toMatch(/:0$/);
      const response = await fetch(`${server.url}/api/v1/projects/current`);
      expect(response.headers.get(h.knownError)).toBe('ACCESS_TYPE_REQUIRED');
    } finally {
      await server.close();
      await storage.close();
    }
    await expect(fetch(`${server.url}/api/v1/projects/current`)).rejects.toThrow();
  });

  it('rejects with EADDRINUSE when the port is taken', async () => {
    const blocker = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const service = { fetch: async () => new Response('') };
      await expect(startServer({ service, port })).rejects.toMatchObject({ code: 'EADDRINUSE' });
    } finally {
      blocker.close();
    }
  });
});
