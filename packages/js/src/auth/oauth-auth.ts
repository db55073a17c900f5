/**
 * OAuth in `ClientApp`: the module that signs in (or up) with a provider and
 * finishes the flow on the `oauth-callback` page, and the connected-accounts
 * slice of `CurrentUser` (read, connect, disconnect), which starts the same
 * flow to link a provider.
 */
import { KnownError } from '@latchkey/protocol';
import { currentLocation, sameOriginUrl, trustedUrl } from '../internal/redirect.js';
import { accountKey, type ClientScope } from '../users/account-data.js';
import {
  type ConnectedAccount,
  type ConnectedAccountOptions,
  type ConnectedAccountQueries,
  connectedAccountQueries,
} from '../users/connected-accounts.js';
import type { UserData } from '../users/user-decoder.js';
import { completeSignIn, pageReturnTo } from './client-sign-in.js';
import {
  browserOnly,
  exchangeCode,
  flowReturnTo,
  type OAuthFlow,
  oauthRedirectUri,
  startOAuthFlow,
  takeFlowReturnTo,
  takeVerifier,
  withoutCodeAndState,
} from './oauth.js';

/**
 * Sign-in with an OAuth provider.
 *
 * @example
 * ```ts
 * await app.signInWithOAuth('github', { returnTo: '/dashboard' });
 * ```
 */
export interface OAuthSignIn {
  /**
   * Signs in (or up) with an OAuth provider enabled for the project (browser
   * only): goes to the provider through the service, which comes back to the
   * `oauth-callback` page (`callOAuthCallback`). The flow then ends on
   * `returnTo`, else the page's `after_auth_return_to`, else the
   * after-sign-in (or after-sign-up) page. A flow that fails (cancelled at
   * the provider, refused by the account rules) ends on `errorReturnTo` with
   * `errorCode` and `message` in its query, else on the app's `error` page;
   * both must be on this origin (REDIRECT_URL_NOT_WHITELISTED otherwise).
   * Outside a browser it throws.
   *
   * @example
   * ```ts
   * await app.signInWithOAuth('github', { returnTo: '/dashboard', errorReturnTo: '/login' });
   * ```
   */
  signInWithOAuth(providerId: string, options?: { returnTo?: string; errorReturnTo?: string }): Promise<void>;
  /**
   * Finishes an OAuth flow on the `oauth-callback` page: takes `code` and
   * `state` off the address bar, exchanges the code with the verifier kept
   * for that state, stores the session, then goes to where the flow asked to
   * end when that is on this origin, else the after-sign-up (new user) or
   * after-sign-in page. `false` (nothing done) when the page carries no `code`
   * and `state`, or when no verifier is kept for that state (expired, another
   * browser, a flow this app did not start: spec §4 ignores it silently). Failures of the exchange are
   * thrown as their `KnownError`s; an OAuth error answer without a known code
   * as `INVALID_AUTHORIZATION_CODE`.
   *
   * @example
   * ```ts
   * try { await app.callOAuthCallback(); } catch (error) { showError(error); }
   * ```
   */
  callOAuthCallback(): Promise<boolean>;
}

/** The OAuth sign-in module of `ClientApp`. */
export function oauthSignIn(scope: ClientScope): OAuthSignIn {
  return {
    async signInWithOAuth(providerId, options = {}) {
      // A `returnTo` the caller gave must stay on this origin (REDIRECT_URL_NOT_WHITELISTED otherwise).
      const given = options.returnTo === undefined ? undefined : trustedUrl(options.returnTo);
      const errorRedirectUrl = options.errorReturnTo === undefined ? undefined : trustedUrl(options.errorReturnTo);
      const flow: OAuthFlow = {
        providerId,
        type: 'authenticate',
        afterCallbackRedirectUrl: given ?? sameOriginUrl(pageReturnTo()),
        ...(errorRedirectUrl ? { errorRedirectUrl } : {}),
      };
      await startOAuthFlow(scope.core, scope.oauth, flow, 'signInWithOAuth');
    },
    async callOAuthCallback() {
      const location = currentLocation();
      if (!location || typeof document === 'undefined') {
        throw browserOnly('callOAuthCallback');
      }
      const code = location.searchParams.get('code');
      const state = location.searchParams.get('state');
      if (!code || !state) return false;
      const clean = withoutCodeAndState(location.href);
      window.history.replaceState(window.history.state, '', clean);
      const verifier = takeVerifier(document, state);
      const returnTo = takeFlowReturnTo(document, state);
      if (verifier === null) return false;
      const redirectUri = oauthRedirectUri(scope.core.urls.oauthCallback) ?? clean;
      const { serviceCookie } = scope.core.session;
      const result = await exchangeCode({ ...scope.oauth, code, verifier, redirectUri, serviceCookie }).catch(
        (error: unknown) => {
          // A second step asked for then ends where the flow asked to (`MultiFactorAttempt.returnTo`).
          if (returnTo) flowReturnTo.set(error as Error, returnTo); // every failure here is an Error
          throw error;
        },
      );
      // The flow ends where it asked to (`afterCallbackRedirectUrl`), not at this page's return-to.
      await completeSignIn(scope, result, false, result.afterCallbackRedirectUrl);
      return true;
    },
  };
}

