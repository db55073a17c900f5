'use client';
/**
 * `useConnectedAccount(providerId, options?)`: the signed-in user's account
 * at a provider, or `null`: `connectedAccountQuery` on the provider's
 * `ClientApp`. Suspends until the user is loaded and, with `scopes`, until
 * the service said whether the account grants them.
 */
import { type ConnectedAccount, type ConnectedAccountOptions, connectedAccountQuery } from '@latchkey/js';
import { useQuery } from '../internal/use-app-data.js';
import { useApp } from '../provider.js';

/**
 * The signed-in user's connected account at `providerId`, or `null` when
 * none is connected (with `scopes`) or nobody is signed in. Disconnecting it
 * anywhere in the app, or another session, asks again.
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
  return useQuery(connectedAccountQuery(providerId, options), { suspend: true, app: useApp() });
}
