/**
 * The browser cookie token store (wire-protocol.md §8): the refresh token in
 * `stack-refresh-<projectId>` (1 year), `["<refresh>","<access>"]` in
 * `stack-access` (1 day), the legacy `stack-refresh` read as a fallback and
 * deleted on every write. Cookies are read on every access and polled every
 * 100 ms while someone listens, so two tabs agree. Every read on an https
 * page also sets the `stack-is-https` marker (with `secure`), which tells
 * server-side code that the browser uses https.
 */
import {
  accessTokenCookieMaxAgeSeconds,
  cookieNames,
  cookieStorePollMs,
  refreshTokenCookieMaxAgeSeconds,
} from '@latchkey/protocol';
import type { Timers } from '../../options.js';
import { parseJson } from '../parse-json.js';
import { systemTimers } from '../timers.js';
import type { StoredTokens, TokenStore } from './stored-tokens.js';

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
  return pollingStore(
    () => readCookieTokens(doc, options.projectId),
    (tokens) => writeCookieTokens(doc, options.projectId, tokens),
    options.timers,
  );
}

/**
 * A store over `read` and `write` that tells its listeners of changes made
 * elsewhere (another tab's cookies), found by reading every 100 ms while
 * anyone listens.
 */
export function pollingStore(
  read: () => StoredTokens,
  write: (tokens: StoredTokens) => void,
  timers: Timers = systemTimers,
): TokenStore {
  const listeners = new Set<() => void>();
  /** The tokens as last polled or written here: what the poll compares against. */
  let seen = read();
  let pollHandle: unknown = null;

  const poll = () => {
    pollHandle = null;
    const current = read();
    if (!sameTokens(current, seen)) {
      seen = current;
      for (const listener of [...listeners]) listener();
    }
    // A listener may have unsubscribed the last listener: then polling stops here.
    if (listeners.size > 0 && pollHandle === null) pollHandle = timers.setTimeout(poll, cookieStorePollMs);
  };

  return {
    // A read must not move `seen`: a change made by another tab is reported by the next poll either way.
    read,
    write(tokens) {
      write(tokens);
      seen = read();
    },
    subscribe(listener) {
      listeners.add(listener);
      if (pollHandle === null) pollHandle = timers.setTimeout(poll, cookieStorePollMs);
      return () => {
        listeners.delete(listener);
        if (listeners.size > 0 || pollHandle === null) return;
        timers.clearTimeout(pollHandle);
        pollHandle = null;
      };
    },
  };
}

/** Reads the tokens; the access token counts only if it was stored with the current refresh token. */
export function readCookieTokens(doc: CookieDocument, projectId: string): StoredTokens {
  const cookies = readCookies(doc);
  const refreshToken = cookies.get(cookieNames.refreshToken(projectId)) ?? cookies.get(cookieNames.legacyRefreshToken);
  const pair = parseAccessPair(cookies.get(cookieNames.accessToken));
  const accessToken = refreshToken && pair && pair[0] === refreshToken ? pair[1] : null;
  return { refreshToken: refreshToken ?? null, accessToken };
}

/** Writes (or deletes) the cookies for `tokens` and deletes the legacy cookie. */
function writeCookieTokens(doc: CookieDocument, projectId: string, tokens: StoredTokens): void {
  for (const [name, value, maxAgeSeconds] of sessionCookieValues(projectId, tokens)) {
    setCookie(doc, name, value, maxAgeSeconds);
  }
}

/**
 * The cookies that hold `tokens` (`null`: none) as `[name, value, max-age s]`,
 * a `null` value deleting the cookie: the refresh token, the
 * `[refresh, access]` pair, and the legacy cookie deleted. Server code writes
 * the same (`request-auth.ts`).
 */
export function sessionCookieValues(projectId: string, tokens: StoredTokens | null): [string, string | null, number][] {
  const refreshToken = tokens?.refreshToken || null;
  const pair = refreshToken && tokens?.accessToken ? JSON.stringify([refreshToken, tokens.accessToken]) : null;
  return [
    [cookieNames.refreshToken(projectId), refreshToken, refreshTokenCookieMaxAgeSeconds],
    [cookieNames.accessToken, pair, accessTokenCookieMaxAgeSeconds],
    [cookieNames.legacyRefreshToken, null, 0],
  ];
}

/** `name -> value` of a `document.cookie` string, both decoded; the first occurrence of a name wins. */
export function parseCookies(header: string): Map<string, string> {
  const cookies = new Map<string, string>();
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    const name = decodeCookiePart(part.slice(0, index).trim());
    if (name && !cookies.has(name)) cookies.set(name, decodeCookiePart(part.slice(index + 1).trim()));
  }
  return cookies;
}

/** The page's cookies; on an https page also (re)sets the `stack-is-https` marker. */
function readCookies(doc: CookieDocument): Map<string, string> {
  const cookies = parseCookies(doc.cookie);
  if (isHttps(doc) && !cookies.has(cookieNames.isHttps)) {
    doc.cookie = `${cookieNames.isHttps}=true; ${attributes(doc)}`;
  }
  return cookies;
}

function parseAccessPair(value: string | undefined): [string, string] | null {
  const parsed = parseJson(value ?? '');
  const valid = Array.isArray(parsed) && parsed.length === 2 && parsed.every((v) => typeof v === 'string');
  return valid ? (parsed as [string, string]) : null;
}

/**
 * Writes cookie `name` for `maxAgeSeconds`, or deletes it when `value` is
 * empty or `null` (the same attributes, so the browser matches it). Names and
 * values are percent-encoded, so no token or project id can end the cookie
 * early (`;`), add attributes or smuggle another cookie in.
 */
export function setCookie(doc: CookieDocument, name: string, value: string | null, maxAgeSeconds: number): void {
  const age = value ? maxAgeSeconds : 0;
  // A deleted cookie expired at the epoch.
  const expires = new Date(age && Date.now() + age * 1000).toUTCString();
  doc.cookie = `${encodeURIComponent(name)}=${encodeURIComponent(value ?? '')}; expires=${expires}; max-age=${age}; ${attributes(doc)}`;
}

/** Deletes cookie `name`. */
export function deleteCookie(doc: CookieDocument, name: string): void {
  setCookie(doc, name, null, 0);
}

/** Site-wide, not sent on cross-site subrequests, and https-only on https pages. */
function attributes(doc: CookieDocument): string {
  return `path=/; samesite=lax${isHttps(doc) ? '; secure' : ''}`;
}

function isHttps(doc: CookieDocument): boolean {
  return doc.location?.protocol === 'https:';
}

function decodeCookiePart(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

function sameTokens(a: StoredTokens, b: StoredTokens): boolean {
  return a.accessToken === b.accessToken && a.refreshToken === b.refreshToken;
}

function browserDocument(): CookieDocument {
  if (typeof document === 'undefined') throw new Error("tokenStore: 'cookie' needs a browser document.");
  return document;
}
