/**
 * Sessions over the API: creation by server code (`POST /auth/sessions`) and
 * sign-out (`DELETE /auth/sessions/current`, refresh token from the header).
 */
import { type CreateSessionResponseWire, constants, headers, KnownError } from '@latchkey/protocol';
import type { Hono } from 'hono';
import { z } from 'zod';
import { emptyBody, readJson } from '../http/body.js';
import type { AppEnv, Deps } from '../http/env.js';
import { jsonResponse } from '../http/responses.js';
import { findUser, isUserId } from '../users/user-store.js';
import { requireAccess } from '../access/request-auth.js';
import { createSession, revokeSession } from './session-store.js';

const createSessionBody = z.strictObject({
  user_id: z.string().min(1).max(100),
  expires_in_millis: z.number().int().positive().max(constants.maxServerSessionExpiresInMs).optional(),
  is_impersonation: z.boolean().optional(),
});

export function registerSessionRoutes(api: Hono<AppEnv>, deps: Deps): void {
  const { db } = deps.storage;

  api.post('/auth/sessions', requireAccess(deps, 'server'), async (c) => {
    const body = await readJson(c.req.raw, createSessionBody, deps.bodyLimitBytes);
    const auth = c.get('auth');
    let userId = body.user_id;
    if (userId === 'me') {
      if (!auth.userId) throw new KnownError('CANNOT_GET_OWN_USER_WITHOUT_USER');
      userId = auth.userId;
    }
    const user = isUserId(userId) ? await findUser(db, auth.project.id, userId.toLowerCase()) : null;
    if (!user) throw new KnownError('USER_ID_DOES_NOT_EXIST', { user_id: body.user_id });
    const { refreshToken } = await createSession(db, {
      projectId: auth.project.id,
      userId: user.id,
      now: deps.clock.now(),
      lifetimeMs: body.expires_in_millis ?? constants.defaultServerSessionExpiresInMs,
    });
    const answer: CreateSessionResponseWire = {
      access_token: await deps.accessTokens.issue(auth.project.id, user.id),
      refresh_token: refreshToken,
    };
    return jsonResponse(answer);
  });

  api.delete('/auth/sessions/current', requireAccess(deps, 'client'), async (c) => {
    await readJson(c.req.raw, emptyBody, deps.bodyLimitBytes);
    const { project } = c.get('auth');
    const refreshToken = c.req.header(headers.refreshToken);
    const revoked = refreshToken ? await revokeSession(db, project.id, refreshToken, deps.clock.now()) : false;
    if (!revoked) throw new KnownError('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
    return jsonResponse({ success: true });
  });
}
