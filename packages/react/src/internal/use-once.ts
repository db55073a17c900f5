/**
 * `useOnce(key, run)`: runs a single-use action (consuming an e-mailed code)
 * at most once per app and key, however often the component mounts. React's
 * StrictMode runs effects twice in development and a remount runs them again;
 * a code is single use, so a second call would turn a success into "already
 * used". The promise is kept per app and key, so every mount reads the same
 * outcome; `retry` forgets it (only offer it for failures that may pass).
 */
import { useCallback, useEffect, useState } from 'react';
import { useApp } from '../provider.js';

export type OnceState<T> =
  | { status: 'pending'; value?: undefined; error?: undefined }
  | { status: 'done'; value: T; error?: undefined }
  | { status: 'failed'; value?: undefined; error: unknown };

const runs = new WeakMap<object, Map<string, Promise<unknown>>>();

/** The outcome of `run` for `key` (`null`: nothing to run, stays pending), and a way to run it anew. */
export function useOnce<T>(key: string | null, run: () => Promise<T>): [OnceState<T>, () => void] {
  const app = useApp();
  const [state, setState] = useState<OnceState<T>>({ status: 'pending' });
  const [attempt, setAttempt] = useState(0);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `run` belongs to `key`; `attempt` starts a retry
  useEffect(() => {
    if (key === null) return;
    const byKey = runs.get(app) ?? new Map<string, Promise<unknown>>();
    runs.set(app, byKey);
    let promise = byKey.get(key) as Promise<T> | undefined;
    if (!promise) {
      promise = run();
      byKey.set(key, promise);
    }
    let live = true;
    promise.then(
      (value) => live && setState({ status: 'done', value }),
      (error: unknown) => live && setState({ status: 'failed', error }),
    );
    return () => {
      live = false;
    };
  }, [app, key, attempt]);

  const retry = useCallback(() => {
    if (key !== null) runs.get(app)?.delete(key);
    setState({ status: 'pending' });
    setAttempt((n) => n + 1);
  }, [app, key]);

  return [state, retry];
}

/** The `code` query parameter of the page's address (e-mailed links are `<page>?code=<code>`), or `null`. */
export function codeFromUrl(): string | null {
  if (typeof window === 'undefined') return null;
  return new URLSearchParams(window.location.search).get('code') || null;
}
