/**
 * The retry rules of spec §7 and wire-protocol.md §4.3: up to 5 attempts;
 * network failures are retried only for idempotent methods, with a random
 * exponential delay of (0.5..1.5) * 1000 ms * 2^attempt. Time and randomness
 * are injected so tests run on fake timers.
 */
import { maxTimeoutMs, networkRetryAttempts, networkRetryBaseDelayMs, refreshCookieHeader } from '@latchkey/protocol';
import { ConnectivityError } from '../../errors.js';
import type { FetchFunction, Timers } from '../../options.js';
import { sleep, systemTimers } from '../timers.js';

/** `fetch` looked up at call time, so a stub installed later is used. */
export const globalFetch: FetchFunction = (input, init) => globalThis.fetch(input, init);

/** What one attempt ended with. `retry` waits `delayMs` (or the backoff delay) before the next attempt. */
export type AttemptOutcome<T> =
  | { kind: 'done'; value: T }
  | { kind: 'retry'; delayMs: number | 'backoff'; failure: Error }
  | { kind: 'network-error'; error: unknown };

export interface RetryOptions {
  method: string;
  url: string;
  /** Default: the system's. */
  timers?: Timers;
  /** A number in [0, 1), like `Math.random` (the default). */
  random?: () => number;
  isOnline?: () => boolean;
  maxAttempts?: number;
}

const idempotentMethods = new Set(['GET', 'PUT', 'DELETE', 'OPTIONS', 'HEAD']);

/** Whether a network failure of `method` may be retried. */
export function isIdempotent(method: string): boolean {
  return idempotentMethods.has(method.toUpperCase());
}

/** The backoff delay after failed attempt number `attempt` (0-based). */
export function backoffDelayMs(attempt: number, random: () => number): number {
  return (0.5 + random()) * networkRetryBaseDelayMs * 2 ** attempt;
}

/**
 * Runs `attempt` until it is done, a failure is final, or the attempts run out.
 * Then a network failure becomes a `ConnectivityError`; any other failure (a
 * known error, a persistent 429 as `RateLimitedError`, a 508 loop) is thrown as it came.
 */
export async function withRetries<T>(attempt: () => Promise<AttemptOutcome<T>>, options: RetryOptions): Promise<T> {
  const maxAttempts = options.maxAttempts ?? networkRetryAttempts;
  let last: Exclude<AttemptOutcome<T>, { kind: 'done' }> | undefined;
  for (let index = 0; index < maxAttempts; index++) {
    const outcome = await attempt();
    if (outcome.kind === 'done') return outcome.value;
    if (outcome.kind === 'network-error' && !isIdempotent(options.method)) {
      throw connectivityError(options, outcome.error);
    }
    last = outcome;
    if (index === maxAttempts - 1) break;
    const delayMs = delayBefore(outcome, index, options.random ?? Math.random);
    if (delayMs > 0) await sleep(options.timers ?? systemTimers, Math.min(delayMs, maxTimeoutMs));
  }
  if (last?.kind === 'retry') throw last.failure;
  throw connectivityError(options, last?.error);
}

/** One attempt's fetch options and how to read its answer. */
export interface Attempt<T> {
  init: RequestInit;
  decode(response: Response): Promise<AttemptOutcome<T>>;
}

export interface SendOptions extends RetryOptions {
  /** Default: `globalFetch`. */
  fetch?: FetchFunction;
  /** The refresh-token cookie mode (`withServiceCookie`); default off. */
  serviceCookie?: boolean;
}

/**
 * Sends the attempts `prepare` makes (afresh each time: tokens may change in
 * between) until one is done or the retry rules give up. Every request goes
 * out with `credentials: 'omit'` and `cache: 'no-store'` (wire-protocol.md §1),
 * or in the refresh-token cookie mode as `withServiceCookie` makes it; a
 * `TypeError` from `fetch` is a network failure.
 */
export function sendWithRetries<T>(prepare: () => Attempt<T> | Promise<Attempt<T>>, options: SendOptions): Promise<T> {
  return withRetries(async () => {
    const attempt = await prepare();
    let response: Response;
    try {
      const init: RequestInit = { ...attempt.init, credentials: 'omit', cache: 'no-store' };
      response = await (options.fetch ?? globalFetch)(
        options.url,
        options.serviceCookie ? withServiceCookie(init) : init,
      );
    } catch (error) {
      if (error instanceof TypeError) return { kind: 'network-error', error };
      throw error;
    }
    return attempt.decode(response);
  }, options);
}

/**
 * `init` in the refresh-token cookie mode (`tokenStore: 'httponly-cookie'`):
 * cookies sent and kept (the service's HttpOnly refresh-token cookie), and
 * the header that asks the service for the mode.
 */
export function withServiceCookie(init: RequestInit): RequestInit {
  const headers = { ...(init.headers as Record<string, string>), [refreshCookieHeader]: '1' };
  return { ...init, headers, credentials: 'include' };
}

/** Default online check: only an explicit `navigator.onLine === false` counts as offline. */
function navigatorIsOnline(): boolean {
  return typeof navigator === 'undefined' || navigator.onLine !== false;
}

function delayBefore(outcome: AttemptOutcome<unknown>, index: number, random: () => number): number {
  if (outcome.kind === 'retry' && outcome.delayMs !== 'backoff') return outcome.delayMs;
  return backoffDelayMs(index, random);
}

function connectivityError(options: RetryOptions, cause: unknown): ConnectivityError {
  const online = (options.isOnline ?? navigatorIsOnline)();
  return new ConnectivityError(options.url, !online, { cause });
}
