/**
 * Where links in e-mails point: the caller's `callbackUrl`, else the handler
 * page on the current origin (browsers), else the page itself when it was
 * configured as an absolute URL. The service only mails links to trusted
 * domains, so a relative page outside a browser has no answer.
 */
import { currentLocation } from './redirect.js';

/** The absolute URL of `page` (a handler page, relative or absolute); `undefined` outside a browser for a relative one. */
export function absolutePageUrl(page: string): string | undefined {
  const location = currentLocation();
  if (location) return new URL(page, location.origin).href;
  return /^https?:\/\//i.test(page) ? page : undefined;
}

/** `given`, or `page` made absolute; outside a browser with neither, a developer error naming `call`. */
export function callbackUrl(call: string, page: string, given: string | undefined): string {
  const url = given ?? absolutePageUrl(page);
  if (url !== undefined) return url;
  throw new TypeError(`${call}: outside a browser, pass { callbackUrl }: the absolute URL of your ${page} page.`);
}
