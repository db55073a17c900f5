/**
 * The `after_auth_return_to` query parameter, carried between the sign-in and
 * sign-up pages. Only a target the SDK would redirect to (relative or on this
 * origin) is carried on; anything else is dropped rather than passed along.
 */
import { sameOriginPath } from '@latchkey/js';
import { afterAuthReturnToParam } from '@latchkey/protocol';

/** The page to return to after signing in, as a path on this origin; `null` when absent or untrusted. */
export function currentReturnTo(): string | null {
  if (typeof window === 'undefined') return null;
  const value = new URLSearchParams(window.location.search).get(afterAuthReturnToParam);
  return value ? sameOriginPath(value, window.location.origin) : null;
}

/** `href` with `after_auth_return_to` set to `returnTo` (unchanged when there is none). */
export function withReturnTo(href: string, returnTo: string | null): string {
  if (!returnTo || typeof window === 'undefined') return href;
  const url = new URL(href, window.location.href);
  url.searchParams.set(afterAuthReturnToParam, returnTo);
  return url.origin === window.location.origin ? `${url.pathname}${url.search}${url.hash}` : url.href;
}
