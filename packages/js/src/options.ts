/**
 * Public types of `ClientAppOptions` that the SDK's internals also use: how
 * it reaches the network (`fetch`), reads the time (`clock`), waits
 * (`timers`) and keeps tokens (`tokenStore`). Defined here, on the public
 * side, so no public type lives in `src/internal`.
 */

/**
 * The `fetch` the SDK calls; pass your own to route requests in-process or to record them.
 *
 * @example
 * ```ts
 * const fetch: FetchFunction = (url, init) => globalThis.fetch(url, init);
 * new ClientApp({ ...options, fetch });
 * ```
 */
export type FetchFunction = (input: string, init: RequestInit) => Promise<Response>;

/**
 * Reads the current time in epoch milliseconds.
 *
 * @example
 * ```ts
 * let now = Date.now();
 * const app = new ClientApp({ ...options, clock: { now: () => now } }); // tests move `now`
 * ```
 */
export interface Clock {
  now(): number;
}

/**
 * The subset of the timer functions the SDK uses.
 *
 * @example
 * ```ts
 * const timers: Timers = { setTimeout: (fn, ms) => setTimeout(fn, ms), clearTimeout: (h) => clearTimeout(h as number) };
 * ```
 */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/**
 * The `tokenStore` option: kept in memory, in browser cookies, or given once
 * by the caller. `'httponly-cookie'` (browsers, with the service on the
 * page's own origin started with `refreshTokenCookie`): the service keeps the
 * refresh token in an HttpOnly cookie no script can read, and the SDK keeps
 * only the access token, in memory; `getTokens()` then gives
 * `refreshToken: null`.
 *
 * @example
 * ```ts
 * new ClientApp({ ...options, tokenStore: { accessToken, refreshToken } }); // tokens from a request
 * new ClientApp({ ...options, baseUrl: location.origin, tokenStore: 'httponly-cookie' }); // service on this origin
 * ```
 */
export type TokenStoreOption =
  | 'memory'
  | 'cookie'
  | 'httponly-cookie'
  | { accessToken?: string | null; refreshToken?: string | null };
