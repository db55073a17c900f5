/**
 * The business constants and limits of spec §9, one export each so a bundle
 * keeps only those it reads, and all of them together as `constants`.
 */

/**
 * Lifetime of the refresh-token cookie: 1 year.
 *
 * @example
 * ```ts
 * `max-age=${refreshTokenCookieMaxAgeSeconds}`;
 * ```
 */
export const refreshTokenCookieMaxAgeSeconds = 31_536_000;

/**
 * Lifetime of the access-token cookie: 1 day.
 *
 * @example
 * ```ts
 * `max-age=${accessTokenCookieMaxAgeSeconds}`;
 * ```
 */
export const accessTokenCookieMaxAgeSeconds = 86_400;

/**
 * Lifetime of the OAuth PKCE verifier cookie: 1 hour.
 *
 * @example
 * ```ts
 * `max-age=${oauthVerifierCookieMaxAgeSeconds}`;
 * ```
 */
export const oauthVerifierCookieMaxAgeSeconds = 3_600;

/**
 * How often the browser token store re-reads cookies.
 *
 * @example
 * ```ts
 * setTimeout(poll, cookieStorePollMs);
 * ```
 */
export const cookieStorePollMs = 100;

/**
 * The most remaining validity a caller may demand of an access token.
 *
 * @example
 * ```ts
 * Math.min(wantedMs, maxRequiredAccessTokenValidityMs);
 * ```
 */
export const maxRequiredAccessTokenValidityMs = 60_000;

/**
 * The validity the SDK asks of an access token when it reads tokens.
 *
 * @example
 * ```ts
 * if (expiresAt - now <= requiredAccessTokenValidityMs) await refresh();
 * ```
 */
export const requiredAccessTokenValidityMs = 20_000;

/**
 * Default lifetime of a session created by server code (`POST /auth/sessions`).
 *
 * @example
 * ```ts
 * body.expires_in_millis ?? defaultServerSessionExpiresInMs;
 * ```
 */
export const defaultServerSessionExpiresInMs = 31_536_000_000;

/**
 * The longest session server code may create: 367 days.
 *
 * @example
 * ```ts
 * if (expiresInMs > maxServerSessionExpiresInMs) refuse();
 * ```
 */
export const maxServerSessionExpiresInMs = 367 * 24 * 3600 * 1000;

/**
 * How many client apps with automatic prefetch make the SDK warn.
 *
 * @example
 * ```ts
 * if (apps.size > clientAppPrefetchWarningThreshold) console.warn('many apps');
 * ```
 */
export const clientAppPrefetchWarningThreshold = 10;

/**
 * How long a redirect waits for the page to go.
 *
 * @example
 * ```ts
 * navigate(url); await sleep(redirectWaitMs);
 * ```
 */
export const redirectWaitMs = 2_000;

/**
 * Attempts of one request before the SDK gives up.
 *
 * @example
 * ```ts
 * for (let i = 0; i < networkRetryAttempts; i++) await attempt();
 * ```
 */
export const networkRetryAttempts = 5;

/**
 * Base of the exponential retry delay (with jitter 0.5..1.5).
 *
 * @example
 * ```ts
 * (0.5 + Math.random()) * networkRetryBaseDelayMs * 2 ** attempt;
 * ```
 */
export const networkRetryBaseDelayMs = 1_000;

/**
 * The longest wait a timer accepts.
 *
 * @example
 * ```ts
 * setTimeout(fn, Math.min(delayMs, maxTimeoutMs));
 * ```
 */
export const maxTimeoutMs = 2_147_483_647;

/**
 * Concurrent loads of one cache key.
 *
 * @example
 * ```ts
 * if (inFlight >= cacheConcurrency) return inFlightPromise;
 * ```
 */
export const cacheConcurrency = 1;

/**
 * Least time between two loads of one cache key.
 *
 * @example
 * ```ts
 * if (now - lastLoad < cacheThrottleMs) return cached;
 * ```
 */