/**
 * Options of `CurrentUser.getConnectedAccount`: the scopes the account must
 * grant, and what to do when it is not connected (with them): answer `null`
 * (default) or start connecting it (`'redirect'`).
 *
 * @example
 * ```ts
 * const github = await user.getConnectedAccount('github', { scopes: ['repo'], or: 'redirect' } satisfies GetConnectedAccountOptions);
 * ```
 */
export interface GetConnectedAccountOptions extends ConnectedAccountOptions {
  or?: 'return-null' | 'redirect';
}

/**
 * Options of `CurrentUser.linkConnectedAccount`: extra provider scopes, and
 * the page to come back to (default: this page).
 *
 * @example
 * ```ts
 * await user.linkConnectedAccount('github', { scopes: ['repo'], returnTo: '/settings' } satisfies LinkConnectedAccountOptions);
 * ```
 */
export interface LinkConnectedAccountOptions {
  scopes?: string[];
  returnTo?: string;
}

/**
 * The connected-accounts slice of `CurrentUser`.
 *
 * @example
 * ```ts
 * const github = await user.getConnectedAccount('github', { scopes: ['repo'], or: 'redirect' });
 * ```
 */
export interface ConnectedAccountActions extends ConnectedAccountQueries {
  /**
   * The user's account at `providerId`, or `null` when none is connected
   * (with `scopes`); with `or: 'redirect'` a missing one is connected instead
   * (browser only: goes to the provider, and the promise rejects with
   * `OAUTH_CONNECTION_NOT_CONNECTED_TO_USER` once the page is going).
   */
  getConnectedAccount(
    providerId: string,
    options: ConnectedAccountOptions & { or: 'redirect' },
  ): Promise<ConnectedAccount>;
  getConnectedAccount(providerId: string, options?: GetConnectedAccountOptions): Promise<ConnectedAccount | null>;
  /**
   * Connects an account at `providerId` to the user (browser only): goes to
   * the provider and back through the `oauth-callback` page, which ends on
   * `returnTo` (default: this page). `scopes` asks the provider for more.
   */
  linkConnectedAccount(providerId: string, options?: LinkConnectedAccountOptions): Promise<void>;
  /** Disconnects the provider, then re-reads the user; refused (`SCHEMA_ERROR`) when it is the last way to sign in. */
  unlinkConnectedAccount(providerId: string): Promise<void>;
}

/** The connected-accounts slice of `user`, the signed-in user of `scope`. */
export function connectedAccountActions(user: UserData, scope: ClientScope): ConnectedAccountActions {
  const connectedAccounts = connectedAccountQueries(scope.send, 'me', user.oauthProviders, async () => {
    await scope.reloadUser();
    await scope.data.invalidate(accountKey('connectedAccounts')); // they read the user just reloaded
  });
  const linkConnectedAccount = linkAccount(scope);
  return {
    ...connectedAccounts,
    getConnectedAccount: (async (providerId: string, options: GetConnectedAccountOptions = {}) => {
      const account = await connectedAccounts.getConnectedAccount(providerId, options);
      if (account || options.or !== 'redirect') return account;
      await linkConnectedAccount(providerId, { scopes: options.scopes });
      throw new KnownError('OAUTH_CONNECTION_NOT_CONNECTED_TO_USER', undefined, notConnected(providerId));
    }) as ConnectedAccountActions['getConnectedAccount'],
    linkConnectedAccount,
  };
}

const notConnected = (providerId: string) =>
  `The user has no connected ${providerId} account (with those scopes); went to connect it.`;

/** `linkConnectedAccount` of the user of `scope`: a `link` flow with the session's access token. */
function linkAccount(scope: ClientScope): ConnectedAccountActions['linkConnectedAccount'] {
  return async (providerId, options = {}) => {
    const call = 'CurrentUser.linkConnectedAccount';
    const token = (await scope.core.session.getTokens())?.accessToken;
    if (!token) throw new KnownError('USER_AUTHENTICATION_REQUIRED', undefined, `${call}: nobody is signed in.`);
    const location = currentLocation();
    const returnTo = options.returnTo ?? location?.href;
    // Checked here, so a foreign `returnTo` is refused before the user leaves (REDIRECT_URL_NOT_WHITELISTED).
    const afterCallbackRedirectUrl = returnTo ? trustedUrl(returnTo, location) : undefined;
    const flow = { providerId, type: 'link' as const, token, afterCallbackRedirectUrl, providerScopes: options.scopes };
    await startOAuthFlow(scope.core, scope.oauth, flow, call);
  };
}
