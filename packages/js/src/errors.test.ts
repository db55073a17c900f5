import { describe, expect, it } from 'vitest';
import { ConnectivityError, HttpError } from './errors.js';

describe('SDK errors', () => {
  it('ConnectivityError names the URL, or says the user is offline', () => {
    const cause = new TypeError('fetch failed');
    const error = new ConnectivityError('https://a.example/api/v1/x', false, { cause });
    expect(error).toMatchObject({ name: 'ConnectivityError', offline: false, cause });
    expect(error.message).toBe('Could not reach the Latchkey service at https://a.example/api/v1/x.');
    expect(new ConnectivityError('u', true).message).toMatch(/offline/);
  });

  it('HttpError carries status and body', () => {
    const error = new HttpError('https://a.example/x', 502, 'Bad gateway');
    expect(error).toMatchObject({ name: 'HttpError', status: 502, body: 'Bad gateway' });
    expect(error.message).toBe('Failed to send request to https://a.example/x: 502 Bad gateway');
  });
});
