import { useSyncExternalStore } from 'react';

/** The current `window.location.pathname`, updated on back/forward navigation. */
export function useLocationPath(): string {
  return useSyncExternalStore(subscribe, readPath, () => '/');
}

function subscribe(listener: () => void): () => void {
  window.addEventListener('popstate', listener);
  return () => window.removeEventListener('popstate', listener);
}

function readPath(): string {
  return window.location.pathname;
}
