/** Header names of the protocol and the CORS lists built from them (wire-protocol.md §2, §3). */

/**
 * Names of the HTTP headers the protocol uses (wire-protocol.md §2 and §3), lowercase.
 *
 * @example
 * ```ts
 * const code = response.headers.get(headers.knownError);
 * ```
 */
export const headers = {
  overrideErrorStatus: 'x-stack-override-error-status',
  projectId: 'x-stack-project-id',
  accessType: 'x-stack-access-type',
  clientVersion: 'x-stack-client-version',
  publishableClientKey: 'x-stack-publishable-client-key',
  secretServerKey: 'x-stack-secret-server-key',
  superSecretAdminKey: 'x-stack-super-secret-admin-key',
  adminAccessToken: 'x-stack-admin-access-token',
  accessToken: 'x-stack-access-token',
  refreshToken: 'x-stack-refresh-token',
  randomNonce: 'x-stack-random-nonce',
  actualStatus: 'x-stack-actual-status',
  knownError: 'x-stack-known-error',
  requestId: 'x-stack-request-id',
  authJson: 'x-stack-auth',
} as const;

/**
 * Request headers a browser may send cross-origin (CORS allow-list, wire-protocol.md §3).
 * Spelled out rather than read from `headers`, so an unused list costs nothing in a bundle.
 *
 * @example
 * ```ts
 * response.headers.set('access-control-allow-headers', corsAllowedHeaders.join(', '));
 * ```
 */
export const corsAllowedHeaders = [
  'content-type',
  'authorization',
  'x-stack-project-id',
  'x-stack-override-error-status',
  'x-stack-random-nonce',
  'x-stack-client-version',
  'x-stack-disable-artificial-development-delay',
  'x-stack-access-type',
  'x-stack-publishable-client-key',
  'x-stack-secret-server-key',
  'x-stack-super-secret-admin-key',
  'x-stack-admin-access-token',
  'x-stack-refresh-token',
  'x-stack-access-token',
  'baggage',
  'sentry-trace',
] as const;

/**
 * Response headers a browser may read cross-origin (decision e).
 *
 * @example
 * ```ts
 * response.headers.set('access-control-expose-headers', corsExposedHeaders.join(', '));
 * ```
 */
export const corsExposedHeaders = [
  'content-type',
  'x-stack-actual-status',
  'x-stack-known-error',
  // A Latchkey addition to the list of wire-protocol §3: without it a browser hides the wait of a 429 or 503 from the SDK.
  'retry-after',
] as const;

/**
 * The three access types of `x-stack-access-type`, lowest first.
 *
 * @example
 * ```ts
 * if (!accessTypes.includes(value as AccessType)) throw new KnownError('INVALID_ACCESS_TYPE', { accessType: value });
 * ```
 */
export const accessTypes = ['client', 'server', 'admin'] as const;

/**
 * An access type.
 *
 * @example
 * ```ts
 * const type: AccessType = 'client';
 * ```
 */
export type AccessType = (typeof accessTypes)[number];

/**
 * Base path of every API route.
 *
 * @example
 * ```ts
 * const url = `${origin}${apiBasePath}/users/me`;
 * ```
 */
export const apiBasePath = '/api/v1';
