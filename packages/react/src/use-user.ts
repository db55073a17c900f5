'use client';
/**
 * `useUser`: the signed-in user, as a thin use of the query hook
 * (`currentUserQuery`, by its name `'user'`, on the provider's `ClientApp`); loading,
 * de-duplication, sessions of other tabs and redirects are the SDK's.
 *
 * Suspense convention: while the user is not loaded yet (first render, or
 * after another tab began a new session), `useUser` suspends, so wrap the
 * part of the tree that reads the user in `<Suspense fallback={...}>`. A
 * failed load is thrown to the nearest error boundary. Once loaded, the
 * component re-renders on every change (sign-in, sign-out, update, another
 * tab) and never shows the user of a session that has ended.
 */
import type { ClientApp, CurrentUser } from '@latchkey/js';
import { clientMessages, KnownError } from '@latchkey/protocol';
import { WorkTracker } from './internal/suspense.js';
import { useAppData } from './internal/use-app-data.js';
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
   * `throw`: throw the `KnownError` `USER_AUTHENTICATION_REQUIRED` (as
   * `app.getUser({ or: 'throw' })` does) for the nearest error boundary.
   */
  or?: UseUserOr;
}

/**
 * The signed-in user, or `null`. Suspends while the user is loading: put a
 * `<Suspense>` boundary above (and an error boundary for failed loads).
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
  const user = useAppData('user', { suspend: true });
  if (user) {
    signInRedirects.forget(app);
    return user;
  }
  if (or === 'redirect') {
    signInRedirects.suspend(app);
    // Navigation done, yet this page is still shown (e.g. a router kept it): wait to be unmounted.
    throw new Promise<never>(() => {});
  }
  if (or === 'throw') throw new KnownError('USER_AUTHENTICATION_REQUIRED', undefined, clientMessages.notSignedIn);
  return null;
}

const signInRedirects = new WorkTracker<ClientApp>((app) => app.redirectToSignIn());
