/**
 * The refresh call (wire-protocol.md §5.3): `POST /api/v1/auth/oauth/token`,
 * form-encoded, OAuth client authentication in the body, no `x-stack-*`
 * headers. Only `access_token` is kept: refresh tokens are not rotated.
 */
import { clientMessages, constants, KnownError } from '@latchkey/protocol';
import { HttpError } from '../../errors.js';
import { processApiResponse } from '../http/process-response.js';
import { apiUrl, type FetchFunction, globalFetch } from '../http/request.js';
import { type AttemptOutcome, withRetries } from '../http/retry.js';
import { type Clock, systemClock, systemTimers, type Timers } from '../timers.js';
import { remainingValidityMs } from './jwt.js';

/** A refresh either yields an access token or is refused (the session is over). */
export type RefreshOutcome = { kind: 'refreshed'; accessToken: string } | { kind: 'refused'; error: KnownError };

export type Refresher = (refreshToken: string) => Promise<RefreshOutcome>;

export interface RefresherOptions {
  baseUrl: string;
  projectId: string;
  publishableClientKey: string;
  fetch?: FetchFunction;
  clock?: Clock;
  timers?: Timers;
  random?: () => number;
  isOnline?: () => boolean;
}

export const refreshContentType = 'application/x-www-form-urlencoded;charset=UTF-8';

/** The form body of a refresh-token grant. */
export function refreshRequestBody(refreshToken: string, projectId: string, publishableClientKey: string): string {
  return new URLSearchParams({
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: projectId,
    client_secret: publishableClientKey,
  }).toString();
}

/**
 * Decodes a token-endpoint answer. A `REFRESH_TOKEN_ERROR` family error is an
 * expected outcome (signed out); an access token with less than 20 s left at
 * `now` means the service is misconfigured.
 */
export async function processRefreshResponse(
  response: Response,
  url: string,
  now: number,
): Promise<AttemptOutcome<RefreshOutcome>> {
  const processed = await processApiResponse(response, url);
  switch (processed.kind) {
    case 'known-error':
      if (processed.error instanceof KnownError && processed.error.is('REFRESH_TOKEN_ERROR')) {
        return { kind: 'done', value: { kind: 'refused', error: processed.error } };
      }
      throw processed.error;
    case 'rate-limited':
      return { kind: 'retry', delayMs: processed.retryAfterMs ?? 0, failure: processed.error };
    case 'loop-detected':
      return { kind: 'retry', delayMs: 'backoff', failure: processed.error };
    case 'http-error':
      throw processed.error;
    case 'ok':
      return { kind: 'done', value: { kind: 'refreshed', accessToken: readAccessToken(processed.body, url, now) } };
  }
}

/** Creates the function a session refreshes through. */
export function createRefresher(options: RefresherOptions): Refresher {
  const fetchFunction = options.fetch ?? globalFetch;
  const clock = options.clock ?? systemClock;
  const url = apiUrl(options.baseUrl, '/auth/oauth/token');
  return (refreshToken) => {
    const body = refreshRequestBody(refreshToken, options.projectId, options.publishableClientKey);
    const init: RequestInit = {
      method: 'POST',
      headers: { 'content-type': refreshContentType },
      body,
      credentials: 'omit',
      cache: 'no-store',
    };
    const attempt = async (): Promise<AttemptOutcome<RefreshOutcome>> => {
      let response: Response;
      try {
        response = await fetchFunction(url, init);
      } catch (error) {
        if (error instanceof TypeError) return { kind: 'network-error', error };
        throw error;
      }
      return processRefreshResponse(response, url, clock.now());
    };
    const timers = options.timers ?? systemTimers;
    return withRetries(attempt, {
      method: 'POST',
      url,
      timers,
      random: options.random ?? Math.random,
      isOnline: options.isOnline,
    });
  };
}

function readAccessToken(body: unknown, url: string, now: number): string {
  const token = body && typeof body === 'object' ? (body as { access_token?: unknown }).access_token : undefined;
  if (typeof token !== 'string' || token === '') {
    throw new HttpError(
      url,
      200,
      JSON.stringify(body),
      `The token endpoint at ${url} answered without an access_token.`,
    );
  }
  if (remainingValidityMs(token, now) < constants.requiredAccessTokenValidityMs) {
    throw new HttpError(url, 200, '', clientMessages.accessTokenTooShort);
  }
  return token;
}
