/**
 * `useConnectedAccount(providerId, options?)`: the signed-in user's account
 * at a provider, or `null`. Suspends until the user is loaded and, with
 * `scopes`, until the service said whether the account grants them.
 */
import type { ConnectedAccount, ConnectedAccountOptions, CurrentUser } from '@latchkey/js';
import { WorkTracker } from '../internal/suspense.js';
import { useUser } from '../use-user.js';

/** One lookup: its user, provider and scopes, and its answer once there. */
interface Lookup {
  user: CurrentUser;
  providerId: string;
  scopes: string[];
  account?: ConnectedAccount | null;
}

const lookups = new WeakMap<CurrentUser, Map<string, Lookup>>();
const tracker = new WorkTracker<Lookup>(async (lookup) => {
  lookup.account = await lookup.user.getConnectedAccount(lookup.providerId, { scopes: lookup.scopes });
});

/**
 * The signed-in user's connected account at `providerId`, or `null` when
 * none is connected (with `scopes`) or nobody is signed in. A new user
 * object (after a change anywhere in the app) asks again.
 *
 * @example
 * ```tsx
 * const github = useConnectedAccount('github', { scopes: ['repo'] });
 * if (!github) return <button onClick={() => user.linkConnectedAccount('github', { scopes: ['repo'] })}>Connect</button>;
 * ```
 */
export function useConnectedAccount(
  providerId: string,
  options: ConnectedAccountOptions = {},
): ConnectedAccount | null {
  const user = useUser();
  if (!user) return null;
  const scopes = options.scopes ?? [];
  const key = `${providerId} ${scopes.join(' ')}`;
  const byKey = lookups.get(user) ?? new Map<string, Lookup>();
  lookups.set(user, byKey);
  let lookup = byKey.get(key);
  if (!lookup) {
    lookup = { user, providerId, scopes };
    byKey.set(key, lookup);
  }
  tracker.suspend(lookup);
  return lookup.account ?? null;
}
