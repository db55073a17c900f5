/**
 * The store of `tokenStore: 'httponly-cookie'`. The refresh token is the
 * service's HttpOnly cookie, which no script can read, so this store never
 * holds it: it keeps the access token in memory (lost on reload, refreshed
 * from the cookie), and in the readable cookie `latchkey-session-<projectId>`
 * the session's handle (`Session`): not a credential, only the sign that a
 * session exists and which one, so a reload knows whether to refresh and
 * tabs see each other sign in and out (polled like the cookie store).
 */
import { refreshTokenCookieMaxAgeSeconds } from '@latchkey/protocol';
import type { Timers } from '../../options.js';
import { type CookieDocument, parseCookies, pollingStore, setCookie } from './cookie-store.js';
import type { StoredTokens, TokenStore } from './stored-tokens.js';

/** Name of the readable cookie that holds the session's handle. */
const sessionHandleCookie = (projectId: string) => `latchkey-session-${projectId}`;

/** The store; `document` defaults to the page's. */
export function serviceCookieStore(options: {
  projectId: string;
  document?: CookieDocument;
  timers?: Timers;
}): TokenStore {
  const doc = options.document ?? document;
  const name = sessionHandleCookie(options.projectId);
  let kept: StoredTokens = { accessToken: null, refreshToken: null };
  const read = (): StoredTokens => {
    const handle = parseCookies(doc.cookie).get(name) || null;
    // The access token in memory belongs to the session it was stored with; another tab's session needs its own.
    return { refreshToken: handle, accessToken: handle && handle === kept.refreshToken ? kept.accessToken : null };
  };
  const write = (tokens: StoredTokens) => {
    kept = { ...tokens };
    setCookie(doc, name, tokens.refreshToken, refreshTokenCookieMaxAgeSeconds);
  };
  return pollingStore(read, write, options.timers);
}
