/**
 * `x-stack-admin-access-token` (wire-protocol §7.3): the access token of a
 * user of the `internal` project, which grants the requested access type to
 * the projects that user owns, with no project key. Each refusal is an
 * INVALID_ADMIN_ACCESS_TOKEN error, checked in the protocol's order. A user
 * deleted since the token was issued owns nothing: ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN
 * (the original backend answers a plain 401 there, which no SDK can parse).
 */
import { internalProjectId, KnownError, type KnownErrorCode } from '@latchkey/protocol';
import { findOwnership } from '../projects/project-owner-store.js';
import type { ProjectRecord } from '../projects/projects.js';
import type { SessionRevocations } from '../sessions/revocations.js';
import type { Db } from '../storage/db.js';
import type { AccessTokens } from '../tokens/access-tokens.js';
import type { AuthCache } from './auth-cache.js';

/** The known errors `checkAdminAccessToken` may throw. */
export const adminAccessTokenErrors = [
  'ADMIN_ACCESS_TOKEN_EXPIRED',
  'UNPARSABLE_ADMIN_ACCESS_TOKEN',
  'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN',
  'INVALID_PROJECT_FOR_ADMIN_ACCESS_TOKEN',
] as const satisfies readonly KnownErrorCode[];

/** What checking an admin access token needs of the service. */
export interface AdminTokenNeeds {
  db: Db;
  accessTokens: AccessTokens;
  /** Projects and their keys as request authentication reads them, cached per project. */
  authCache: AuthCache;
  /** Sessions revoked anywhere, whose access tokens are refused at once. */
  revocations: SessionRevocations;
}

/** The project the admin token's user owns (and that user), or the matching INVALID_ADMIN_ACCESS_TOKEN error. */
export async function checkAdminAccessToken(
  token: string,
  projectId: string,
  deps: AdminTokenNeeds,
): Promise<{ project: ProjectRecord; ownerId: string }> {
  const check = await deps.accessTokens.check(token);
  if (!check.ok) {
    throw check.reason === 'expired'
      ? new KnownError('ADMIN_ACCESS_TOKEN_EXPIRED', { expired_at_millis: null })
      : new KnownError('UNPARSABLE_ADMIN_ACCESS_TOKEN');
  }
  if (check.projectId !== internalProjectId) throw new KnownError('ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN');
  if (check.sessionId !== null && (await deps.revocations.isRevoked(check.sessionId))) {
    throw new KnownError('ADMIN_ACCESS_TOKEN_EXPIRED', { expired_at_millis: null });
  }
  const { userExists, owns } = await findOwnership(deps.db, projectId, check.userId);
  if (!userExists) {
    throw new KnownError(
      'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN',
      undefined,
      'The user of the admin access token no longer exists.',
    );
  }
  const project = await deps.authCache.project(projectId);
  if (!project) throw new KnownError('INVALID_PROJECT_FOR_ADMIN_ACCESS_TOKEN');
  if (!owns) throw new KnownError('ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN');
  return { project, ownerId: check.userId };
}
