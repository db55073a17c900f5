/** CORS, request ids, cache-control, unknown routes and the status override (wire-protocol §3, §4.2). */
import { corsAllowedHeaders, corsExposedHeaders, headers as h } from '@latchkey/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders } from '../test-support/api.js';
import { startTestService, type TestService } from '../testing/index.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service?.close());

function expectCors(response: Response) {
  expect(response.headers.get('access-control-allow-origin')).toBe('*');
  expect(response.headers.get('access-control-allow-methods')).toBe('GET, POST, PUT, PATCH, DELETE, OPTIONS');
  expect(response.headers.get('access-control-allow-headers')).toBe(corsAllowedHeaders.join(', '));
  expect(response.headers.get('access-control-expose-headers')).toBe(corsExposedHeaders.join(', '));
  expect(response.headers.get('access-control-expose-headers')).toBe(
    'content-type, x-stack-actual-status, x-stack-known-error, retry-after',
  );
  expect(response.headers.get('access-control-max-age')).toBe('86400');
  expect(response.headers.get('access-control-allow-credentials')).toBeNull();
}

/** `access-control-allow-headers` exactly as wire-protocol §3 spells it (not derived from the code under test). */
const allowedHeadersOfTheProtocol =
  'content-type, authorization, x-stack-project-id, x-stack-override-error-status, x-stack-random-nonce, ' +
  'x-stack-client-version, x-stack-disable-artificial-development-delay, x-stack-access-type, ' +
  'x-stack-publishable-client-key, x-stack-secret-server-key, x-stack-super-secret-admin-key, ' +
  'x-stack-admin-access-token, x-stack-refresh-token, x-stack-access-token, baggage, sentry-trace';

describe('CORS', () => {
  it.each(['/api/v1/users/me', '/api/v1/auth/oauth/token', '/api/v1/no/such/route', '/api/anything'])(
    'answers a preflight for %s with 200, the CORS headers and no body',
    async (path) => {
      const response = await fetch(service.url + path, {
        method: 'OPTIONS',
        headers: {
          origin: 'https://app.example.com',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, x-stack-access-type',
        },
      });
      expect(response.status).toBe(200);
      expectCors(response);
      expect(await response.text()).toBe('');
      expect(response.headers.get(h.requestId)).toMatch(/^[0-9a-z]{16}$/);
    },
  );

  it('allows exactly the request headers of wire-protocol §3, without credentials', async () => {
    const response = await fetch(`${service.apiUrl}/users/me`, { method: 'OPTIONS' });
    expect(response.headers.get('access-control-allow-headers')).toBe(allowedHeadersOfTheProtocol);
  });

  it('puts the CORS headers on successes, known errors and unknown routes', async () => {
    const ok = await fetch(`${service.apiUrl}/projects/current`, { headers: authHeaders(service) });
    const refused = await fetch(`${service.apiUrl}/projects/current`, { headers: { origin: 'https://x.example' } });
    const missing = await fetch(`${service.apiUrl}/nothing-here`);
    for (const response of [ok, refused, missing]) expectCors(response);
    expect(refused.headers.get(h.knownError)).toBe('ACCESS_TYPE_REQUIRED');
  });

  it('does not add CORS headers outside /api', async () => {
    const response = await fetch(`${service.url}/health`);
    expect(response.status).toBe(404);
    expect(response.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('every answer', () => {
  it('carries a fresh request id and cache-control: no-store', async () => {
    const a = await fetch(`${service.apiUrl}/projects/current`, { headers: authHeaders(service) });
    const b = await fetch(`${service.url}/elsewhere`);
    for (const response of [a, b]) {
      expect(response.headers.get(h.requestId)).toMatch(/^[0-9a-z]{16}$/);
      expect(response.headers.get('cache-control')).toBe('no-store, max-age=0');
    }
    expect(a.headers.get(h.requestId)).not.toBe(b.headers.get(h.requestId));
  });
});

describe('unknown routes', () => {
  it('answer 404 text/plain without a known-error header', async () => {
    const response = await fetch(`${service.apiUrl}/no/such/route`, { method: 'POST' });
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(response.headers.get(h.knownError)).toBeNull();
  });

  it('answer 200 + x-stack-actual-status: 404 with the override header', async () => {
    const response = await fetch(`${service.apiUrl}/no/such/route`, { headers: { [h.overrideErrorStatus]: 'true' } });
    expect(response.status).toBe(200);
    expect(response.headers.get(h.actualStatus)).toBe('404');
  });

  it('a known method on the wrong path is a 404 too', async () => {
    const response = await fetch(`${service.apiUrl}/users/me`, { method: 'PUT', headers: authHeaders(service) });
    expect(response.headers.get(h.actualStatus)).toBe('404');
  });
});

describe('status override', () => {
  it('only applies when the header is exactly "true"', async () => {
    const response = await fetch(`${service.apiUrl}/projects/current`, {
      headers: { [h.overrideErrorStatus]: 'yes', [h.accessType]: 'client' },
    });
    expect(response.status).toBe(400);
    expect(response.headers.get(h.actualStatus)).toBeNull();
  });

  it('leaves successes alone', async () => {
    const response = await fetch(`${service.apiUrl}/projects/current`, { headers: authHeaders(service) });
    expect(response.status).toBe(200);
    expect(response.headers.get(h.actualStatus)).toBeNull();
  });
});

describe('in-process fetch', () => {
  it('answers like the HTTP listener, with relative paths', async () => {
    const response = await service.fetch('/api/v1/projects/current', { headers: authHeaders(service) });
    expect(response.status).toBe(200);
    expect(((await response.json()) as { id: string }).id).toBe(service.projectId);
    expectCors(response);
  });
});
