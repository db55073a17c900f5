/**
 * `ClientApp`: the SDK for code running on behalf of an end user (browser or
 * Node). An audience over the shared core (`internal/core.ts`): the
 * publishable key plus the user's session as credentials, and the resource
 * modules it mounts (password auth, the current user, the project).
 */
import { afterAuthReturnToParam, KnownError } from '@latchkey/protocol';
import {
  checkPasswordResetCode,
  resetPasswordWithCode,
  sendMagicLinkCode,
  sendPasswordResetCode,
  signInWithMagicLinkCode,
  verifyEmailCode,
} from './auth/email-codes.js';
import {
  exchangeCode,
  type OAuthClient,
  type OAuthFlow,
  oauthRedirectUri,
  startOAuthFlow,
  takeVerifier,
} from './auth/oauth.js';
import { type SignInTokens, signInWithPassword, signUpWithPassword } from './auth/password.js';
import { type ContactChannel, contactChannelsQuery } from './contact-channels/contact-channel.js';
import { absolutePageUrl, callbackUrl } from './internal/callback-url.js';
import { type Core, createCore, type Send } from './internal/core.js';
import { publishableKeyCredentials, withSession } from './internal/http/credentials.js';
import { globalFetch } from './internal/http/request.js';
import { currentLocation, sameOriginUrl, trustedRedirectPath, withQueryParam } from './internal/redirect.js';
import { requireOption } from './internal/require-options.js';
import type { Session } from './internal/session/session.js';
import type { Clock, FetchFunction, Timers, TokenStoreOption } from './options.js';
import type { Project } from './projects/project-decoder.js';
import { projectQuery } from './projects/projects-api.js';
import type { QueryAccess, QueryKey } from './query.js';
import {
  acceptTeamInvitationCode,
  checkTeamInvitationCode,
  fetchTeamInvitationDetails,
  type TeamInvitationDetails,
} from './teams/invitation-codes.js';
import { type Team, teamsQuery } from './teams/team.js';
import type { HandlerUrls } from './urls.js';
import { accountKey, type ClientQuery, type ClientScope } from './users/account-data.js';
import { type CurrentUser, createClientScope, currentUserQuery } from './users/current-user.js';

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
}

/**
 * E-mail and password for `signInWithCredential`.
 *
 * @example
 * ```ts
 * await app.signInWithCredential({ email: 'a@example.com', password: 'correct-horse-1', noRedirect: true });
 * ```
 */
export interface CredentialSignInOptions {
  email: string;
  password: string;
  /** Stay on the page instead of going to the after-sign-in page. */
  noRedirect?: boolean;
}

/**
 * E-mail and password for `signUpWithCredential`, and where verification links point.
 *
 * @example
 * ```ts
 * await app.signUpWithCredential({ email, password, verificationCallbackUrl: 'https://app.example.com/verify' });
 * ```
 */
export interface CredentialSignUpOptions extends CredentialSignInOptions {
  /** Absolute URL of your e-mail verification page; defaults to `<origin><handler>/email-verification` in browsers. */
  verificationCallbackUrl?: string;
}

/**
 * A successful sign-in or sign-up.
 *
 * @example
 * ```ts
 * const { userId, newUser } = await app.signUpWithCredential({ email, password, noRedirect: true });
 * ```
 */
export interface SignInResult {
  userId: string;
  newUser: boolean;
}

/**
 * What `getUser` does when nobody is signed in.
 *
 * @example
 * ```ts
 * const user = await app.getUser({ or: 'redirect' satisfies GetUserOr });
 * ```
 */
export type GetUserOr = 'return-null' | 'redirect' | 'throw';

/**
 * The data an app loads and caches, by key: what `subscribe`, `getSnapshot`
 * and `load` read. UI bindings subscribe to a key and read its snapshot.
 * Each key names a query (`'user'` is `currentUserQuery`, `'project'`
 * `projectQuery`, `'contactChannels'` `contactChannelsQuery`, `'teams'`
 * `teamsQuery`); every other query is passed as itself.
 *
 * @example
 * ```ts
 * const user: AppData['user'] = app.getSnapshot('user') ?? null;
 * ```
 */
export interface AppData {
  /** The signed-in user; `null` when signed out. */
  user: CurrentUser | null;
  /** The project's public settings. */
  project: Project;
  /** The signed-in user's e-mail addresses; `[]` when signed out. */
  contactChannels: ContactChannel[];
  /** The signed-in user's teams; `[]` when signed out. */
  teams: Team[];
}

