/**
 * Routes that take a user as `me` or an id (`?user_id=`, `/:userId`): one
 * rule for all of them. `me` is the signed-in user. A client may name only
 * itself; server and admin access may name any user of the project.
 */
import { KnownError, type KnownErrorCode } from '@latchkey/protocol';
import type { RequestAuth } from '../http/env.js';
import { StatusRefusal } from '../http/responses.js';
import type { Db } from '../storage/db.js';
import type { UserRow } from '../storage/schema.js';
import { findUser } from './user-store.js';

/** The known errors `resolveUser` may throw. */
export const userRefErrors = [
  'CANNOT_GET_OWN_USER_WITHOUT_USER',
  'INSUFFICIENT_ACCESS_TYPE',
  'USER_NOT_FOUND',
] as const satisfies readonly KnownErrorCode[];

/**
 * The user a request names by `ref` (`me` or an id), or the known error that
 * says why not. With `othersForbidden` (the routes where the original backend
 * answers so: contact channels, the team list), a client naming anyone but
 * itself is refused as there: CANNOT_GET_OWN_USER_WITHOUT_USER when signed
 * out, else a plain 403 with that message (or that refusal itself, for
 * another status); otherwise INSUFFICIENT_ACCESS_TYPE.
 */
export async function resolveUser(
  db: Db,
  auth: RequestAuth,
  ref: string,
  othersForbidden?: string | StatusRefusal,
): Promise<UserRow> {
  const own = ref === 'me' || (auth.userId !== null && ref.toLowerCase() === auth.userId);
  if (ref === 'me' && !auth.userId) throw new KnownError('CANNOT_GET_OWN_USER_WITHOUT_USER');
  if (!own && auth.accessType === 'client') {
    if (othersForbidden !== undefined) {
      if (!auth.userId) throw new KnownError('CANNOT_GET_OWN_USER_WITHOUT_USER');
      throw typeof othersForbidden === 'string' ? new StatusRefusal(403, othersForbidden) : othersForbidden;
    }
    throw new KnownError('INSUFFICIENT_ACCESS_TYPE', {
      actual_access_type: 'client',
      allowed_access_types: ['server', 'admin'],
    });
  }
  const user = await findUser(db, auth.project.id, own ? auth.userId! : ref);
  if (!user) throw new KnownError(own ? 'CANNOT_GET_OWN_USER_WITHOUT_USER' : 'USER_NOT_FOUND');
  return user;
}

/** Whether `ref` (`me` or an id) names the signed-in user of the request. */
export function namesOwnUser(auth: RequestAuth, ref: string | undefined): boolean {
  return ref === 'me' || (auth.userId !== null && ref?.toLowerCase() === auth.userId);
}

/**
 * A client's list that must be of its own user (`user_id`), refused as the
 * original backend does: CANNOT_GET_OWN_USER_WITHOUT_USER when signed out, a
 * plain 403 `message` when `user_id` is missing or names someone else. Server
 * and admin access pass.
 */
export function requireOwnList(auth: RequestAuth, ref: string | undefined, message: string): void {
  if (auth.accessType !== 'client') return;
  if (!auth.userId) throw new KnownError('CANNOT_GET_OWN_USER_WITHOUT_USER');
  if (!namesOwnUser(auth, ref)) throw new StatusRefusal(403, message);
}
