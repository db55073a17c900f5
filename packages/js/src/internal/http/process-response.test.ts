import {
  encodeKnownError,
  errorCatalogue,
  KnownError,
  type KnownErrorCode,
  knownErrorCodes,
  UnknownKnownErrorCode,
} from '@latchkey/protocol';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../errors.js';
import { jsonAnswer, knownErrorAnswer, plainErrorAnswer } from '../../test-support/answers.js';
import { actualStatus, parseRetryAfter, processApiResponse } from './process-response.js';

const url = 'https://auth.example.com/api/v1/users/me';

/** Details that satisfy a catalogue row, so every code can be encoded. */
function sampleDetails(code: KnownErrorCode): Record<string, unknown> | undefined {
  const row = errorCatalogue[code] as { details?: Record<string, string> };
  if (!row.details) return undefined;
  const samples: Record<string, unknown> = { number: 8, 'string[]': ['client'], null: null, json: [] };
  return Object.fromEntries(Object.entries(row.details).map(([key, type]) => [key, samples[type] ?? 'x']));
}

describe('processApiResponse', () => {
  it('returns the JSON body of a 2xx answer', async () => {
    const result = await processApiResponse(jsonAnswer({ id: 'p1' }, 201), url);
    expect(result).toEqual({ kind: 'ok', status: 201, body: { id: 'p1' } });
  });

  it('returns a text body when the answer is not JSON', async () => {
    const result = await processApiResponse(new Response('fine', { headers: { 'content-type': 'text/plain' } }), url);
    expect(result).toEqual({ kind: 'ok', status: 200, body: 'fine' });
  });

  it('re-wraps x-stack-actual-status', () => {
    expect(actualStatus(plainErrorAnswer(404, 'Not found'))).toBe(404);
    expect(actualStatus(new Response(''))).toBe(200);
  });

  it.each(knownErrorCodes.map((code) => [code]))('decodes %s into its typed KnownError', async (code) => {
    const original = new KnownError(code, sampleDetails(code) as never);
    const result = await processApiResponse(knownErrorAnswer(original), url);
    expect(result.kind).toBe('known-error');
    if (result.kind !== 'known-error') return;
    expect(result.error).toBeInstanceOf(KnownError);
    expect(result.error).toMatchObject({ code, status: errorCatalogue[code].status });
    expect((result.error as KnownError).details).toEqual(encodeKnownError(original).body.details);
  });

  it('decodes known errors sent with their real status (no override header)', async () => {
    const result = await processApiResponse(knownErrorAnswer('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', false), url);
    expect(result.kind === 'known-error' && result.error.code).toBe('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
  });

  it("turns an unknown code into UnknownKnownErrorCode ('Unknown KnownError code')", async () => {
    const answer = new Response(JSON.stringify({ code: 'SOMETHING_NEW', error: 'new' }), {
      headers: { 'x-stack-known-error': 'SOMETHING_NEW', 'x-stack-actual-status': '400' },
    });
    const result = await processApiResponse(answer, url);
    expect(result.kind).toBe('known-error');
    if (result.kind !== 'known-error') return;
    expect(result.error).toBeInstanceOf(UnknownKnownErrorCode);
    expect(result.error.message).toMatch(/^Unknown KnownError code/);
    expect(result.error).toMatchObject({ code: 'SOMETHING_NEW', status: 400 });
  });

  it('refuses a known-error header that disagrees with the body', async () => {
    const answer = new Response(JSON.stringify({ code: 'USER_NOT_FOUND', error: 'x' }), {
      headers: { 'x-stack-known-error': 'TEAM_NOT_FOUND' },
    });
    const result = await processApiResponse(answer, url);
    expect(result.kind === 'known-error' && result.error).toBeInstanceOf(UnknownKnownErrorCode);
  });

  it('signals 429 with and without Retry-After', async () => {
    expect(await processApiResponse(plainErrorAnswer(429, 'slow down', { 'retry-after': '3' }), url)).toMatchObject({
      kind: 'rate-limited',
      retryAfterMs: 3000,
    });
    expect(await processApiResponse(plainErrorAnswer(429, 'slow down'), url)).toMatchObject({
      kind: 'rate-limited',
      retryAfterMs: null,
    });
  });

  it('signals a 508 loop only when the body carries INFINITE_LOOP_DETECTED', async () => {
    const loop = await processApiResponse(plainErrorAnswer(508, 'INFINITE_LOOP_DETECTED: loop'), url);
    expect(loop.kind).toBe('loop-detected');
    const other = await processApiResponse(plainErrorAnswer(508, 'Loop detected'), url);
    expect(other.kind).toBe('http-error');
  });

  it('turns other non-2xx answers into an HttpError naming the URL and status', async () => {
    const result = await processApiResponse(plainErrorAnswer(404, 'Not found'), url);
    expect(result.kind).toBe('http-error');
    if (result.kind !== 'http-error') return;
    expect(result.error).toBeInstanceOf(HttpError);
    expect(result.error.message).toBe(`Failed to send request to ${url}: 404 Not found`);
  });

  it('reports invalid JSON in a 2xx answer as an HttpError', async () => {
    const answer = new Response('{not json', { headers: { 'content-type': 'application/json' } });
    expect((await processApiResponse(answer, url)).kind).toBe('http-error');
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds', () => {
    expect(parseRetryAfter('2')).toBe(2000);
    expect(parseRetryAfter('0.5')).toBe(500);
    expect(parseRetryAfter(null)).toBeNull();
    expect(parseRetryAfter('soon')).toBeNull();
  });
});
