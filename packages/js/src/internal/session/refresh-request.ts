/**
 * The refresh call (wire-protocol.md §5.3): `POST /api/v1/auth/oauth/token`,
 * form-encoded, OAuth client authentication in the body, no `x-stack-*`
 * headers. Only `access_token` is kept: refresh tokens are not rotated. In the
 * refresh-token cookie mode the form has no `refresh_token`: the service reads
 * its HttpOnly cookie instead.
 */
import { KnownError, type RefreshResponseWire, requiredAccessTokenValidityMs } from '@latchkey/protocol';
import { HttpError } from '../../errors.js';
import type { Clock, FetchFunction, Timers } from '../../options.js';
import { decodeAnswer, readFields } from '../decode/fields.js';
import { attemptOutcome, processApiResponse } from '../http/process-response.js';
import { apiUrl, globalFetch } from '../http/request.js';
import { type AttemptOutcome, sendWithRetries } from '../http/retry.js';
import { systemClock, systemTimers } from '../timers.js';
import { remainingValidityMs } from './jwt.js';

/** A refresh either yields an access token or is refused (the session is over). */
export type RefreshOutcome = { kind: 'refreshed'; accessToken: string } | { kind: 'refused'; error: KnownError };

/** Refreshes with `refreshToken`, or with the service's cookie when it is `null` (the cookie mode). */
export type Refresher = (refreshToken: string | null) => Promise<RefreshOutcome>;

export interface RefresherOptions {
  baseUrl: string;
  projectId: string;
  publishableClientKey: string;
  fetch?: FetchFunction;
  clock?: Clock;
  timers?: Timers;
  random?: () => number;
  isOnline?: () => boolean;
  /** The refresh-token cookie mode (`tokenStore: 'httponly-cookie'`). */
  serviceCookie?: boolean;
}

export const refreshContentType = 'application/x-www-form-urlencoded;charset=UTF-8';

/** The form body of a refresh-token grant; without `refresh_token` when the service's cookie holds it (`null`). */
export function refreshRequestBody(
  refreshToken: string | null,
  projectId: string,
  publishableClientKey: string,
): string {
  const form = new URLSearchParams({
    grant_type: 'refresh_token',
    refresh_token: refreshToken ?? '',
    client_id: projectId,
    client_secret: publishableClientKey,
  });
  if (refreshToken === null) form.delete('refresh_token');
  return form.toString();
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
  return attemptOutcome<RefreshOutcome>(
    await processApiResponse(response, url),
    (body) => ({ kind: 'refreshed', accessToken: readAccessToken(body, url, now) }),
    (error) => {
      if (error instanceof KnownError && error.is('REFRESH_TOKEN_ERROR')) {
        return { kind: 'done', value: { kind: 'refused', error } };
      }
      throw error;
    },
  );
}

/** Creates the function a session refreshes through. */
export function createRefresher(options: RefresherOptions): Refresher {
  const fetch = options.fetch ?? globalFetch;
  const clock = options.clock ?? systemClock;
  const timers = options.timers ?? systemTimers;
  const random = options.random ?? Math.random;
  const url = apiUrl(options.baseUrl, '/auth/oauth/token');
  return (refreshToken) => {
    const body = refreshRequestBody(refreshToken, options.projectId, options.publishableClientKey);
    const init: RequestInit = { method: 'POST', headers: { 'content-type': refreshContentType }, body };
    const decode = (response: Response) => processRefreshResponse(response, url, clock.now());
    return sendWithRetries(() => ({ init, decode }), {
      fetch,
      url,
      method: 'POST',
      timers,
      random,
      isOnline: options.isOnline,
      serviceCookie: options.serviceCookie,
    });
  };
}

/** The access token of a refresh answer, refused when it would be used up within 20 s of `now`. */
function readAccessToken(body: unknown, url: string, now: number): string {
  const token = decodeAnswer(refreshCall, body, decodeRefresh);
  if (remainingValidityMs(token, now) < requiredAccessTokenValidityMs) {
    throw new HttpError(url, 200, '', 'The service issued access tokens that expire in less than 20 seconds.');
  }
  return token;
}

const refreshCall = 'POST /auth/oauth/token';

/** Decodes a refresh answer: only `access_token` is read (refresh tokens are not rotated, decision b). */
export function decodeRefresh(body: unknown): string {
  return readFields<RefreshResponseWire, string>(body, (answer) => answer.nonEmptyString('access_token'));
}
