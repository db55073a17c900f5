/**
 * Sessions over the API: creation by server code (`POST /auth/sessions`) and
 * sign-out (`DELETE /auth/sessions/current`, refresh token from the header).
 */
import { constants, headers, KnownError } from '@latchkey/protocol';
import { z } from 'zod';
import { successAnswer } from '../common/schemas.js';
import { defineRoute, type Route } from '../http/route.js';
import { findUser } from '../users/user-store.js';
import { createSession, revokeSession } from './session-store.js';

/** A new session's tokens. */
export const sessionTokensAnswer = z
  .object({ access_token: z.string(), refresh_token: z.string() })
  .meta({ id: 'SessionTokens' });

const createSessionRoute = defineRoute({
  method: 'POST',
  path: '/auth/sessions',
  tag: 'sessions',
  summary: 'Starts a session for a user (server code acting as the user); `user_id` may be `me`.',
  access: 'server',
  body: z.strictObject({
    user_id: z.string().min(1).max(100),
    expires_in_millis: z.number().int().positive().max(constants.maxServerSessionExpiresInMs).optional(),
    is_impersonation: z.boolean().optional(),
  }),
  answer: sessionTokensAnswer,
  errors: ['USER_ID_DOES_NOT_EXIST', 'CANNOT_GET_OWN_USER_WITHOUT_USER'],
  handler: async ({ auth, userId: signedIn, body, deps }) => {
    let userId = body.user_id;
    if (userId === 'me') {
      if (!signedIn) throw new KnownError('CANNOT_GET_OWN_USER_WITHOUT_USER');
      userId = signedIn;
    }
    const user = await findUser(deps.db, auth.project.id, userId);
    if (!user) throw new KnownError('USER_ID_DOES_NOT_EXIST', { user_id: body.user_id });
    const { refreshToken } = await createSession(deps.db, {
      projectId: auth.project.id,
      userId: user.id,
      now: deps.clock.now(),
      lifetimeMs: body.expires_in_millis ?? constants.defaultServerSessionExpiresInMs,
    });
    return { access_token: await deps.accessTokens.issue(auth.project.id, user.id), refresh_token: refreshToken };
  },
});

const signOut = defineRoute({
  method: 'DELETE',
  path: '/auth/sessions/current',
  tag: 'sessions',
  summary: 'Signs out: ends the session of the refresh token sent in `x-stack-refresh-token`.',
  access: 'client',
  answer: successAnswer,
  errors: ['REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED'],
  handler: async ({ auth, request, deps }) => {
    const refreshToken = request.headers.get(headers.refreshToken);
    const revoked = refreshToken
      ? await revokeSession(deps.db, auth.project.id, refreshToken, deps.clock.now())
      : false;
    if (!revoked) throw new KnownError('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
    return { success: true as const };
  },
});

export const sessionRoutes: Route[] = [createSessionRoute, signOut];
