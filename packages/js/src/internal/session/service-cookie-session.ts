/**
 * A session of the refresh-token cookie mode as a request to the app's own
 * server carries it (the service on the app's origin, its HttpOnly cookie at
 * `Path=/`): the refresh token in the service's cookie
 * (`__Host-latchkey-refresh-<projectId>` over https, `latchkey-refresh-<projectId>`
 * with an operator's `path`), and the access token server code refreshed with
 * it in `latchkey-access-<projectId>`, HttpOnly too, as `[tag, accessToken]`.
 * The tag is a digest of the refresh token it was refreshed with, so the
 * access token counts only beside that very cookie (not after a sign-out, nor
 * in another user's session), and no copy of the refresh token is made.
 * Web APIs only (`crypto.subtle`).
 */
import { refreshCookieName } from '@latchkey/protocol';
import { parseJson } from '../parse-json.js';
import { parseCookies } from './cookie-store.js';
import type { StoredTokens } from './stored-tokens.js';

/** The HttpOnly cookie server code keeps a session's access token in (this mode's `stack-access`). */
export const serviceAccessCookieName = (projectId: string) => `latchkey-access-${projectId}`;

/** The names the service's cookie has, the one it reads first first. */
const serviceRefreshCookieNames = (projectId: string) => [
  `__Host-${refreshCookieName(projectId)}`,
  refreshCookieName(projectId),
];

/** The readable cookie of the browser SDK in this mode: the session's handle (`service-cookie-store.ts`). */
export const sessionHandleCookieName = (projectId: string) => `latchkey-session-${projectId}`;

/**
 * The refresh token of the service's cookie in a `cookie` header and the
 * name it came by, or null. A name sent twice (a cookie planted by a sibling
 * subdomain beside the service's) counts as no session, as the service counts it.
 */
export function serviceRefreshToken(cookie: string, projectId: string): { name: string; token: string } | null {
  for (const name of serviceRefreshCookieNames(projectId)) {
    const values = cookieValues(cookie, name);
    if (values.length === 1 && values[0]) return { name, token: values[0] };
    if (values.length > 0) return null;
  }
  return null;
}

/** The access token of `latchkey-access-<projectId>` when it was stored with `refreshToken`, else null. */
export async function boundAccessToken(
  cookie: string,
  projectId: string,
  refreshToken: string,
): Promise<string | null> {
  const stored = parseJson(parseCookies(cookie).get(serviceAccessCookieName(projectId)) ?? '');
  if (!Array.isArray(stored) || stored.length !== 2 || !stored.every((part) => typeof part === 'string')) return null;
  const [tag, accessToken] = stored as [string, string];
  return tag === (await sessionTag(refreshToken)) ? accessToken : null;
}

/** The value of `latchkey-access-<projectId>` for `tokens` (null when there is no access token to keep). */
export async function serviceAccessCookieValue(tokens: StoredTokens): Promise<string | null> {
  if (!tokens.refreshToken || !tokens.accessToken) return null;
  return JSON.stringify([await sessionTag(tokens.refreshToken), tokens.accessToken]);
}

/** SHA-256 of the refresh token, base64url, 128 bits of it: names the session, reveals nothing of the token. */
async function sessionTag(refreshToken: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(refreshToken)));
  let binary = '';
  for (const byte of digest.subarray(0, 16)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Every raw value of cookie `name` in a `cookie` header, in its order. */
function cookieValues(cookie: string, name: string): string[] {
  const values: string[] = [];
  for (const part of cookie.split(';')) {
    const index = part.indexOf('=');
    if (index >= 0 && part.slice(0, index).trim() === name) values.push(part.slice(index + 1).trim());
  }
  return values;
}
