/**
 * @latchkey/next/middleware: one call for `proxy.ts` (Next 16) or
 * `middleware.ts` (Next 15) that protects route patterns. A signed-out
 * visitor of a protected route goes to sign-in with `after_auth_return_to`;
 * a signed-in one passes once the access token is verified locally against
 * the project's JWKS (cached: no call to the service while the token is
 * valid); an expired access token is refreshed and the new cookies are set
 * on the response and handed to this request's render, with the request's
 * path (where `getUser({ or: 'redirect' })` returns to). In the refresh-token
 * cookie mode (the service on the app's origin) it reads the service's
 * HttpOnly cookie and keeps the access token in an HttpOnly one. Web APIs only (no
 * `node:` modules, no secret key), so it runs on the edge runtime as well.
 *
 * @example
 * ```ts
 * // proxy.ts (Next 16) or middleware.ts (Next 15)
 * import { latchkeyMiddleware } from '@latchkey/next/middleware';
 *
 * export default latchkeyMiddleware({ protect: ['/account', /^\/admin(\/|$)/] });
 * export const config = { matcher: ['/((?!_next/|favicon.ico).*)'] };
 * ```
 */
import type { FetchFunction } from '@latchkey/js';
import { createRequestAuth, type RequestAuth, type SessionCookie } from '@latchkey/js/request-auth';
import { afterAuthReturnToParam } from '@latchkey/protocol';
import { type NextRequest, NextResponse } from 'next/server.js';
import { configKey, isHttpsCookie, type LatchkeyConfig, pathHeader, readConfig } from './config.js';

/**
 * Options of `latchkeyMiddleware`.
 *
 * @example
 * ```ts
 * const options: LatchkeyMiddlewareOptions = { protect: ['/account'], signInUrl: '/handler/sign-in' };
 * ```
 */
export interface LatchkeyMiddlewareOptions {
  /**
   * The routes that need a signed-in user: a path (`'/account'` covers
   * `/account` and everything under `/account/`), a regular expression
   * tested against the path, or a function of the path.
   */
  protect: ReadonlyArray<string | RegExp> | ((pathname: string) => boolean);
  /** Where signed-out visitors go (default `/handler/sign-in`); never protected itself. */
  signInUrl?: string;
  /** The service and project; by default from `LATCHKEY_API_URL`, `LATCHKEY_PROJECT_ID`, `LATCHKEY_PUBLISHABLE_CLIENT_KEY`. */
  config?: Partial<LatchkeyConfig>;
  /** The `fetch` that reaches the service (tests count its calls). */
  fetch?: FetchFunction;
}

/**
 * The middleware (`proxy`) function: protects `options.protect` and keeps
 * every session it sees fresh.
 *
 * @example
 * ```ts
 * export const proxy = latchkeyMiddleware({ protect: ['/account'] });
 * ```
 */
export function latchkeyMiddleware(
  options: LatchkeyMiddlewareOptions,
): (request: NextRequest) => Promise<NextResponse> {
  const signInUrl = options.signInUrl ?? '/handler/sign-in';
  const isProtected = protectedRoutes(options.protect, signInUrl);
  let made: { key: string; auth: RequestAuth } | null = null;
  /** One authenticator (and so one JWKS cache) per config; the config is read at the first request. */
  const authFor = (config: LatchkeyConfig): RequestAuth => {
    const key = configKey(config);
    if (made?.key !== key) made = { key, auth: createRequestAuth({ ...config, fetch: options.fetch }) };
    return made.auth;
  };
  return async (request) => {
    const config = readConfig(options.config);
    const auth = authFor(config);
    const guarded = isProtected(request.nextUrl.pathname);
    const tokens = auth.readTokens(request);
    if (!tokens.accessToken && !tokens.refreshToken) return guarded ? toSignIn(request, signInUrl) : pass(request, []);
    const result = await auth.authenticate(request);
    if (result.status === 'signed-out' && guarded) {
      return withCookies(toSignIn(request, signInUrl), result.cookies, isHttps(request));
    }
    // This request's render reads the refreshed session too, not only the browser's next request.
    return withCookies(pass(request, result.cookies), result.cookies, isHttps(request));
  };
}

/**
 * On to the page, whose render gets the request's path (`getUser({ or:
 * 'redirect' })` comes back to it) and the request's cookies with `cookies` set or removed.
 */
function pass(request: NextRequest, cookies: SessionCookie[]): NextResponse {
  const headers = new Headers(request.headers);
  headers.set(pathHeader, `${request.nextUrl.pathname}${request.nextUrl.search}`);
  if (cookies.length > 0) headers.set('cookie', cookieHeader(request, cookies));
  return NextResponse.next({ request: { headers } });
}

/** Whether a path is protected; the sign-in page never is (no redirect loop). */
function protectedRoutes(protect: LatchkeyMiddlewareOptions['protect'], signInUrl: string) {
  const signInPath = new URL(signInUrl, 'http://localhost').pathname;
  const matches =
    typeof protect === 'function'
      ? protect
      : (pathname: string) =>
          protect.some((route) =>
            typeof route === 'string'
              ? pathname === route || pathname.startsWith(route.endsWith('/') ? route : `${route}/`)
              : route.test(pathname),
          );
  return (pathname: string) => pathname !== signInPath && matches(pathname);
}

/** A redirect to sign-in that comes back to this page afterwards. */
function toSignIn(request: NextRequest, signInUrl: string): NextResponse {
  const target = new URL(signInUrl, request.url);
  const { pathname, search } = request.nextUrl;
  target.searchParams.set(afterAuthReturnToParam, `${pathname}${search}`);
  return NextResponse.redirect(target);
}

/** `response` setting (or deleting) `cookies` as the browser SDK's cookie store does. */
function withCookies(response: NextResponse, cookies: SessionCookie[], secure: boolean): NextResponse {
  for (const { name, value, maxAgeSeconds, httpOnly } of cookies) {
    response.cookies.set(name, value, { maxAge: maxAgeSeconds, path: '/', sameSite: 'lax', secure, httpOnly });
  }
  return response;
}

/** The request's `cookie` header with `cookies` set or removed. */
function cookieHeader(request: NextRequest, cookies: SessionCookie[]): string {
  const jar = new Map(request.cookies.getAll().map(({ name, value }) => [name, value]));
  for (const { name, value } of cookies) {
    if (value) jar.set(name, value);
    else jar.delete(name);
  }
  return [...jar].map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`).join('; ');
}

/** Whether the browser is on https: the URL says so, or a cookie only https sets (behind a proxy that ends TLS). */
function isHttps(request: NextRequest): boolean {
  const { protocol } = request.nextUrl;
  return protocol === 'https:' || request.cookies.getAll().some(({ name }) => isHttpsCookie(name));
}
