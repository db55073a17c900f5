/**
 * Handler pages and redirect targets (spec §2). Pages sit under the handler
 * base path (`/handler` by default); home is `/`, after-sign-in is home,
 * after-sign-up is after-sign-in, after-sign-out is home. Any can be overridden.
 */
import { defaultHandlerPath } from '@latchkey/protocol';

/**
 * The resolved URLs of an app.
 *
 * @example
 * ```ts
 * const app = new ClientApp({ ...keys, tokenStore: 'cookie', urls: { afterSignIn: '/dashboard' } });
 * app.urls.signIn; // '/handler/sign-in'
 * ```
 */
export interface HandlerUrls {
  handler: string;
  signIn: string;
  signUp: string;
  signOut: string;
  emailVerification: string;
  passwordReset: string;
  forgotPassword: string;
  oauthCallback: string;
  magicLinkCallback: string;
  accountSettings: string;
  error: string;
  teamInvitation: string;
  home: string;
  afterSignIn: string;
  afterSignUp: string;
  afterSignOut: string;
}

type PageKey = Exclude<keyof HandlerUrls, 'handler' | 'home' | 'afterSignIn' | 'afterSignUp' | 'afterSignOut'>;

const pagePaths: Record<PageKey, string> = {
  signIn: 'sign-in',
  signUp: 'sign-up',
  signOut: 'sign-out',
  emailVerification: 'email-verification',
  passwordReset: 'password-reset',
  forgotPassword: 'forgot-password',
  oauthCallback: 'oauth-callback',
  magicLinkCallback: 'magic-link-callback',
  accountSettings: 'account-settings',
  error: 'error',
  teamInvitation: 'team-invitation',
};

/** Fills in every URL the caller did not override. */
export function resolveUrls(overrides: Partial<HandlerUrls> = {}): HandlerUrls {
  const handler = (overrides.handler ?? defaultHandlerPath).replace(/\/+$/, '');
  const pages = Object.fromEntries(
    Object.entries(pagePaths).map(([key, page]) => [key, overrides[key as PageKey] ?? `${handler}/${page}`]),
  ) as Record<PageKey, string>;
  const home = overrides.home ?? '/';
  const afterSignIn = overrides.afterSignIn ?? home;
  const afterSignUp = overrides.afterSignUp ?? afterSignIn;
  const afterSignOut = overrides.afterSignOut ?? home;
  return { handler, ...pages, home, afterSignIn, afterSignUp, afterSignOut };
}
