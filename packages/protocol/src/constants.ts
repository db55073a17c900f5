/** Business constants, cookie names, key prefixes and handler routes shared by the SDK and the service. */

/**
 * Business constants and limits (spec §9).
 *
 * @example
 * ```ts
 * await sleep(constants.redirectWaitMs);
 * ```
 */
export const constants = {
  refreshTokenCookieMaxAgeSeconds: 31_536_000,
  accessTokenCookieMaxAgeSeconds: 86_400,
  oauthVerifierCookieMaxAgeSeconds: 3_600,
  cookieStorePollMs: 100,
  /** The most remaining validity a caller may demand of an access token. */
  maxRequiredAccessTokenValidityMs: 60_000,
  /** The validity the SDK asks for when it reads tokens. */
  requiredAccessTokenValidityMs: 20_000,
  defaultServerSessionExpiresInMs: 31_536_000_000,
  maxServerSessionExpiresInMs: 367 * 24 * 3600 * 1000,
  clientAppPrefetchWarningThreshold: 10,
  redirectWaitMs: 2_000,
  networkRetryAttempts: 5,
  networkRetryBaseDelayMs: 1_000,
  maxTimeoutMs: 2_147_483_647,
  cacheConcurrency: 1,
  cacheThrottleMs: 300,
  cacheDropAfterLastSubscriberMs: 5_000,
  signedAssertionLifetimeSeconds: 60,
  keySetCacheSeconds: 300,
  clockToleranceSeconds: 30,
  rsaMinimumKeyBits: 2048,
  nonceCacheEntries: 100,
  totpDigits: 6,
  recursivePermissionsDefault: true,
  /** Access-token lifetime the service issues. */
  accessTokenLifetimeSeconds: 600,
  passwordMinLength: 8,
  passwordMaxLength: 70,
  /** Length of refresh tokens, codes and key bodies: lowercase Crockford base32. */
  randomTokenLength: 45,
} as const;

/**
 * Cookie names of the browser token store (wire-protocol.md §8).
 *
 * @example
 * ```ts
 * cookieNames.refreshToken(projectId); // 'stack-refresh-<projectId>'
 * ```
 */
export const cookieNames = {
  refreshToken: (projectId: string) => `stack-refresh-${projectId}`,
  legacyRefreshToken: 'stack-refresh',
  accessToken: 'stack-access',
  isHttps: 'stack-is-https',
  oauthVerifier: (state: string) => `stack-oauth-outer-${state}`,
} as const;

/**
 * Prefixes of the three API key kinds (wire-protocol.md §6).
 *
 * @example
 * ```ts
 * if (!key.startsWith(apiKeyPrefixes.publishableClientKey)) throw new Error('not a publishable key');
 * ```
 */
export const apiKeyPrefixes = {
  publishableClientKey: 'pck_',
  secretServerKey: 'ssk_',
  superSecretAdminKey: 'sak_',
} as const;

/**
 * Where the handler pages live by default (spec §2).
 *
 * @example
 * ```ts
 * const signIn = `${defaultHandlerPath}/sign-in`;
 * ```
 */
export const defaultHandlerPath = '/handler';

/**
 * The pages the handler serves, as path segments below the handler path (spec §2).
 *
 * @example
 * ```ts
 * handlerPages.includes('sign-in'); // true
 * ```
 */
export const handlerPages = [
  'sign-in',
  'sign-up',
  'sign-out',
  'email-verification',
  'password-reset',
  'forgot-password',
  'oauth-callback',
  'magic-link-callback',
  'account-settings',
  'error',
  'team-invitation',
] as const;
/**
 * One handler page.
 *
 * @example
 * ```ts
 * const page: HandlerPage = 'sign-up';
 * ```
 */
export type HandlerPage = (typeof handlerPages)[number];

/**
 * The query parameter that carries the page to return to after signing in.
 *
 * @example
 * ```ts
 * new URL(location.href).searchParams.get(afterAuthReturnToParam);
 * ```
 */
export const afterAuthReturnToParam = 'after_auth_return_to';

/**
 * Issuer (`iss`) of access tokens (wire-protocol.md §5.1).
 *
 * @example
 * ```ts
 * await jwtVerify(token, keys, { issuer: accessTokenIssuer });
 * ```
 */
export const accessTokenIssuer = 'https://access-token.jwt-signature.stack-auth.com';

/**
 * The id of the project that hosts dashboard users.
 *
 * @example
 * ```ts
 * const isDashboard = projectId === internalProjectId;
 * ```
 */
export const internalProjectId = 'internal';
