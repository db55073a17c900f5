/**
 * A user's connected OAuth accounts (wire-protocol.md §9.3), asked the same
 * way by the signed-in user (`me`) and by server code (a user id): one
 * implementation for both. The client adds starting the link flow.
 */
import { isKnownError } from '@latchkey/protocol';
import type { Send } from '../internal/core.js';
import { readFields } from '../internal/decode/fields.js';
import type { OAuthProviderLink } from './user-decoder.js';
import { ignoreAnswer } from './users-api.js';

/**
 * An OAuth account connected to a user, and its provider access token.
 *
 * @example
 * ```ts
 * const github = await user.getConnectedAccount('github', { scopes: ['repo'] });
 * const { accessToken } = await github!.getAccessToken();
 * ```
 */
export interface ConnectedAccount {
  /** The provider id, e.g. `github`. */
  id: string;
  /** The account's id at the provider. */
  accountId: string;
  /** The account's e-mail at the provider, when it gave one. */
  email: string | null;
  /** A provider access token with the scopes the account was got with (refreshed by the service). */
  getAccessToken(): Promise<{ accessToken: string }>;
}

/**
 * Options of `getConnectedAccount`: the provider scopes the account must grant.
 *
 * @example
 * ```ts
 * const options: ConnectedAccountOptions = { scopes: ['repo', 'read:org'] };
 * ```
 */
export interface ConnectedAccountOptions {
  scopes?: string[];
}

/**
 * The connected-account queries of one user.
 *
 * @example
 * ```ts
 * const accounts = await user.listConnectedAccounts();
 * const google = await user.getConnectedAccount('google');
 * await user.unlinkConnectedAccount('github');
 * ```
 */
export interface ConnectedAccountQueries {
  /**
   * The user's account at `providerId`, or `null` when none is connected.
   * With `scopes`, asks the service for an access token with them first and
   * answers `null` when the account does not grant them.
   */
  getConnectedAccount(providerId: string, options?: ConnectedAccountOptions): Promise<ConnectedAccount | null>;
  /** Every connected account of the user (extension). */
  listConnectedAccounts(): Promise<ConnectedAccount[]>;
  /** Disconnects the provider (extension); the service refuses to remove a client's last way to sign in. */
  unlinkConnectedAccount(providerId: string): Promise<void>;
}

/**
 * Whether `error` means "no connected account (with those scopes)" (wire-protocol.md §9.3).
 *
 * @example
 * ```ts
 * const token = await account.getAccessToken().catch((e) => (isMissingConnection(e) ? null : Promise.reject(e)));
 * ```
 */
function isMissingConnection(error: unknown): boolean {
  return (
    isKnownError(error, 'OAUTH_CONNECTION_NOT_CONNECTED_TO_USER') ||
    isKnownError(error, 'OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE')
  );
}

const accountPath = (userRef: string, providerId: string) =>
  `/connected-accounts/${encodeURIComponent(userRef)}/${encodeURIComponent(providerId)}`;

/** `POST /connected-accounts/{me|userId}/{provider}/access-token` with the scopes space-separated. */
function fetchProviderAccessToken(
  send: Send,
  userRef: string,
  providerId: string,
  scopes: string[],
): Promise<{ accessToken: string }> {
  return send(
    { method: 'POST', path: `${accountPath(userRef, providerId)}/access-token`, body: { scope: scopes.join(' ') } },
    (body) =>
      readFields<{ access_token: string }, { accessToken: string }>(body, (answer) => ({
        accessToken: answer.nonEmptyString('access_token'),
      })),
  );
}

/** `DELETE /connected-accounts/{me|userId}/{provider}` (extension). */
function deleteConnectedAccount(send: Send, userRef: string, providerId: string): Promise<void> {
  return send({ method: 'DELETE', path: accountPath(userRef, providerId) }, ignoreAnswer);
}

/**
 * The connected-account queries of `userRef` (`me` or an id) whose providers
 * are `links` (the user's `oauthProviders`); `afterUnlink` runs after a
 * disconnect (the client re-reads the user).
 *
 * @example
 * ```ts
 * const queries = connectedAccountQueries(send, 'me', user.oauthProviders, () => data.reload(userQuery));
 * ```
 */
export function connectedAccountQueries(
  send: Send,
  userRef: string,
  links: readonly OAuthProviderLink[],
  afterUnlink: () => Promise<void> = async () => {},
): ConnectedAccountQueries {
  const account = (link: OAuthProviderLink, scopes: string[]): ConnectedAccount => ({
    id: link.id,
    accountId: link.accountId,
    email: link.email,
    getAccessToken: () => fetchProviderAccessToken(send, userRef, link.id, scopes),
  });
  return {
    async getConnectedAccount(providerId, options = {}) {
      const link = links.find((candidate) => candidate.id === providerId);
      if (!link) return null;
      const scopes = options.scopes ?? [];
      if (scopes.length > 0) {
        try {
          await fetchProviderAccessToken(send, userRef, providerId, scopes);
        } catch (error) {
          if (isMissingConnection(error)) return null;
          throw error;
        }
      }
      return account(link, scopes);
    },
    listConnectedAccounts: async () => links.map((link) => account(link, [])),
    async unlinkConnectedAccount(providerId) {
      await deleteConnectedAccount(send, userRef, providerId);
      await afterUnlink();
    },
  };
}
