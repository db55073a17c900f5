/**
 * `ClientApp`: the SDK for code running on behalf of an end user (browser or
 * Node). An audience like the others (`internal/mounted.ts`): the
 * publishable key plus the user's session as credentials (`ClientScope`),
 * and the modules it mounts: password, e-mail, OAuth and passkey sign-in, the
 * second factor, the current user, team invitations, its data and the handler redirects.
 */
import { type ClientEmailFlows, clientEmailFlows } from './auth/client-email-flows.js';
import { type HandlerRedirects, handlerRedirects } from './auth/client-sign-in.js';
import { accountSecuritySignIn } from './auth/deferred.js';
import type { MfaSignIn } from './auth/mfa-auth.js';
import { type OAuthSignIn, oauthSignIn } from './auth/oauth-auth.js';
import type { PasskeySignIn } from './auth/passkey-auth.js';
import { type CredentialAuth, credentialAuth } from './auth/password-auth.js';
import { type ClientAppData, clientAppData } from './client-app-data.js';
import { createCore } from './internal/core.js';
import { globalFetch } from './internal/http/retry.js';
import { mounted } from './internal/mounted.js';
import { requireOption } from './internal/require-options.js';
import type { Clock, FetchFunction, Timers, TokenStoreOption } from './options.js';
import { type TeamInvitationCodes, teamInvitationCodes } from './teams/invitation-codes.js';
import type { HandlerUrls } from './urls.js';
import {
  type CurrentUserAccess,
  createClientScope,
  currentUserAccess,
  primeCurrentUser,
} from './users/current-user.js';
import type { UserData } from './users/user-decoder.js';

/**
 * Options of `new ClientApp(...)`.
 *
 * @example
 * ```ts
 * const options: ClientAppOptions = {
 *   projectId, publishableClientKey, baseUrl: 'https://auth.example.com',
 *   tokenStore: 'cookie', urls: { afterSignIn: '/dashboard' },
 * };
 * ```
 */
export interface ClientAppOptions {
  projectId: string;
  publishableClientKey: string;
  /**
   * The service's origin, e.g. `https://auth.example.com`; calls go to
   * `<baseUrl>/api/v1` (a base already ending in `/api/v1` is accepted too).
   */
  baseUrl: string;
  /**
   * `'cookie'` in browsers, `'memory'` for one process, or tokens you hold
   * (read once). `'httponly-cookie'` in browsers when the service runs on
   * the page's origin with `refreshTokenCookie`: no script can read the refresh token.
   */
  tokenStore: TokenStoreOption;
  /** Handler pages and redirect targets to override (spec §2). */
  urls?: Partial<HandlerUrls>;
  fetch?: FetchFunction;
  /** Time source for token expiry; tests move it. */
  clock?: Clock;
  /** Timer functions for retries, cache expiry and cookie polling. */
  timers?: Timers;
  /** How to change page; defaults to `window.location.assign`. */
  navigate?: (url: string) => void;
  /**
   * The signed-in user as server code saw it when it rendered the page
   * (`clientUserData(user)`, or `null` for nobody): the first render shows
   * it without a request, as the server's HTML did. Server-side rendering
   * frameworks pass it (`@latchkey/next` does).
   */
  initialUser?: UserData | null;
}

/**
 * What a `ClientApp` can do: every method comes from a module it mounts.
 *
 * @example
 * ```ts
 * const modules: ClientAppModules = new ClientApp(options);
 * ```
 */
export interface ClientAppModules
  extends CredentialAuth,
    ClientEmailFlows,
    OAuthSignIn,
    PasskeySignIn,
    MfaSignIn,
    CurrentUserAccess,
    TeamInvitationCodes,
    ClientAppData,
    HandlerRedirects {
  readonly projectId: string;
}

/**
 * The client SDK: sign-up, sign-in, the current user and the handler redirects.
 *
 * @example
 * ```ts
 * const app = new ClientApp({ projectId, publishableClientKey, baseUrl: 'http://localhost:8101', tokenStore: 'cookie' });
 * await app.signInWithCredential({ email, password, noRedirect: true });
 * const user = await app.getUser({ or: 'throw' });
 * ```
 */
export class ClientApp extends mounted<ClientAppModules>() {
  constructor(options: ClientAppOptions) {
    super(mountClientApp(options));
  }
}

function mountClientApp(options: ClientAppOptions): ClientAppModules {
  requireOption('ClientApp', options, 'projectId');
  requireOption('ClientApp', options, 'publishableClientKey');
  requireOption('ClientApp', options, 'baseUrl');
  const { publishableClientKey, tokenStore } = options;
  const core = createCore(options, { tokenStore, publishableClientKey });
  const scope = createClientScope(core, { ...options, fetch: options.fetch ?? globalFetch });
  if (options.initialUser !== undefined) primeCurrentUser(scope, options.initialUser);
  return {
    projectId: options.projectId,
    ...credentialAuth(scope),
    ...clientEmailFlows(scope),
    ...oauthSignIn(scope),
    ...accountSecuritySignIn(scope),
    ...currentUserAccess(scope),
    ...teamInvitationCodes(scope),
    ...clientAppData(scope),
    ...handlerRedirects(core),
  };
}
