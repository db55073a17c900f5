/**
 * Project authentication of a request (wire-protocol §2, §4.4), in the
 * protocol's order: access type, project id, user access token, admin token or
 * project key, project. Empty-string headers count as absent (decision c).
 * Higher access types include lower ones. Keys and projects are read through
 * the in-memory cache (`auth-cache.ts`); admin tokens are checked against the
 * database on each request.
 */
import { type AccessType, accessTypes, headers, KnownError, type KnownErrorCode } from '@latchkey/protocol';
import { type ApiKeyKind, matchesValidKey } from '../api-keys/api-keys.js';
import type { Clock } from '../common/clock.js';
import type { RequestAuth } from '../http/env.js';
import { type AdminTokenNeeds, adminAccessTokenErrors, checkAdminAccessToken } from './admin-access-token.js';

/** What request authentication needs of the service. */
export interface RequestAuthNeeds extends AdminTokenNeeds {
  clock: Clock;
}

const rank: Record<AccessType, number> = { client: 0, server: 1, admin: 2 };

const keyByAccessType = {
  client: {
    kind: 'publishableClientKey',
    missing: 'CLIENT_AUTHENTICATION_REQUIRED',
    invalid: 'INVALID_PUBLISHABLE_CLIENT_KEY',
  },
  server: { kind: 'secretServerKey', missing: 'SERVER_AUTHENTICATION_REQUIRED', invalid: 'INVALID_SECRET_SERVER_KEY' },
  admin: {
    kind: 'superSecretAdminKey',
    missing: 'ADMIN_AUTHENTICATION_REQUIRED',
    invalid: 'INVALID_SUPER_SECRET_ADMIN_KEY',
  },
} as const satisfies Record<AccessType, { kind: ApiKeyKind; missing: string; invalid: string }>;

const keyHeaders: Record<ApiKeyKind, string> = {
  publishableClientKey: headers.publishableClientKey,
  secretServerKey: headers.secretServerKey,
  superSecretAdminKey: headers.superSecretAdminKey,
};

/** The access types at or above `minimum`. */
function accessTypesFrom(minimum: AccessType): AccessType[] {
  return accessTypes.filter((type) => rank[type] >= rank[minimum]);
}

function isAccessType(value: string): value is AccessType {
  return (accessTypes as readonly string[]).includes(value);
}

const sessionEnded = 'The session of this access token has ended (signed out or revoked).';

/**
 * The user and session of `token`, a user access token of `projectId`: its
 * signature and expiry checked, and its session not revoked (a signed-out
 * session's tokens stop now, not when they expire; the SDK then refreshes, and
 * is signed out). Throws the protocol's known error otherwise. Every route
 * that takes a user's access token checks it here.
 */
export async function checkUserAccessToken(
  deps: Pick<RequestAuthNeeds, 'accessTokens' | 'revocations'>,
  token: string,
  projectId: string,
): Promise<{ userId: string; sessionId: string | null }> {
  const check = await deps.accessTokens.check(token);
  if (!check.ok) {
    throw check.reason === 'expired'
      ? new KnownError('ACCESS_TOKEN_EXPIRED', { expired_at_millis: null })
      : new KnownError('UNPARSABLE_ACCESS_TOKEN');
  }
  if (check.projectId !== projectId) throw new KnownError('INVALID_PROJECT_FOR_ACCESS_TOKEN');
  if (check.sessionId !== null && (await deps.revocations.isRevoked(check.sessionId))) {
    throw new KnownError('ACCESS_TOKEN_EXPIRED', { expired_at_millis: null }, sessionEnded);
  }
  return { userId: check.userId, sessionId: check.sessionId };
}

/** How a route lets callers in besides the protocol's keys and tokens. */
export interface AuthOptions {
  /**
   * A webhook token (`POST /webhooks/svix-token`) in `authorization: Bearer`
   * stands for an admin key of its project: on the webhook routes only
   * (`webhooks/webhook-token.ts`). Elsewhere the header is ignored.
   */
  webhookToken?: boolean;
}

