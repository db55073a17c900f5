import { useSyncExternalStore } from 'react';

/**
 * The current `window.location.pathname`, updated on back/forward navigation;
 * `serverPath` where there is no window (server-side rendering, and the
 * first render of hydration, so both agree).
 */
export function useLocationPath(serverPath = '/'): string {
  return useSyncExternalStore(subscribe, readPath, () => serverPath);
}

function subscribe(listener: () => void): () => void {
  window.addEventListener('popstate', listener);
  return () => window.removeEventListener('popstate', listener);
}

function readPath(): string {
  return window.location.pathname;
}