/**
 * A key of `AppData`.
 *
 * @example
 * ```ts
 * const keys: AppDataKey[] = ['user', 'project', 'contactChannels'];
 * ```
 */
export type AppDataKey = keyof AppData;

/** The query each `AppDataKey` names. */
const appData: { readonly [K in AppDataKey]: ClientQuery<AppData[K]> } = {
  user: currentUserQuery,
  project: projectQuery,
  contactChannels: contactChannelsQuery,
  teams: teamsQuery,
};

const queryOf = <T>(target: AppDataKey | ClientQuery<T>): ClientQuery<T> =>
  (typeof target === 'string' ? appData[target] : target) as ClientQuery<T>;

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
export class ClientApp implements QueryAccess<ClientScope> {
  readonly projectId: string;
  readonly #core: Core<Session>;
  /** Sends with the publishable key only (sign-in, the project). */
  readonly #sendAsApp: Send;
  /** Sends with the publishable key and the session, when there is one. */
  readonly #sendAsUser: Send;
  /** The account's queries load with it; its `data` is the app's cache. */
  readonly #scope: ClientScope;
  readonly #oauthClient: OAuthClient;
  /** `tokenStore: 'httponly-cookie'`: sign-in answers leave the refresh token in the service's cookie. */
  readonly #serviceCookie: boolean;

