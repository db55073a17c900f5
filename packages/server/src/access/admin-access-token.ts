/**
 * `x-stack-admin-access-token` (wire-protocol §7.3): an access token of an
 * internal-project user that would grant admin access to the projects the
 * user owns. Project ownership is not implemented yet, so a readable token
 * never grants access: it is ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN.
 */
import { KnownError, type KnownErrorCode } from '@latchkey/protocol';
import type { AccessTokens } from '../tokens/access-tokens.js';

/** The known errors `checkAdminAccessToken` may throw. */
export const adminAccessTokenErrors = [
  'ADMIN_ACCESS_TOKEN_EXPIRED',
  'UNPARSABLE_ADMIN_ACCESS_TOKEN',
  'ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN',
] as const satisfies readonly KnownErrorCode[];

/** Checks an admin access token; throws the matching INVALID_ADMIN_ACCESS_TOKEN error. */
export async function checkAdminAccessToken(token: string, accessTokens: AccessTokens): Promise<never> {
  const check = await accessTokens.check(token);
  if (!check.ok) {
    throw check.reason === 'expired'
      ? new KnownError('ADMIN_ACCESS_TOKEN_EXPIRED', { expired_at_millis: null })
      : new KnownError('UNPARSABLE_ADMIN_ACCESS_TOKEN');
  }
  // A token of another project, or an internal user: neither owns projects yet.
  throw new KnownError('ADMIN_ACCESS_TOKEN_IS_NOT_ADMIN');
}
