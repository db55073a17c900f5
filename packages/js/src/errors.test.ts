import { clientMessages } from '@latchkey/protocol';
import { describe, expect, it } from 'vitest';
import { ConnectivityError, HttpError, MalformedAnswerError, RateLimitedError } from './errors.js';

describe('SDK errors', () => {
  it('ConnectivityError names the URL, or says the user is offline', () => {
    const cause = new TypeError('fetch failed');
    const error = new ConnectivityError('https://a.example/api/v1/x', false, { cause });
    expect(error).toMatchObject({ name: 'ConnectivityError', code: 'CONNECTIVITY_ERROR', offline: false, cause });
    expect(error.message).toBe('Could not reach the Latchkey service at https://a.example/api/v1/x.');
    expect(error.message).toBe(clientMessages.connectivity('https://a.example/api/v1/x'));
    expect(new ConnectivityError('u', true).message).toBe(clientMessages.offline);
  });

  it('HttpError carries status and body', () => {
    const error = new HttpError('https://a.example/x', 502, 'Bad gateway');
    expect(error).toMatchObject({ name: 'HttpError', code: 'HTTP_ERROR', status: 502, body: 'Bad gateway' });
    expect(error.message).toBe('Failed to send request to https://a.example/x: 502 Bad gateway');
  });

  it('RateLimitedError says "rate limited" and when to retry', () => {
    const error = new RateLimitedError('https://a.example/x', 30_000);
    expect(error).toMatchObject({ name: 'RateLimitedError', code: 'RATE_LIMITED', retryAfterMs: 30_000 });
    expect(error.message).toBe('The Latchkey service rate limited this request; retry after 30 s.');
    expect(new RateLimitedError('u', 1_500).message).toContain('retry after 1.5 s');
    expect(new RateLimitedError('u', null).message).toBe(
      'The Latchkey service rate limited this request; retry later.',
    );
  });

  it('MalformedAnswerError names the call and the field', () => {
    const error = new MalformedAnswerError('GET /users/me', 'client_metadata', 'is missing');
    expect(error).toMatchObject({ name: 'MalformedAnswerError', code: 'MALFORMED_ANSWER', field: 'client_metadata' });
    expect(error.message).toBe("The service's answer to GET /users/me is malformed: client_metadata is missing");
    expect(new MalformedAnswerError(null, '', 'must be a JSON object').message).toBe(
      "The service's answer is malformed: the body must be a JSON object",
    );
  });
});
