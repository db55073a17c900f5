/**
 * The user's tokens as an incoming request carries them (wire-protocol.md §8):
 * the `x-stack-auth` JSON header (`{"accessToken", "refreshToken"}`, what
 * `user.getAuthHeaders()` produces) wins; otherwise the cookies the browser
 * token store writes, read by the same rules (the access token counts only
 * when stored with the current refresh token); otherwise the refresh token
 * of the service's HttpOnly cookie (the refresh-token cookie mode, with the
 * service on the app's origin: `service-cookie-session.ts`); otherwise an
 * access token alone as `Authorization: Bearer <token>` (API clients).
 */
import { headers } from '@latchkey/protocol';
import type { HeadersLike, RequestLike, RequestTokenStore } from '../../server-types.js';
import { readCookieTokens } from './cookie-store.js';
import { serviceRefreshToken } from './service-cookie-session.js';
import type { StoredTokens } from './stored-tokens.js';

/** The tokens of `source`: a request, its headers, or tokens given as they are. */
export function requestTokens(source: RequestTokenStore, projectId: string): StoredTokens {
  return requestSession(source, projectId).tokens;
}

/**
 * The tokens of `source` and, when they came from the service's cookie, the
 * request's `cookie` header (where the access token bound to it is:
 * `boundAccessToken`) and the cookie's name; the tokens then have no access token yet.
 */
export function requestSession(
  source: RequestTokenStore,
  projectId: string,
): { tokens: StoredTokens; serviceCookie: { header: string; name: string } | null } {
  if (isTokens(source)) {
    return {
      tokens: { accessToken: source.accessToken ?? null, refreshToken: source.refreshToken ?? null },
      serviceCookie: null,
    };
  }
  const header = headerReader(isRequest(source) ? source.headers : source);
  const cookie = header('cookie');
  const tokens = authHeaderTokens(header(headers.authJson)) ?? cookieTokens(cookie, projectId);
  if (tokens.accessToken || tokens.refreshToken) return { tokens, serviceCookie: null };
  const fromService = cookie ? serviceRefreshToken(cookie, projectId) : null;
  if (cookie && fromService) {
    const serviceCookie = { header: cookie, name: fromService.name };
    return { tokens: { accessToken: null, refreshToken: fromService.token }, serviceCookie };
  }
  const bearer = header('authorization')?.match(/^Bearer\s+(\S+)\s*$/i)?.[1];
  return { tokens: { accessToken: bearer ?? null, refreshToken: null }, serviceCookie: null };
}

/** The `x-stack-auth` header's tokens; `null` when absent or not the JSON object it should be. */
function authHeaderTokens(value: string | null): StoredTokens | null {
  if (!value) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    return null;
  }
  if (typeof parsed !== 'object' || parsed === null) return null;
  const { accessToken, refreshToken } = parsed as Record<string, unknown>;
  return {
    accessToken: typeof accessToken === 'string' ? accessToken : null,
    refreshToken: typeof refreshToken === 'string' ? refreshToken : null,
  };
}

function cookieTokens(cookie: string | null, projectId: string): StoredTokens {
  if (!cookie) return { accessToken: null, refreshToken: null };
  return readCookieTokens({ cookie }, projectId);
}

/** Reads one header by name, case-insensitively; repeated values are joined (`; ` for cookies). */
export function headerReader(source: HeadersLike): (name: string) => string | null {
  if (typeof source.get === 'function') return (name) => (source as { get(name: string): string | null }).get(name);
  const entries = Object.entries(source as Record<string, string | readonly string[] | undefined>);
  return (name) => {
    const values = entries.filter(([key]) => key.toLowerCase() === name).flatMap(([, value]) => value ?? []);
    return values.length === 0 ? null : values.join(name === 'cookie' ? '; ' : ', ');
  };
}

function isRequest(source: RequestTokenStore): source is RequestLike {
  const candidate = (source as Partial<RequestLike>).headers;
  return typeof candidate === 'object' && candidate !== null;
}

type GivenTokens = { accessToken?: string | null; refreshToken?: string | null };

function isTokens(source: RequestTokenStore): source is GivenTokens {
  if (isRequest(source) || typeof (source as { get?: unknown }).get === 'function') return false;
  return 'accessToken' in source || 'refreshToken' in source;
}
