/**
 * `useUser`: the signed-in user, as a thin `useSyncExternalStore` adapter over
 * `app.subscribeUser` / `app.getUserSnapshot`.
 *
 * Convention: while the user is not loaded yet, `useUser` suspends (it throws
 * the load promise), so wrap the part of the tree that reads the user in
 * `<Suspense fallback={...}>`. Once loaded it re-renders on every change.
 */
import type { ClientApp, CurrentUser } from '@latchkey/js';
import { clientMessages } from '@latchkey/protocol';
import { useCallback, useSyncExternalStore } from 'react';
import { useApp } from './provider.js';

/**
 * What `useUser` does when nobody is signed in.
 *
 * @example
 * ```ts
 * const or: UseUserOr = 'redirect';
 * ```
 */
export type UseUserOr = 'return-null' | 'redirect' | 'throw';

/**
 * Options of `useUser`.
 *
 * @example
 * ```ts
 * useUser({ or: 'throw' });
 * ```
 */
export interface UseUserOptions {
  /**
   * `return-null` (default): return `null`. `redirect`: send the visitor to the
   * sign-in page (with `after_auth_return_to`) and stay suspended meanwhile.
   * `throw`: throw an error for the nearest error boundary.
   */
  or?: UseUserOr;
}

/**
 * The signed-in user, or `null`. Suspends while the user is loading.
 *
 * @example
 * ```tsx
 * function Greeting() {
 *   const user = useUser();
 *   return user ? <p>Hello {user.displayName ?? user.primaryEmail}</p> : <a href="/handler/sign-in">Sign in</a>;
 * }
 * // <Suspense fallback={<Spinner />}><Greeting /></Suspense>
 *
 * function Protected() {
 *   const user = useUser({ or: 'redirect' }); // never null
 *   return <p>{user.primaryEmail}</p>;
 * }
 * ```
 */
export function useUser(options: { or: 'redirect' | 'throw' }): CurrentUser;
export function useUser(options?: UseUserOptions): CurrentUser | null;
export function useUser({ or = 'return-null' }: UseUserOptions = {}): CurrentUser | null {
  const app = useApp();
  const subscribe = useCallback((listener: () => void) => app.subscribeUser(listener), [app]);
  const getSnapshot = useCallback(() => app.getUserSnapshot(), [app]);
  const snapshot = useSyncExternalStore(subscribe, getSnapshot, getSnapshot);

  const user = snapshot === undefined ? awaitLoad(app) : loadedSnapshot(app, snapshot);
  if (user !== null) return user;
  if (or === 'redirect') return awaitRedirect(app);
  if (or === 'throw') throw new Error(clientMessages.notSignedIn);
  return null;
}

/** A promise thrown to Suspense, shared by every component that needs it. */
interface Pending<T> {
  promise: Promise<void>;
  status: 'pending' | 'done' | 'failed';
  value?: T;
  error?: unknown;
}

const loads = new WeakMap<ClientApp, Pending<CurrentUser | null>>();
const redirects = new WeakMap<ClientApp, Pending<unknown>>();

function track<T>(map: WeakMap<ClientApp, Pending<T>>, app: ClientApp, start: () => Promise<T>): Pending<T> {
  const existing = map.get(app);
  if (existing) return existing;
  const entry: Pending<T> = { status: 'pending', promise: Promise.resolve() };
  entry.promise = start().then(
    (value) => {
      entry.status = 'done';
      entry.value = value;
    },
    (error: unknown) => {
      entry.status = 'failed';
      entry.error = error;
    },
  );
  map.set(app, entry);
  return entry;
}

/** Suspends until `getUser()` settles; falls back on its result if the snapshot is still empty. */
function awaitLoad(app: ClientApp): CurrentUser | null {
  const entry = track(loads, app, () => app.getUser({ or: 'return-null' }));
  if (entry.status === 'pending') throw entry.promise;
  if (entry.status === 'failed') throwAndForget(loads, app, entry);
  return entry.value ?? null;
}

/** Drops finished work once the store has a value of its own. */
function loadedSnapshot(app: ClientApp, snapshot: CurrentUser | null): CurrentUser | null {
  if (loads.get(app)?.status === 'done') loads.delete(app);
  if (snapshot !== null) redirects.delete(app);
  return snapshot;
}

/** Starts one redirect to sign-in per app and stays suspended while it runs. */
function awaitRedirect(app: ClientApp): never {
  const entry = track(redirects, app, () => app.redirectToSignIn());
  if (entry.status === 'failed') throwAndForget(redirects, app, entry);
  if (entry.status === 'pending') throw entry.promise;
  // Navigation done, yet this page is still shown (e.g. a router kept it): wait to be unmounted.
  throw new Promise<never>(() => {});
}

/**
 * Throws a failure and forgets it once this render pass is over (React retries
 * a failed render once, synchronously), so that a later retry, e.g. an error
 * boundary reset, starts again.
 */
function throwAndForget<T>(map: WeakMap<ClientApp, Pending<T>>, app: ClientApp, entry: Pending<T>): never {
  queueMicrotask(() => {
    if (map.get(app) === entry) map.delete(app);
  });
  throw entry.error;
}