  constructor(options: ClientAppOptions) {
    requireOption('ClientApp', options, 'projectId');
    requireOption('ClientApp', options, 'publishableClientKey');
    requireOption('ClientApp', options, 'baseUrl');
    const { publishableClientKey, tokenStore } = options;
    const core = createCore(options, { tokenStore, publishableClientKey });
    const appKey = publishableKeyCredentials(publishableClientKey);
    this.projectId = options.projectId;
    this.#core = core;
    this.#sendAsApp = core.sender(appKey);
    this.#sendAsUser = core.sender(withSession(appKey, core.session));
    this.#serviceCookie = tokenStore === 'httponly-cookie';
    this.#oauthClient = { ...options, fetch: options.fetch ?? globalFetch, serviceCookie: this.#serviceCookie };
    const startFlow = (flow: OAuthFlow, call: string) => startOAuthFlow(core, this.#oauthClient, flow, call);
    this.#scope = createClientScope(core, this.#sendAsUser, this.#sendAsApp, startFlow);
  }

  /** The resolved handler pages and redirect targets (frozen). */
  get urls(): HandlerUrls {
    return this.#core.urls;
  }

  /** Creates an account with e-mail and password and signs it in. Refusals are thrown as `KnownError`s. */
  async signUpWithCredential(options: CredentialSignUpOptions): Promise<SignInResult> {
    const verificationCallbackUrl = options.verificationCallbackUrl ?? this.#defaultVerificationCallbackUrl();
    const request = { email: options.email, password: options.password, verificationCallbackUrl };
    const tokens = await signUpWithPassword(this.#sendAsApp, request, this.#serviceCookie);
    return this.#completeSignIn({ ...tokens, newUser: true }, options.noRedirect);
  }

  /** Signs in with e-mail and password. A wrong password is thrown as `EMAIL_PASSWORD_MISMATCH`. */
  async signInWithCredential(options: CredentialSignInOptions): Promise<SignInResult> {
    const tokens = await signInWithPassword(this.#sendAsApp, options.email, options.password, this.#serviceCookie);
    return this.#completeSignIn(tokens, options.noRedirect);
  }

  /**
   * Mails a password-reset link to `email`. The service answers the same
   * whether or not the address has an account, so nothing here tells.
   * `callbackUrl` (your password-reset page, on a trusted domain) defaults to
   * `<origin><handler>/password-reset` in browsers; elsewhere pass it.
   *
   * @example
   * ```ts
   * await app.sendForgotPasswordEmail('ada@example.com');
   * ```
   */
  async sendForgotPasswordEmail(email: string, options: { callbackUrl?: string } = {}): Promise<void> {
    const url = callbackUrl('sendForgotPasswordEmail', this.#core.urls.passwordReset, options.callbackUrl);
    await sendPasswordResetCode(this.#sendAsApp, email, url);
  }

  /**
   * Checks a password-reset code without using it; a code that would not
   * reset is thrown as its `VERIFICATION_CODE_*` error.
   *
   * @example
   * ```ts
   * await app.verifyPasswordResetCode(new URL(location.href).searchParams.get('code') ?? '');
   * ```
   */
  async verifyPasswordResetCode(code: string): Promise<void> {
    await checkPasswordResetCode(this.#sendAsApp, code);
  }

  /**
   * Sets a new password with the code of a reset link. Every session of the
   * user ends, this app's too; sign in with the new password afterwards.
   *
   * @example
   * ```ts
   * await app.resetPassword({ code, password: 'new-correct-horse-2' });
   * ```
   */
  async resetPassword(options: { code: string; password: string }): Promise<void> {
    await resetPasswordWithCode(this.#sendAsApp, options.code, options.password);
  }

  /**
   * Verifies the address a verification link was sent to, with the link's
   * code; then re-reads the signed-in user, if any.
   *
   * @example
   * ```ts
   * await app.verifyEmail(new URL(location.href).searchParams.get('code') ?? '');
   * ```
   */
  async verifyEmail(code: string): Promise<void> {
    await verifyEmailCode(this.#sendAsApp, code);
    if (!this.#core.session.stored().refreshToken) return;
    const { data } = this.#scope;
    void data.invalidate(contactChannelsQuery.key);
    await data.reload(currentUserQuery);
  }

  /**
   * Mails a sign-in link and a six-character code to `email` (magic link must
   * be enabled for the project). Keep the answer's `nonce`: the typed code
   * plus the nonce is the code `signInWithMagicLink` takes. `callbackUrl`
   * defaults to `<origin><handler>/magic-link-callback` in browsers, carrying
   * the page's `after_auth_return_to` so the link ends where a typed code would.
   *
   * @example
   * ```ts
   * const { nonce } = await app.sendMagicLinkEmail('ada@example.com');
   * await app.signInWithMagicLink(typedCode + nonce);
   * ```
   */
  async sendMagicLinkEmail(email: string, options: { callbackUrl?: string } = {}): Promise<{ nonce: string }> {
    let url = callbackUrl('sendMagicLinkEmail', this.#core.urls.magicLinkCallback, options.callbackUrl);
    // The default link takes the page's return-to along, so the link ends where a typed code would.
    const returnTo = options.callbackUrl ? null : currentLocation()?.searchParams.get(afterAuthReturnToParam);
    if (returnTo) url = new URL(withQueryParam(url, afterAuthReturnToParam, returnTo, new URL(url).origin), url).href;
    return sendMagicLinkCode(this.#sendAsApp, email, url);
  }

  /**
   * Signs in with a magic-link code: the link's `code`, or the six typed
   * characters followed by the nonce (any case). An address without an account
   * signs up (when the project allows it) and goes to the after-sign-up page.
   *
   * @example
   * ```ts
   * const { newUser } = await app.signInWithMagicLink(code, { noRedirect: true });
   * ```
   */
  async signInWithMagicLink(code: string, options: { noRedirect?: boolean } = {}): Promise<SignInResult> {
    const tokens = await signInWithMagicLinkCode(this.#sendAsApp, code, this.#serviceCookie);
    return this.#completeSignIn(tokens, options.noRedirect);
  }

  /**
   * Signs in (or up) with an OAuth provider enabled for the project (browser
   * only): goes to the provider through the service, which comes back to the
   * `oauth-callback` page (`callOAuthCallback`). The flow then ends on
   * `returnTo`, else the page's `after_auth_return_to`, else the
   * after-sign-in (or after-sign-up) page. Outside a browser it throws.
   *
   * @example
   * ```ts
   * await app.signInWithOAuth('github', { returnTo: '/dashboard' });
   * ```
   */
  async signInWithOAuth(providerId: string, options: { returnTo?: string } = {}): Promise<void> {
    const location = currentLocation();
    const pageReturnTo = sameOriginUrl(location?.searchParams.get(afterAuthReturnToParam));
    // A `returnTo` the caller gave must stay on this origin (REDIRECT_URL_NOT_WHITELISTED otherwise).
    const given =
      options.returnTo === undefined || !location
        ? undefined
        : new URL(trustedRedirectPath(options.returnTo, location.origin), location.origin).href;
    const flow: OAuthFlow = { providerId, type: 'authenticate', afterCallbackRedirectUrl: given ?? pageReturnTo };
    await startOAuthFlow(this.#core, this.#oauthClient, flow, 'signInWithOAuth');
  }

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
  async callOAuthCallback(): Promise<boolean> {
    const location = currentLocation();
    if (!location || typeof document === 'undefined') {
      throw new Error('callOAuthCallback: OAuth runs in a browser only (it reads the page and its cookies).');
    }
    const code = location.searchParams.get('code');
    const state = location.searchParams.get('state');
    if (!code || !state) return false;
    const clean = new URL(location.href);
    clean.searchParams.delete('code');
    clean.searchParams.delete('state');
    window.history.replaceState(window.history.state, '', clean.href);
    const verifier = takeVerifier(document, state);
    if (verifier === null) return false;
    const redirectUri = oauthRedirectUri(this.#core.urls.oauthCallback) ?? clean.href;
    const result = await exchangeCode({ ...this.#oauthClient, code, verifier, redirectUri });
    await this.#completeSignIn(result, true);
    const target = sameOriginUrl(result.afterCallbackRedirectUrl);
    await this.#core.redirect(target ?? (result.newUser ? this.#core.urls.afterSignUp : this.#core.urls.afterSignIn));
    return true;
  }

  /**
   * The signed-in user, or what `or` asks for when nobody is: `null`
   * (default), a redirect to sign-in, or a thrown `USER_AUTHENTICATION_REQUIRED`.
   */
  getUser(options: { or: 'redirect' | 'throw' }): Promise<CurrentUser>;
  getUser(options?: { or?: GetUserOr }): Promise<CurrentUser | null>;
  async getUser(options: { or?: GetUserOr } = {}): Promise<CurrentUser | null> {
    const user = await this.load('user');
    if (user || !options.or || options.or === 'return-null') return user;
    if (options.or === 'throw') throw new KnownError('USER_AUTHENTICATION_REQUIRED', undefined, notSignedIn);
    await this.redirectToSignIn();
    throw new KnownError('USER_AUTHENTICATION_REQUIRED', undefined, 'Nobody is signed in; went to the sign-in page.');
  }

  /**
   * Throws the known error of an invitation code that would not work
   * (expired, used, its team deleted...). Sent with the session when there is
   * one, as the 2.7 SDK sends it; works signed out.
   */
  async verifyTeamInvitationCode(code: string): Promise<void> {
    await checkTeamInvitationCode(this.#sendAsUser, code);
  }

  /** The team an invitation code is for, and the address it was sent to; works signed out. */
  getTeamInvitationDetails(code: string): Promise<TeamInvitationDetails> {
    return fetchTeamInvitationDetails(this.#sendAsUser, code);
  }

  /**
   * Joins the team of an invitation as the signed-in user, who must have the
   * invited address (`EMAIL_NOT_ASSOCIATED_WITH_USER` otherwise); then
   * re-reads the user's teams.
   */
  async acceptTeamInvitation(code: string): Promise<void> {
    await acceptTeamInvitationCode(this.#sendAsUser, code);
    await this.#scope.data.reload(teamsQuery);
  }

  /** The project's public settings (which sign-in methods are on). */
  getProject(): Promise<Project> {
    return this.load('project');
  }

  /**
   * Calls `listener` whenever the data of a key or query changes (for
   * `'user'`: sign-in, sign-out, update, another tab). Subscribing loads the
   * data when it is not loaded yet; account data also watches other tabs.
   * Returns the unsubscribe function. UI bindings pair it with `getSnapshot`.
   *
   * @example
   * ```ts
   * const user = useSyncExternalStore((l) => app.subscribe('user', l), () => app.getSnapshot('user'));
   * const stop = app.subscribe(teamMembersQuery(team), () => render(app.getSnapshot(teamMembersQuery(team))));
   * ```
   */
  subscribe<K extends AppDataKey>(key: K, listener: () => void): () => void;
  subscribe<T>(query: ClientQuery<T>, listener: () => void): () => void;
  subscribe<T>(target: AppDataKey | ClientQuery<T>, listener: () => void): () => void {
    return this.#scope.data.subscribe(queryOf(target), listener);
  }

  /**
   * The data of a key or query as last loaded; `undefined` while not loaded
   * yet (for `'user'` also while another tab's new session loads). `null`
   * user: signed out.
   *
   * @example
   * ```ts
   * const project = app.getSnapshot('project'); // Project | undefined
   * ```
   */
  getSnapshot<K extends AppDataKey>(key: K): AppData[K] | undefined;
  getSnapshot<T>(query: ClientQuery<T>): T | undefined;
  getSnapshot<T>(target: AppDataKey | ClientQuery<T>): T | undefined {
    return this.#scope.data.snapshot(queryOf(target));
  }

  /**
   * Loads the data of a key or query, or returns it from the cache;
   * concurrent calls share one request. `getUser()` and `getProject()` go through it.
   *
   * @example
   * ```ts
   * const user = await app.load('user'); // CurrentUser | null
   * const held = await app.load(teamPermissionsQuery(team));
   * ```
   */
  load<K extends AppDataKey>(key: K): Promise<AppData[K]>;
  load<T>(query: ClientQuery<T>): Promise<T>;
  load<T>(target: AppDataKey | ClientQuery<T>): Promise<T> {
    return this.#scope.data.load(queryOf(target));
  }

  /**
   * Marks a query, or every query under a key (`['me', 'team', teamId]`),
   * out of date: subscribed ones reload before the promise settles, the
   * others on their next load. The SDK's own mutations do this already.
   *
   * @example
   * ```ts
   * await app.invalidate(teamMembersQuery(team)); // a member joined elsewhere
   * ```
   */
  invalidate(target: AppDataKey | ClientQuery<unknown> | QueryKey): Promise<void> {
    return this.#scope.data.invalidate(
      Array.isArray(target) ? target : queryOf(target as AppDataKey | ClientQuery<unknown>).key,
    );
  }

  /** Goes to the sign-in page, which returns here afterwards (`after_auth_return_to`). */
  redirectToSignIn(): Promise<void> {
    return this.#redirectToAuthPage(this.#core.urls.signIn);
  }

  /** Goes to the sign-up page, which returns here afterwards (`after_auth_return_to`). */
  redirectToSignUp(): Promise<void> {
    return this.#redirectToAuthPage(this.#core.urls.signUp);
  }

  /** Goes to the after-sign-in page (`urls.afterSignIn`), then waits 2000 ms for the page to go. */
  redirectToAfterSignIn(): Promise<void> {
    return this.#core.redirect(this.#core.urls.afterSignIn);
  }

  /** Goes to the after-sign-up page (`urls.afterSignUp`), then waits 2000 ms for the page to go. */
  redirectToAfterSignUp(): Promise<void> {
    return this.#core.redirect(this.#core.urls.afterSignUp);
  }

  /** Goes to the after-sign-out page (`urls.afterSignOut`), then waits 2000 ms for the page to go. */
  redirectToAfterSignOut(): Promise<void> {
    return this.#core.redirect(this.#core.urls.afterSignOut);
  }

  /** Goes to the home page (`urls.home`), then waits 2000 ms for the page to go. */
  redirectToHome(): Promise<void> {
    return this.#core.redirect(this.#core.urls.home);
  }

  async #completeSignIn(tokens: SignInTokens, noRedirect = false): Promise<SignInResult> {
    this.#core.session.setTokens(tokens);
    void this.#scope.data.invalidate(accountKey()); // the account's data, whoever was signed in before
    if (!noRedirect) await this.#core.redirect(this.#afterAuthTarget(tokens.newUser));
    return { userId: tokens.userId, newUser: tokens.newUser };
  }

  /**
   * `after_auth_return_to` of the current page when it is on this origin, else
   * after-sign-up / after-sign-in. A foreign one (anybody can put it in a link)
   * is ignored rather than refused after the session is stored.
   */
  #afterAuthTarget(newUser: boolean): string {
    const returnTo = sameOriginUrl(currentLocation()?.searchParams.get(afterAuthReturnToParam));
    if (returnTo) return returnTo;
    return newUser ? this.#core.urls.afterSignUp : this.#core.urls.afterSignIn;
  }

  #redirectToAuthPage(page: string): Promise<void> {
    const location = currentLocation();
    if (!location) return this.#core.redirect(page);
    const here = `${location.pathname}${location.search}${location.hash}`;
    return this.#core.redirect(withQueryParam(page, afterAuthReturnToParam, here, location.origin));
  }

  #defaultVerificationCallbackUrl(): string | undefined {
    return absolutePageUrl(this.#core.urls.emailVerification);
  }
}

/** Spec §8's wording (also `clientMessages.notSignedIn`); the SDK raises it, so it carries it. */
const notSignedIn = "User is not signed in but getUser was called with { or: 'throw' }";
