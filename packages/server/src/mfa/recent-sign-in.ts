/**
 * Changing a second factor without a proof of it: `totp_secret_base64` of
 * `PATCH /users/me` (the 2.7 SDK's way to set or clear the secret). A client
 * may do it only in a session opened a few minutes ago, so a stolen session
 * (a copied refresh token, a borrowed browser) cannot turn the factor off or
 * replace it; later, the user signs in again, or proves a code on the routes
 * that take one (`DELETE /users/me/mfa/totp`). Server code is not limited.
 */
import { KnownError } from '@latchkey/protocol';
import type { RequestAuth } from '../http/env.js';
import { sessionOpenedAt } from '../sessions/session-store.js';
import type { Db } from '../storage/db.js';

/** How long after signing in a session may still change its user's TOTP without a proof. */
const totpChangeWindowMs = 10 * 60_000;

const signInAgain =
  'Sign in again to change two-step sign-in: this session signed in more than 10 minutes ago. ' +
  '(Or turn it off with a code from the authenticator app.)';

/**
 * Throws USER_AUTHENTICATION_REQUIRED unless `auth` is server or admin
 * access, or the session of its access token signed in within the window.
 *
 * @example
 * if (body.totp_secret_base64 !== undefined) await requireRecentSignIn(deps.db, auth, userId, deps.clock.now());
 */
export async function requireRecentSignIn(db: Db, auth: RequestAuth, userId: string, now: number): Promise<void> {
  if (auth.accessType !== 'client') return;
  const sessionId = auth.sessionId ?? null;
  const openedAt = sessionId && (await sessionOpenedAt(db, { projectId: auth.project.id, userId, sessionId }));
  if (openedAt && now - openedAt.getTime() <= totpChangeWindowMs) return;
  throw new KnownError('USER_AUTHENTICATION_REQUIRED', undefined, signInAgain);
}
