/**
 * Bad bodies (over HTTP, on a JSON route and on DELETE): every one is a known
 * error with a readable `details.message`, never a 500, and changes nothing.
 */
import http from 'node:http';
import { headers as h } from '@latchkey/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders, call, expectKnownError, signUp, snapshot, userHeaders } from '../test-support/api.js';
import { startTestService, type TestService } from '../testing/index.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService({ bodyLimitBytes: 4096 });
});
afterAll(() => service?.close());

const json = { 'content-type': 'application/json' };

describe('JSON bodies', () => {
  it.each([
    ['malformed JSON', '{"email": "a@example.com",', json, 'BODY_PARSING_ERROR'],
    ['a truncated string', '{"email": "a@exa', json, 'BODY_PARSING_ERROR'],
    [
      'JSON with a wrong content-type',
      '{"email":"a@example.com","password":"correct-horse-1"}',
      { 'content-type': 'text/plain' },
      'BODY_PARSING_ERROR',
    ],
    ['JSON with no content-type', '{"email":"a@example.com","password":"correct-horse-1"}', {}, 'BODY_PARSING_ERROR'],
    ['an array', '[1,2]', json, 'SCHEMA_ERROR'],
    ['a string', '"hello"', json, 'SCHEMA_ERROR'],
    ['null', 'null', json, 'SCHEMA_ERROR'],
    ['a number', '42', json, 'SCHEMA_ERROR'],
    ['an empty body', '', json, 'SCHEMA_ERROR'],
    ['an array nested 2,000 levels deep', `${'['.repeat(2000)}${']'.repeat(2000)}`, json, 'SCHEMA_ERROR'],
    ['an object nested 65 levels deep', `${'{"a":'.repeat(65)}1${'}'.repeat(65)}`, json, 'SCHEMA_ERROR'],
    [
      'an oversized body',
      JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(5000) }),
      json,
      'BODY_PARSING_ERROR',
    ],
  ] as const)('%s → %s', async (_name, body, contentType, code) => {
    const before = await snapshot(service);
    const answer = await call(service, 'POST', '/auth/password/sign-up', {
      headers: { ...authHeaders(service), ...contentType },
      body,
    });
    expectKnownError(answer, code, 400);
    expect(answer.body.details.message.length).toBeGreaterThan(10);
    expect(await snapshot(service)).toEqual(before);
  });

  it('refuses an oversized body even without content-length (chunked upload)', async () => {
    const big = JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(10_000) });
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode(big));
        controller.close();
      },
    });
    const response = await fetch(`${service.apiUrl}/auth/password/sign-up`, {
      method: 'POST',
      headers: { ...authHeaders(service), ...json },
      body: stream,
      duplex: 'half',
    } as RequestInit);
    expect(response.headers.get(h.knownError)).toBe('BODY_PARSING_ERROR');
  });

  it('stops reading an endless chunked body at the limit, and still answers', async () => {
    // Regression: the limit must cut the upload off, not buffer it. The client
    // keeps writing 64 KiB chunks until the answer arrives; socket buffers hold a
    // few MiB, so an answer long before 64 MiB shows the service stopped reading.
    const url = new URL(`${service.apiUrl}/auth/password/sign-up`);
    const ceiling = 64 * 1024 * 1024;
    const outcome = await new Promise<{ code: string | undefined; sent: number }>((resolve, reject) => {
      let sent = 0;
      let answered = false;
      const request = http.request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: 'POST',
          headers: { ...authHeaders(service), ...json, 'transfer-encoding': 'chunked' },
        },
        (response) => {
          answered = true;
          response.resume();
          response.on('end', () => {
            request.destroy();
            resolve({ code: response.headers[h.knownError] as string | undefined, sent });
          });
        },
      );
      request.on('error', (error) => {
        if (!answered) reject(error);
      });
      const chunk = Buffer.alloc(64 * 1024, 'a');
      request.write('{"email":"');
      const pump = () => {
        if (answered) return;
        if (sent >= ceiling) return reject(new Error(`no answer after ${sent} bytes: the service kept reading`));
        sent += chunk.length;
        if (request.write(chunk)) setImmediate(pump);
        else request.once('drain', pump);
      };
      pump();
    });
    expect(outcome.code).toBe('BODY_PARSING_ERROR');
    expect(outcome.sent).toBeLessThan(ceiling);
  });

  it.each([
    ['a form body sent as JSON', 'password=hunter2-secret&email=a%40example.com', 'password='],
    ['a bare secret', 'hunter2-secret', 'hunter2'],
    ['a truncated JSON body', '{"email":"a@example.com","password":"hunter2-secret"', 'hunter2'],
  ])('does not echo the request body in BODY_PARSING_ERROR (%s)', async (_name, body, secret) => {
    // Regression: V8's JSON.parse message quotes the input ("password=h"...),
    // and the service copied it into the error that SDKs throw and apps log.
    const answer = await call(service, 'POST', '/auth/password/sign-up', {
      headers: { ...authHeaders(service), ...json },
      body,
    });
    expectKnownError(answer, 'BODY_PARSING_ERROR', 400);
    expect(answer.text).not.toContain(secret);
    expect(answer.body.details.message).toMatch(/^The request body is not valid JSON/);
  });

  it('refuses bytes that are not UTF-8', async () => {
    const response = await fetch(`${service.apiUrl}/auth/password/sign-up`, {
      method: 'POST',
      headers: { ...authHeaders(service), ...json },
      body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
    });
    expect(response.headers.get(h.knownError)).toBe('BODY_PARSING_ERROR');
  });

  it('names the offending field in SCHEMA_ERROR', async () => {
    const answer = await call(service, 'POST', '/auth/password/sign-up', {
      headers: authHeaders(service),
      json: { email: 42, password: 'correct-horse-1', extra: true },
    });
    expectKnownError(answer, 'SCHEMA_ERROR', 400);
    expect(answer.body.details.message).toContain('body.email');
    expect(answer.body.details.message).toContain('extra');
  });
});

describe('DELETE bodies (decision d)', () => {
  it('accepts no body, {} or any other JSON (ignored, as the original backend), but not broken JSON', async () => {
    const a = await signUp(service);
    const b = await signUp(service);
    const none = await call(service, 'DELETE', '/auth/sessions/current', { headers: userHeaders(service, a) });
    expect(none.status).toBe(200);
    const empty = await call(service, 'DELETE', '/auth/sessions/current', {
      headers: userHeaders(service, b),
      json: {},
    });
    expect(empty.status).toBe(200);
    const c = await signUp(service);
    const extra = await call(service, 'DELETE', '/auth/sessions/current', {
      headers: userHeaders(service, c),
      json: { everything: true },
    });
    expect(extra.status).toBe(200);
    expect(extra.body).toEqual({ success: true });
    const d = await signUp(service);
    const broken = await call(service, 'DELETE', '/auth/sessions/current', {
      headers: { ...userHeaders(service, d), ...json },
      body: '{',
    });
    expectKnownError(broken, 'BODY_PARSING_ERROR', 400);
  });
});