export const cacheThrottleMs = 300;

/**
 * How long a cache entry outlives its last subscriber.
 *
 * @example
 * ```ts
 * setTimeout(drop, cacheDropAfterLastSubscriberMs);
 * ```
 */
export const cacheDropAfterLastSubscriberMs = 5_000;

/**
 * Lifetime of a signed assertion.
 *
 * @example
 * ```ts
 * exp: iat + signedAssertionLifetimeSeconds;
 * ```
 */
export const signedAssertionLifetimeSeconds = 60;

/**
 * How long a fetched JWKS is reused.
 *
 * @example
 * ```ts
 * if (age < keySetCacheSeconds * 1000) return cachedKeys;
 * ```
 */
export const keySetCacheSeconds = 300;

/**
 * Clock skew allowed when verifying tokens.
 *
 * @example
 * ```ts
 * await jwtVerify(token, keys, { clockTolerance: clockToleranceSeconds });
 * ```
 */
export const clockToleranceSeconds = 30;

/**
 * The smallest RSA key accepted.
 *
 * @example
 * ```ts
 * if (modulusLength < rsaMinimumKeyBits) refuse();
 * ```
 */
export const rsaMinimumKeyBits = 2048;

/**
 * Nonces remembered to refuse replays.
 *
 * @example
 * ```ts
 * if (seen.size > nonceCacheEntries) seen.delete(oldest);
 * ```
 */
export const nonceCacheEntries = 100;

/**
 * Digits of a TOTP code.
 *
 * @example
 * ```ts
 * code.length === totpDigits;
 * ```
 */
export const totpDigits = 6;

/**
 * Whether permission lists include contained permissions by default.
 *
 * @example
 * ```ts
 * query.recursive ?? recursivePermissionsDefault;
 * ```
 */
export const recursivePermissionsDefault = true;

/**
 * Lifetime of the access tokens the service issues.
 *
 * @example
 * ```ts
 * exp: iat + accessTokenLifetimeSeconds;
 * ```
 */
export const accessTokenLifetimeSeconds = 600;

/**
 * The shortest password accepted.
 *
 * @example
 * ```ts
 * password.length >= passwordMinLength;
 * ```
 */
export const passwordMinLength = 8;

/**
 * The longest password accepted.
 *
 * @example
 * ```ts
 * password.length <= passwordMaxLength;
 * ```
 */
export const passwordMaxLength = 70;

/**
 * Length of refresh tokens, codes and key bodies (lowercase Crockford base32).
 *
 * @example
 * ```ts
 * token.length === randomTokenLength;
 * ```
 */
export const randomTokenLength = 45;

/**
 * Every business constant and limit of spec §9 in one object. Each is also
 * exported on its own, so a bundle keeps only the ones it reads.
 *
 * @example
 * ```ts
 * await sleep(constants.redirectWaitMs);
 * ```
 */
export const constants = {
  refreshTokenCookieMaxAgeSeconds,
  accessTokenCookieMaxAgeSeconds,
  oauthVerifierCookieMaxAgeSeconds,
  cookieStorePollMs,
  maxRequiredAccessTokenValidityMs,
  requiredAccessTokenValidityMs,
  defaultServerSessionExpiresInMs,
  maxServerSessionExpiresInMs,
  clientAppPrefetchWarningThreshold,
  redirectWaitMs,
  networkRetryAttempts,
  networkRetryBaseDelayMs,
  maxTimeoutMs,
  cacheConcurrency,
  cacheThrottleMs,
  cacheDropAfterLastSubscriberMs,
  signedAssertionLifetimeSeconds,
  keySetCacheSeconds,
  clockToleranceSeconds,
  rsaMinimumKeyBits,
  nonceCacheEntries,
  totpDigits,
  recursivePermissionsDefault,
  accessTokenLifetimeSeconds,
  passwordMinLength,
  passwordMaxLength,
  randomTokenLength,
} as const;
