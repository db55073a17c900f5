/**
 * The refresh call (wire-protocol.md §5.3): `POST /api/v1/auth/oauth/token`,
 * form-encoded, OAuth client authentication in the body, no `x-stack-*`
 * headers. A session whose store keeps what it is given (`rotates`) asks for
 * rotation (`latchkey_refresh_rotation=1`, a Latchkey extension) and keeps
 * the new `refresh_token` of the answer; without it the refresh token never
 * changes (the 2.7 protocol). In the refresh-token cookie mode the form has no
 * `refresh_token`: the service reads its HttpOnly cookie, and rotates it there.
 */
import {
  KnownError,
  type RefreshResponseWire,
  refreshRotationField,
  requiredAccessTokenValidityMs,
} from '@latchkey/protocol';
import { HttpError } from '../../errors.js';
import type { Clock, FetchFunction, Timers } from '../../options.js';
import { decodeAnswer, optionalString, readFields } from '../decode/fields.js';
import { attemptOutcome, processApiResponse } from '../http/process-response.js';
import { apiUrl } from '../http/request.js';
import { type AttemptOutcome, sendWithRetries } from '../http/retry.js';
import { systemClock } from '../timers.js';
import { remainingValidityMs } from './jwt.js';

/**
 * A refresh either yields an access token, and the refresh token that replaced
 * the one sent when it was rotated (else null), or is refused (the session is over).
 */
export type RefreshOutcome =
  | { kind: 'refreshed'; accessToken: string; refreshToken: string | null }
  | { kind: 'refused'; error: KnownError };

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
  /**
   * Ask the service to rotate the refresh token: only for a store that keeps
   * the new one where every user of the session reads it (memory, the page's
   * cookies), never for tokens given from elsewhere (a request's), whose
   * owner would go on sending the replaced one and be signed out.
   */
  rotates?: boolean;
}

export const refreshContentType = 'application/x-www-form-urlencoded;charset=UTF-8';

/**
 * The form body of a refresh-token grant; without `refresh_token` when the
 * service's cookie holds it (`null`), with the rotation field when `rotates`.
 */
export function refreshRequestBody(
  refreshToken: string | null,
  projectId: string,
  publishableClientKey: string,
  rotates = false,
): string {
  const form = new URLSearchParams({
    grant_type: 'refresh_token',
    refresh_token: refreshToken ?? '',
    client_id: projectId,
    client_secret: publishableClientKey,
  });
  if (refreshToken === null) form.delete('refresh_token');
  if (rotates) form.set(refreshRotationField, '1');
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
    (body) => ({ kind: 'refreshed', ...readTokens(body, url, now) }),
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
  const clock = options.clock ?? systemClock;
  const url = apiUrl(options.baseUrl, '/auth/oauth/token');
  return (refreshToken) => {
    const body = refreshRequestBody(refreshToken, options.projectId, options.publishableClientKey, options.rotates);
    const init: RequestInit = { method: 'POST', headers: { 'content-type': refreshContentType }, body };
    const decode = (response: Response) => processRefreshResponse(response, url, clock.now());
    return sendWithRetries(() => ({ init, decode }), { ...options, url, method: 'POST' });
  };
}

/** The tokens of a refresh answer; its access token is refused when it would be used up within 20 s of `now`. */
function readTokens(body: unknown, url: string, now: number): RefreshedTokens {
  const tokens = decodeAnswer(refreshCall, body, decodeRefresh);
  if (remainingValidityMs(tokens.accessToken, now) < requiredAccessTokenValidityMs) {
    throw new HttpError(url, 200, '', 'The service issued access tokens that expire in less than 20 seconds.');
  }
  return tokens;
}

const refreshCall = 'POST /auth/oauth/token';

/** What a refresh answer gives: an access token, and a rotated refresh token or null. */
interface RefreshedTokens {
  accessToken: string;
  refreshToken: string | null;
}

/** Decodes a refresh answer: `access_token`, and `refresh_token` when the service rotated it. */
function decodeRefresh(body: unknown): RefreshedTokens {
  return readFields<RefreshResponseWire, RefreshedTokens>(body, (answer) => ({
    accessToken: answer.nonEmptyString('access_token'),
    refreshToken: optionalString(answer, 'refresh_token') || null,
  }));
}