/** Authenticates `request`, throwing the protocol's known error on the first failed check. */
export async function authenticate(
  request: Request,
  deps: RequestAuthNeeds,
  options: AuthOptions = {},
): Promise<RequestAuth> {
  const header = (name: string) => request.headers.get(name) || undefined;
  const accessTypeHeader = header(headers.accessType);
  const adminToken = header(headers.adminAccessToken);
  if (!accessTypeHeader) {
    const anyKey = Object.values(keyHeaders).some((name) => header(name));
    throw new KnownError(anyKey || adminToken ? 'PROJECT_KEY_WITHOUT_ACCESS_TYPE' : 'ACCESS_TYPE_REQUIRED');
  }
  if (!isAccessType(accessTypeHeader)) throw new KnownError('INVALID_ACCESS_TYPE', { accessType: accessTypeHeader });
  const accessType = accessTypeHeader;
  const projectId = header(headers.projectId);
  if (!projectId) throw new KnownError('ACCESS_TYPE_WITHOUT_PROJECT_ID', { request_type: accessType });

  let userId: string | null = null;
  let sessionId: string | null = null;
  const accessToken = header(headers.accessToken);
  if (accessToken) ({ userId, sessionId } = await checkUserAccessToken(deps, accessToken, projectId));

  if (adminToken) {
    const admin = await checkAdminAccessToken(adminToken, projectId, deps);
    return { accessType, project: admin.project, userId, sessionId, actorId: admin.ownerId };
  }
  const { kind, missing, invalid } = keyByAccessType[accessType];
  const key = header(keyHeaders[kind]);
  const bearer = /^Bearer ([^\s]+)$/i.exec(header('authorization') ?? '')?.[1];
  if (!key && bearer && options.webhookToken && accessType === 'admin') {
    return { accessType, ...(await checkWebhookToken(bearer, projectId, deps)), userId, sessionId };
  }
  if (!key) throw new KnownError(missing);
  const keys = await deps.authCache.keys(projectId, kind);
  const keySetId = matchesValidKey(keys, key, deps.clock.now());
  if (keySetId === null) throw new KnownError(invalid, { project_id: projectId });

  const project = await deps.authCache.project(projectId);
  if (!project) throw new KnownError('PROJECT_NOT_FOUND', { project_id: projectId });
  return { accessType, project, userId, sessionId, actorId: accessType === 'client' ? userId : keySetId };
}

/**
 * The caller of a route open to anyone (`access: 'optional'`): null when the
 * request names no access type, key or admin token (a user access token alone
 * names no project), else authenticated as any route authenticates it.
 */
export async function authenticateIfNamed(
  request: Request,
  deps: RequestAuthNeeds,
  options: AuthOptions = {},
): Promise<RequestAuth | null> {
  const named = [headers.accessType, headers.adminAccessToken, ...Object.values(keyHeaders)];
  if (!named.some((name) => request.headers.get(name))) return null;
  return authenticate(request, deps, options);
}

/** The project of a webhook token and who asked for it, or the INVALID_ADMIN_ACCESS_TOKEN error an admin token would get. */
async function checkWebhookToken(
  token: string,
  projectId: string,
  deps: RequestAuthNeeds,
): Promise<Pick<RequestAuth, 'project' | 'actorId'>> {
  const check = await deps.accessTokens.checkWebhookToken(token);
  if (!check.ok) {
    throw check.reason === 'expired'
      ? new KnownError('ADMIN_ACCESS_TOKEN_EXPIRED', { expired_at_millis: null })
      : new KnownError('UNPARSABLE_ADMIN_ACCESS_TOKEN');
  }
  if (check.projectId !== projectId) throw new KnownError('INVALID_PROJECT_FOR_ADMIN_ACCESS_TOKEN');
  const project = await deps.authCache.project(projectId);
  if (!project) throw new KnownError('PROJECT_NOT_FOUND', { project_id: projectId });
  return { project, actorId: check.actorId };
}

/** Refuses access types below `minimum` with INSUFFICIENT_ACCESS_TYPE. */
export function requireAccessType(auth: RequestAuth, minimum: AccessType): void {
  if (rank[auth.accessType] < rank[minimum]) {
    throw new KnownError('INSUFFICIENT_ACCESS_TYPE', {
      actual_access_type: auth.accessType,
      allowed_access_types: accessTypesFrom(minimum),
    });
  }
}

/** The known errors `authenticate` and `requireAccessType` may answer for a route of access `minimum`. */
export function projectAuthErrors(minimum: AccessType): KnownErrorCode[] {
  return [
    'ACCESS_TYPE_REQUIRED',
    'PROJECT_KEY_WITHOUT_ACCESS_TYPE',
    'INVALID_ACCESS_TYPE',
    'ACCESS_TYPE_WITHOUT_PROJECT_ID',
    'ACCESS_TOKEN_EXPIRED',
    'UNPARSABLE_ACCESS_TOKEN',
    'INVALID_PROJECT_FOR_ACCESS_TOKEN',
    ...adminAccessTokenErrors,
    ...Object.values(keyByAccessType).flatMap(({ missing, invalid }) => [missing, invalid]),
    'PROJECT_NOT_FOUND',
    ...(minimum === 'client' ? [] : (['INSUFFICIENT_ACCESS_TYPE'] as const)),
  ];
}

/** The known error of a request that needs a signed-in user and has none. */
export type SignedOutError = 'CANNOT_GET_OWN_USER_WITHOUT_USER' | 'USER_AUTHENTICATION_REQUIRED' | 'SCHEMA_ERROR';

/** The signed-in user of the request, or `signedOut` (default CANNOT_GET_OWN_USER_WITHOUT_USER). */
export function requireUserId(
  auth: RequestAuth,
  signedOut: SignedOutError = 'CANNOT_GET_OWN_USER_WITHOUT_USER',
): string {
  if (auth.userId) return auth.userId;
  if (signedOut === 'SCHEMA_ERROR')
    throw new KnownError('SCHEMA_ERROR', { message: 'auth.user: a signed-in user is required' });
  throw new KnownError(signedOut);
}
