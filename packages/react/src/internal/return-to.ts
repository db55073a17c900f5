/** The `after_auth_return_to` query parameter, carried between the sign-in and sign-up pages. */
import { afterAuthReturnToParam } from '@latchkey/protocol';

/** The page to return to after signing in, read from the current address. */
export function currentReturnTo(): string | null {
  if (typeof window === 'undefined') return null;
  return new URLSearchParams(window.location.search).get(afterAuthReturnToParam);
}

/** `href` with `after_auth_return_to` set to `returnTo` (unchanged when there is none). */
export function withReturnTo(href: string, returnTo: string | null): string {
  if (!returnTo || typeof window === 'undefined') return href;
  const url = new URL(href, window.location.href);
  url.searchParams.set(afterAuthReturnToParam, returnTo);
  return url.origin === window.location.origin ? `${url.pathname}${url.search}${url.hash}` : url.href;
}
