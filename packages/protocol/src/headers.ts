/** Names of the HTTP headers the protocol uses (wire-protocol.md §2 and §3). */
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

/** Request headers a browser may send cross-origin (CORS allow-list). */
export const corsAllowedHeaders = [
  'content-type',
  'authorization',
  headers.projectId,
  headers.overrideErrorStatus,
  headers.randomNonce,
  headers.clientVersion,
  'x-stack-disable-artificial-development-delay',
  headers.accessType,
  headers.publishableClientKey,
  headers.secretServerKey,
  headers.superSecretAdminKey,
  headers.adminAccessToken,
  headers.refreshToken,
  headers.accessToken,
  'baggage',
  'sentry-trace',
] as const;

/** Response headers a browser may read cross-origin (decision e). */
export const corsExposedHeaders = ['content-type', headers.actualStatus, headers.knownError] as const;

export const accessTypes = ['client', 'server', 'admin'] as const;
export type AccessType = (typeof accessTypes)[number];

/** Base path of every API route. */
export const apiBasePath = '/api/v1';
