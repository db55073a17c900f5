/**
 * Handler pages and redirect targets (spec §2). Pages sit under the handler
 * base path (`/handler` by default); home is `/`, after-sign-in is home,
 * after-sign-up is after-sign-in, after-sign-out is home. Any can be overridden.
 */
import { defaultHandlerPath } from '@latchkey/protocol';
import { currentLocation, trustedRedirectPath } from './internal/redirect.js';

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

/** The handler pages; a page's path is its key in kebab case (`magicLinkCallback`: `magic-link-callback`). */
const pageKeys: PageKey[] = [
  'signIn',
  'signUp',
  'signOut',
  'emailVerification',
  'passwordReset',
  'forgotPassword',
  'oauthCallback',
  'magicLinkCallback',
  'accountSettings',
  'error',
  'teamInvitation',
];

/**
 * Fills in every URL the caller did not override, by the defaults of spec §2.
 * `ClientApp` does this with its `urls` option; `app.urls` is the result.
 *
 * @example
 * ```ts
 * resolveUrls({ handler: '/auth', afterSignIn: '/dashboard' });
 * // { handler: '/auth', signIn: '/auth/sign-in', ..., home: '/', afterSignIn: '/dashboard', afterSignUp: '/dashboard', afterSignOut: '/' }
 * ```
 */
export function resolveUrls(overrides: Partial<HandlerUrls> = {}): HandlerUrls {
  const handler = (overrides.handler ?? defaultHandlerPath).replace(/\/+$/, '');
  const pages = Object.fromEntries(
    pageKeys.map((key) => [key, overrides[key] ?? `${handler}/${key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`]),
  ) as Record<PageKey, string>;
  const home = overrides.home ?? '/';
  const afterSignIn = overrides.afterSignIn ?? home;
  const afterSignUp = overrides.afterSignUp ?? afterSignIn;
  const afterSignOut = overrides.afterSignOut ?? home;
  return { handler, ...pages, home, afterSignIn, afterSignUp, afterSignOut };
}

/**
 * `target` as a path on `origin` (`/path?query#hash`) when it is relative or
 * on that origin, else `null`: the check every SDK redirect makes (spec §2),
 * for links you build yourself, e.g. from an `after_auth_return_to` value.
 * `origin` defaults to the current page's (outside a browser only relative
 * targets pass). Other origins, `//host`, backslash tricks, `javascript:`,
 * `data:` and the like give `null`.
 *
 * @example
 * ```ts
 * sameOriginPath('/account?tab=2');                 // '/account?tab=2'
 * sameOriginPath('https://evil.example/phish');     // null
 * sameOriginPath('/\\evil.example');                // null
 * ```
 */
export function sameOriginPath(target: string, origin: string | undefined = currentLocation()?.origin): string | null {
  try {
    return trustedRedirectPath(target, origin);
  } catch {
    return null;
  }
}
