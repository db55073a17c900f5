/**
 * The browser cookie token store (wire-protocol.md §8): the refresh token in
 * `stack-refresh-<projectId>` (1 year), `["<refresh>","<access>"]` in
 * `stack-access` (1 day), the legacy `stack-refresh` read as a fallback and
 * deleted on every write. Cookies are read on every access and polled every
 * 100 ms while someone listens, so two tabs agree.
 */
import { constants, cookieNames } from '@latchkey/protocol';
import { systemTimers, type Timers } from '../timers.js';
import type { StoredTokens, TokenStore } from './token-store.js';

/** The part of `document` the store uses. */
export interface CookieDocument {
  cookie: string;
  location?: { protocol: string };
}

export interface CookieStoreOptions {
  projectId: string;
  document?: CookieDocument;
  timers?: Timers;
}

/** A token store on `document.cookie`. */
export function cookieTokenStore(options: CookieStoreOptions): TokenStore {
  const doc = options.document ?? browserDocument();
  const timers = options.timers ?? systemTimers;
  const listeners = new Set<() => void>();
  let last = readCookieTokens(doc, options.projectId);
  let pollHandle: unknown;

  const poll = () => {
    const current = readCookieTokens(doc, options.projectId);
    if (!sameTokens(current, last)) {
      last = current;
      for (const listener of [...listeners]) listener();
    }
    pollHandle = timers.setTimeout(poll, constants.cookieStorePollMs);
  };

  return {
    read() {
      last = readCookieTokens(doc, options.projectId);
      return last;
    },
    write(tokens) {
      writeCookieTokens(doc, options.projectId, tokens);
      last = readCookieTokens(doc, options.projectId);
    },
    subscribe(listener) {
      listeners.add(listener);
      if (listeners.size === 1) pollHandle = timers.setTimeout(poll, constants.cookieStorePollMs);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) timers.clearTimeout(pollHandle);
      };
    },
  };
}

/** Reads the tokens; the access token counts only if it was stored with the current refresh token. */
export function readCookieTokens(doc: CookieDocument, projectId: string): StoredTokens {
  const cookies = parseCookies(doc.cookie);
  const refreshToken = cookies.get(cookieNames.refreshToken(projectId)) ?? cookies.get(cookieNames.legacyRefreshToken);
  const pair = parseAccessPair(cookies.get(cookieNames.accessToken));
  const accessToken = refreshToken && pair && pair[0] === refreshToken ? pair[1] : null;
  return { refreshToken: refreshToken ?? null, accessToken };
}

/** Writes (or deletes) the cookies for `tokens` and deletes the legacy cookie. */
export function writeCookieTokens(doc: CookieDocument, projectId: string, tokens: StoredTokens): void {
  const secure = doc.location?.protocol === 'https:';
  const refreshName = cookieNames.refreshToken(projectId);
  if (tokens.refreshToken)
    setCookie(doc, refreshName, tokens.refreshToken, constants.refreshTokenCookieMaxAgeSeconds, secure);
  else deleteCookie(doc, refreshName);
  if (tokens.refreshToken && tokens.accessToken) {
    const pair = JSON.stringify([tokens.refreshToken, tokens.accessToken]);
    setCookie(doc, cookieNames.accessToken, pair, constants.accessTokenCookieMaxAgeSeconds, secure);
  } else {
    deleteCookie(doc, cookieNames.accessToken);
  }
  deleteCookie(doc, cookieNames.legacyRefreshToken);
}

/** `name -> value` of a `document.cookie` string; the first occurrence of a name wins. */
export function parseCookies(header: string): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    const name = part.slice(0, index).trim();
    if (name && !cookies.has(name)) cookies.set(name, decodeCookieValue(part.slice(index + 1).trim()));
  }
  return cookies;
}

function parseAccessPair(value: string | undefined): [string, string] | null {
  if (!value) return null;
  try {
    const parsed: unknown = JSON.parse(value);
    const valid = Array.isArray(parsed) && parsed.length === 2 && parsed.every((v) => typeof v === 'string');
    return valid ? (parsed as [string, string]) : null;
  } catch {
    return null;
  }
}

function setCookie(doc: CookieDocument, name: string, value: string, maxAgeSeconds: number, secure: boolean): void {
  const expires = new Date(Date.now() + maxAgeSeconds * 1000).toUTCString();
  const flags = `expires=${expires}; max-age=${maxAgeSeconds}; path=/; samesite=lax${secure ? '; secure' : ''}`;
  doc.cookie = `${name}=${encodeURIComponent(value)}; ${flags}`;
}

function deleteCookie(doc: CookieDocument, name: string): void {
  doc.cookie = `${name}=; expires=Thu, 01 Jan 1970 00:00:00 GMT; max-age=0; path=/`;
}

function decodeCookieValue(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function sameTokens(a: StoredTokens, b: StoredTokens): boolean {
  return a.accessToken === b.accessToken && a.refreshToken === b.refreshToken;
}

function browserDocument(): CookieDocument {
  if (typeof document === 'undefined') throw new Error("tokenStore: 'cookie' needs a browser document.");
  return document;
}
