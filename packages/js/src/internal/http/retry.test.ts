import { KnownError } from '@latchkey/protocol';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ConnectivityError, HttpError, RateLimitedError } from '../../errors.js';
import { knownErrorAnswer, plainErrorAnswer } from '../../test-support/answers.js';
import { systemTimers } from '../timers.js';
import { projectKeyCredentials } from './credentials.js';
import { createPipeline } from './request.js';
import { backoffDelayMs, isIdempotent, withRetries } from './retry.js';

const baseUrl = 'https://auth.example.com';
const credentials = projectKeyCredentials('client', { 'x-stack-publishable-client-key': 'pck_test' });

/** A fetch answering from a script, recording when (in fake time) each call happened. */
function scriptedFetch(script: Array<() => Response>) {
  const times: number[] = [];
  const fetch = vi.fn(async () => {
    times.push(Date.now());
    const next = script.shift();
    if (!next) throw new Error('script exhausted');
    return next();
  });
  return { fetch, times };
}

const networkFailure = () => {
  throw new TypeError('fetch failed');
};
const ok = () => new Response('{"ok":true}', { headers: { 'content-type': 'application/json' } });

describe('retry rules', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  const pipeline = (fetch: ReturnType<typeof scriptedFetch>['fetch'], online = true) =>
    createPipeline({ baseUrl, projectId: 'p', fetch, timers: systemTimers, random: () => 0.5, isOnline: () => online });

  it('waits Retry-After seconds after a 429, then retries', async () => {
    const { fetch, times } = scriptedFetch([() => plainErrorAnswer(429, 'slow', { 'retry-after': '3' }), ok]);
    const result = pipeline(fetch)({ method: 'POST', path: '/x', body: {} }, credentials);
    await vi.advanceTimersByTimeAsync(2999);
    expect(fetch).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    await expect(result).resolves.toEqual({ ok: true });
    expect(times).toEqual([0, 3000]);
  });

  it('retries a 429 without Retry-After at once', async () => {
    const { fetch, times } = scriptedFetch([() => plainErrorAnswer(429, 'slow'), ok]);
    await expect(pipeline(fetch)({ method: 'GET', path: '/x' }, credentials)).resolves.toEqual({ ok: true });
    expect(times).toEqual([0, 0]);
  });

  it('retries a 508 whose body carries INFINITE_LOOP_DETECTED', async () => {
    const { fetch } = scriptedFetch([() => plainErrorAnswer(508, 'INFINITE_LOOP_DETECTED'), ok]);
    const result = pipeline(fetch)({ method: 'POST', path: '/x', body: {} }, credentials);
    await vi.runAllTimersAsync();
    await expect(result).resolves.toEqual({ ok: true });
    expect(fetch).toHaveBeenCalledTimes(2);
  });

  it('throws RateLimitedError with the retry time when 429 persists after 5 attempts', async () => {
    const tooMany = () => plainErrorAnswer(429, 'Too many requests', { 'retry-after': '30' });
    const { fetch, times } = scriptedFetch(Array(5).fill(tooMany));
    const result = pipeline(fetch)({ method: 'GET', path: '/users/me' }, credentials);
    const settled = expect(result).rejects.toThrow('The Latchkey service rate limited this request; retry after 30 s.');
    await vi.advanceTimersByTimeAsync(119_999);
    expect(fetch).toHaveBeenCalledTimes(4);
    await vi.advanceTimersByTimeAsync(1);
    await settled;
    expect(times).toEqual([0, 30_000, 60_000, 90_000, 120_000]);
    await expect(result).rejects.toMatchObject({
      name: 'RateLimitedError',
      code: 'RATE_LIMITED',
      retryAfterMs: 30_000,
    });
  });

  it('regression: a persistent 429 is not reported as "Could not reach the Latchkey service"', async () => {
    const { fetch } = scriptedFetch(Array(5).fill(() => plainErrorAnswer(429, 'slow')));
    const error: unknown = await pipeline(fetch)({ method: 'POST', path: '/x', body: {} }, credentials).catch((e) => e);
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error).not.toBeInstanceOf(ConnectivityError);
    expect(error).toMatchObject({ message: 'The Latchkey service rate limited this request; retry later.' });
  });

  it('throws the 508 answer when the loop persists after 5 attempts', async () => {
    const { fetch } = scriptedFetch(Array(5).fill(() => plainErrorAnswer(508, 'INFINITE_LOOP_DETECTED: loop')));
    const result = pipeline(fetch)({ method: 'GET', path: '/x' }, credentials);
    const settled = expect(result).rejects.toMatchObject({ name: 'HttpError', status: 508 });
    await vi.runAllTimersAsync();
    await settled;
    await expect(result).rejects.toBeInstanceOf(HttpError);
    expect(fetch).toHaveBeenCalledTimes(5);
  });

  it('retries network errors on GET 5 times with exponential delays, then throws a connectivity error', async () => {
    const { fetch, times } = scriptedFetch(Array(5).fill(networkFailure));
    const result = pipeline(fetch)({ method: 'GET', path: '/users/me' }, credentials);
    const settled = expect(result).rejects.toBeInstanceOf(ConnectivityError);
    await vi.runAllTimersAsync();
    await settled;
    expect(times).toEqual([0, 1000, 3000, 7000, 15000]);
    await expect(result).rejects.toThrow(
      'Could not reach the Latchkey service at https://auth.example.com/api/v1/users/me.',
    );
  });

  it('does not retry a network error on POST', async () => {
    const { fetch } = scriptedFetch([networkFailure, ok]);
    await expect(pipeline(fetch)({ method: 'POST', path: '/x', body: {} }, credentials)).rejects.toBeInstanceOf(
      ConnectivityError,
    );
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('says the user is offline when navigator.onLine is false', async () => {
    const { fetch } = scriptedFetch([networkFailure]);
    const send = pipeline(fetch, false);
    const error = (await send({ method: 'PATCH', path: '/x', body: {} }, credentials).catch((e) => e)) as Error;
    expect(error).toMatchObject({ name: 'ConnectivityError', offline: true });
    expect(error.message).toMatch(/offline/);
  });

  it('throws other known errors at once', async () => {
    const { fetch } = scriptedFetch([() => knownErrorAnswer('USER_NOT_FOUND'), ok]);
    const error = await pipeline(fetch)({ method: 'GET', path: '/x' }, credentials).catch((e) => e);
    expect(error).toBeInstanceOf(KnownError);
    expect(fetch).toHaveBeenCalledTimes(1);
  });
});

describe('backoff', () => {
  it('is (0.5..1.5) * 1000 ms * 2^attempt', () => {
    expect(backoffDelayMs(0, () => 0)).toBe(500);
    expect(backoffDelayMs(0, () => 0.999999)).toBeCloseTo(1500, 0);
    expect(backoffDelayMs(3, () => 0.5)).toBe(8000);
  });

  it('treats GET, PUT, DELETE, OPTIONS, HEAD as idempotent', () => {
    expect(['GET', 'PUT', 'DELETE', 'OPTIONS', 'HEAD'].every(isIdempotent)).toBe(true);
    expect(['POST', 'PATCH'].some(isIdempotent)).toBe(false);
  });

  it('throws the last known error when retries of a repairable error run out', async () => {
    const expired = new KnownError('ACCESS_TOKEN_EXPIRED', { expired_at_millis: null });
    const attempt = async () => ({ kind: 'retry' as const, delayMs: 0, failure: expired });
    const timers = { setTimeout: () => 0, clearTimeout: () => {} };
    await expect(withRetries(attempt, { method: 'GET', url: 'u', timers, random: Math.random })).rejects.toBe(expired);
  });
});
