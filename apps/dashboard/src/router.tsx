/**
 * The dashboard's router: paths below the base path (`/projects/p1/users`),
 * History API navigation, links, and the route table's matching. A path
 * given to `navigate` or `Link` is dashboard-relative and starts with `/`.
 */
import { type AnchorHTMLAttributes, type MouseEvent, useSyncExternalStore } from 'react';
import { basePath } from './config.js';

const navigateEvent = 'dashboard:navigate';

/** The current path below the base path, starting with `/`; the query string is `useSearch`'s. */
export function usePath(): string {
  return useSyncExternalStore(subscribe, currentPath);
}

/** The current query string's parameters (a new object on every change). */
export function useSearch(): URLSearchParams {
  const search = useSyncExternalStore(subscribe, () => window.location.search);
  return new URLSearchParams(search);
}

function currentPath(): string {
  const { pathname } = window.location;
  return pathname.startsWith(basePath) ? `/${pathname.slice(basePath.length)}` : '/';
}

function subscribe(listener: () => void): () => void {
  window.addEventListener('popstate', listener);
  window.addEventListener(navigateEvent, listener);
  return () => {
    window.removeEventListener('popstate', listener);
    window.removeEventListener(navigateEvent, listener);
  };
}

/** The full URL path of a dashboard path. */
function hrefOf(to: string): string {
  return `${basePath}${to.replace(/^\//, '')}`;
}

/** Goes to `to` (dashboard-relative, may carry `?query`); `replace` keeps history as it is. */
export function navigate(to: string, { replace = false } = {}): void {
  const href = hrefOf(to);
  if (replace) window.history.replaceState(null, '', href);
  else window.history.pushState(null, '', href);
  window.dispatchEvent(new Event(navigateEvent));
  if (!replace) window.scrollTo(0, 0);
}

export interface LinkProps extends Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> {
  /** Dashboard-relative path, e.g. `/projects/p1/users`. */
  to: string;
  /** Marked `aria-current="page"` also on paths below `to` (navigation sections). */
  section?: boolean;
}

/** An in-app link: plain clicks change the page without a reload; modified clicks behave as usual. */
export function Link({ to, section = false, onClick, ...props }: LinkProps) {
  const path = usePath();
  const current = path === to || (section && path.startsWith(`${to}/`));
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey) return;
    if (event.altKey || props.target) return;
    event.preventDefault();
    navigate(to);
  };
  return <a href={hrefOf(to)} aria-current={current ? 'page' : undefined} onClick={handleClick} {...props} />;
}

/** Parameters of `path` matched against `pattern` (`/projects/:projectId/users`), or null. */
export function matchPath(pattern: string, path: string): Record<string, string> | null {
  const want = pattern.split('/').filter(Boolean);
  const have = path.split('/').filter(Boolean);
  if (want.length !== have.length) return null;
  const params: Record<string, string> = {};
  for (const [index, part] of want.entries()) {
    const value = have[index]!;
    if (part.startsWith(':')) {
      try {
        params[part.slice(1)] = decodeURIComponent(value);
      } catch {
        return null;
      }
    } else if (part !== value) return null;
  }
  return params;
}
