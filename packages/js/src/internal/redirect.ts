/**
 * Redirect targets must be relative or on the app's own origin (spec §2);
 * anything else (another origin, `//host`, backslash tricks, `javascript:`)
 * is refused before any navigation happens.
 */
import { KnownError } from '@latchkey/protocol';
import type { Timers } from '../options.js';
import { sleep, systemTimers } from './timers.js';

/** Stand-in origin outside a browser: relative targets resolve against it, absolute ones never match it. */
const detachedOrigin = 'https://app.invalid';

/** The page the app runs on, or `null` outside a browser. */
export function currentLocation(): URL | null {
  return typeof window === 'undefined' || !window.location ? null : new URL(window.location.href);
}

/**
 * `target` as a same-origin path (`/path?query#hash`), or a thrown
 * `REDIRECT_URL_NOT_WHITELISTED` error when it leaves `origin`.
 */
export function trustedRedirectPath(target: string, origin: string = detachedOrigin): string {
  let url: URL;
  try {
    url = new URL(target, `${origin}/`);
  } catch {
    throw redirectRefused(target);
  }
  const webScheme = url.protocol === 'http:' || url.protocol === 'https:';
  if (!webScheme || url.origin !== new URL(origin).origin) throw redirectRefused(target);
  // Collapse leading slashes so the path can never be read as `//other-host`.
  return `${url.pathname.replace(/^\/+/, '/')}${url.search}${url.hash}`;
}

/** `target` with `name=value` added to its query, kept relative. */
export function withQueryParam(target: string, name: string, value: string, origin = detachedOrigin): string {
  const url = new URL(trustedRedirectPath(target, origin), `${origin}/`);
  url.searchParams.set(name, value);
  return `${url.pathname}${url.search}${url.hash}`;
}

/**
 * `target` (relative or absolute) as an absolute URL on the page's origin,
 * or `undefined` when it is missing, leaves the origin, or there is no page.
 *
 * @example
 * ```ts
 * sameOriginUrl('/dashboard'); // 'http://localhost:3000/dashboard'
 * sameOriginUrl('https://evil.example/'); // undefined
 * ```
 */
export function sameOriginUrl(target: string | null | undefined): string | undefined {
  if (!target) return undefined;
  try {
    return trustedUrl(target);
  } catch {
    return undefined;
  }
}

/**
 * `target` as an absolute URL on the origin of `location` (the page), or
 * `undefined` when there is no page; one that leaves the origin throws
 * `REDIRECT_URL_NOT_WHITELISTED`.
 */
export function trustedUrl(target: string, location = currentLocation()): string | undefined {
  return location ? new URL(trustedRedirectPath(target, location.origin), location.origin).href : undefined;
}

export interface RedirectorOptions {
  navigate?: (url: string) => void;
  /** Default: the system's. */
  timers?: Timers;
  waitAfterNavigateMs: number;
}

/**
 * Validates, navigates, then, in a browser, waits for the page to go (spec §2:
 * 2000 ms). Outside a browser no page can go: it returns at once, after the
 * caller's own `navigate` if one was given.
 */
export async function redirectTo(target: string, options: RedirectorOptions): Promise<void> {
  await leaveTo(trustedRedirectPath(target, currentLocation()?.origin), options);
}

/**
 * Navigates to `url` on another origin, then waits like `redirectTo`. Only
 * for URLs the SDK built itself (the service's OAuth authorize URL): it does
 * not check the origin, so never pass it input.
 */
export async function leaveTo(url: string, options: RedirectorOptions): Promise<void> {
  const inBrowser = currentLocation() !== null;
  (options.navigate ?? assignLocation)(url);
  if (inBrowser) await sleep(options.timers ?? systemTimers, options.waitAfterNavigateMs);
}

function assignLocation(url: string): void {
  if (typeof window !== 'undefined') window.location.assign(url);
}

function redirectRefused(target: string): KnownError<'REDIRECT_URL_NOT_WHITELISTED'> {
  const message = `Refusing to redirect to ${target}: it is not on this app's origin.`;
  return new KnownError('REDIRECT_URL_NOT_WHITELISTED', undefined, message);
}
