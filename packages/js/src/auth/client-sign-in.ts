/**
 * Where a sign-in ends in `ClientApp` (whatever the method: password, magic
 * link, OAuth): the new session is stored, the previous account's data
 * forgotten, then the page goes where the flow asked. Also the redirects to
 * the handler pages, which sign-ins and `getUser({ or: 'redirect' })` share.
 */
import { afterAuthReturnToParam } from '@latchkey/protocol';
import type { Core } from '../internal/core.js';
import { currentLocation, sameOriginUrl, withQueryParam } from '../internal/redirect.js';
import type { Session } from '../internal/session/session.js';
import type { HandlerUrls } from '../urls.js';
import { accountKey, type ClientScope } from '../users/account-data.js';
import type { SignInTokens } from './password.js';

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
 * Stores the session of `tokens` and forgets the account data of whoever was
 * signed in before; then, unless `noRedirect`, goes to `returnTo` (by
 * default the page's `after_auth_return_to`) when it is on this origin, else
 * to the after-sign-up or after-sign-in page. A foreign `returnTo` (anybody
 * can put one in a link) is ignored rather than refused after the session is stored.
 */
export async function completeSignIn(
  scope: ClientScope,
  tokens: SignInTokens,
  noRedirect = false,
  returnTo = pageReturnTo(),
): Promise<SignInResult> {
  const { core } = scope;
  core.session.setTokens(tokens);
  void scope.data.invalidate(accountKey());
  if (!noRedirect) await core.redirect(signInDestination(core, tokens.newUser, returnTo));
  return { userId: tokens.userId, newUser: tokens.newUser };
}

/** Where a sign-in ends: `returnTo` when on this origin, else the after-sign-up (new user) or after-sign-in page. */
export function signInDestination(
  core: Pick<Core, 'urls'>,
  newUser: boolean,
  returnTo: string | null | undefined = pageReturnTo(),
): string {
  return sameOriginUrl(returnTo) ?? (newUser ? core.urls.afterSignUp : core.urls.afterSignIn);
}

/** The page's `after_auth_return_to`, as given (not checked yet). */
export const pageReturnTo = (): string | null | undefined =>
  currentLocation()?.searchParams.get(afterAuthReturnToParam);

/**
 * The handler pages `ClientApp` goes to. Each goes there, then waits 2000 ms
 * for the page to go.
 *
 * @example
 * ```ts
 * await app.redirectToSignIn(); // comes back here after signing in
 * ```
 */
export interface HandlerRedirects {
  /** The resolved handler pages and redirect targets (frozen). */
  readonly urls: HandlerUrls;
  /** Goes to the sign-in page, which returns here afterwards (`after_auth_return_to`). */
  redirectToSignIn(): Promise<void>;
  /** Goes to the sign-up page, which returns here afterwards (`after_auth_return_to`). */
  redirectToSignUp(): Promise<void>;
  /**
   * Goes where a sign-in ends: the page's `after_auth_return_to` when on this
   * origin, else the after-sign-in page (`urls.afterSignIn`); then waits 2000 ms for the page to go.
   */
  redirectToAfterSignIn(): Promise<void>;
  /**
   * Goes where a sign-up ends: the page's `after_auth_return_to` when on this
   * origin, else the after-sign-up page (`urls.afterSignUp`); then waits 2000 ms for the page to go.
   */
  redirectToAfterSignUp(): Promise<void>;
  /** Goes to the after-sign-out page (`urls.afterSignOut`), then waits 2000 ms for the page to go. */
  redirectToAfterSignOut(): Promise<void>;
  /** Goes to the home page (`urls.home`), then waits 2000 ms for the page to go. */
  redirectToHome(): Promise<void>;
}

/** The redirects module of `ClientApp`. */
export function handlerRedirects(core: Core<Session>): HandlerRedirects {
  const { urls } = core;
  return {
    urls,
    redirectToSignIn: () => redirectToAuthPage(core, urls.signIn),
    redirectToSignUp: () => redirectToAuthPage(core, urls.signUp),
    redirectToAfterSignIn: () => core.redirect(signInDestination(core, false)),
    redirectToAfterSignUp: () => core.redirect(signInDestination(core, true)),
    redirectToAfterSignOut: () => core.redirect(urls.afterSignOut),
    redirectToHome: () => core.redirect(urls.home),
  };
}

/** Goes to the sign-in or sign-up `page`, carrying this page as `after_auth_return_to`. */
export function redirectToAuthPage(core: Pick<Core, 'redirect'>, page: string): Promise<void> {
  const location = currentLocation();
  if (!location) return core.redirect(page);
  const here = `${location.pathname}${location.search}${location.hash}`;
  return core.redirect(withQueryParam(page, afterAuthReturnToParam, here, location.origin));
}
