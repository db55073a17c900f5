/**
 * Sessions over the API: creation by server code (`POST /auth/sessions`),
 * a new access token for the refresh token of the request
 * (`POST /auth/sessions/current/refresh`), sign-out (`DELETE /auth/sessions/current`, refresh token from the header,
 * or from the cookie in the refresh-token cookie mode), and a user's list.
 */
import { constants, KnownError } from '@latchkey/protocol';
import { z } from 'zod';
import { deviceOf } from '../common/device.js';
import { millis, successAnswer } from '../common/schemas.js';
import { constantTimeEqual, sha256Hex } from '../crypto/hash.js';
import { requestContext } from '../events/recorder.js';
import { countryOf } from '../http/client-address.js';
import { defineRoute, type Route } from '../http/route.js';
import { resolveUser, userRefErrors } from '../users/user-ref.js';
import { findUser } from '../users/user-store.js';
import { completeSignIn, refreshAnswer, sessionTokensAnswer } from './complete-sign-in.js';
import { listUserSessions } from './session-store.js';
import { revokeSession, signOutSession } from './sessions-actions.js';

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
  handler: async (input) => {
    const { auth, userId: signedIn, body, deps } = input;
    let userId = body.user_id;
    if (userId === 'me') {
      if (!signedIn) throw new KnownError('CANNOT_GET_OWN_USER_WITHOUT_USER');
      userId = signedIn;
    }
    const user = await findUser(deps.db, auth.project.id, userId);
    if (!user) throw new KnownError('USER_ID_DOES_NOT_EXIST', { user_id: body.user_id });
    // Server code acting as the user: an impersonation when it says so, a session it opened otherwise.
    const server = {
      impersonation: body.is_impersonation ?? false,
      lifetimeMs: body.expires_in_millis ?? constants.defaultServerSessionExpiresInMs,
    };
    return completeSignIn(input, {
      method: { server },
      user: { userId: user.id, isNewUser: false },
      answer: 'session',
    });
  },
});

const refreshCurrent = defineRoute({
  method: 'POST',
  path: '/auth/sessions/current/refresh',
  tag: 'sessions',
  summary:
    'A new access token for the session of the refresh token sent in `x-stack-refresh-token` (or, in the cookie mode, held in the cookie); the refresh token stays the same.',
  access: 'client',
  answer: z.strictObject({ access_token: z.string() }).meta({ id: 'RefreshedAccessToken' }),
  errors: ['REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED'],
  handler: async ({ auth, refreshToken, request, client, deps }) => {
    if (!refreshToken) throw new KnownError('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
    // The token endpoint's refresh, without rotation: this answer has no place for a new refresh token.
    const refreshed = await refreshAnswer(deps, {
      projectId: auth.project.id,
      refreshToken,
      rotates: false,
      now: deps.clock.now(),
      country: countryOf(request, deps.countryHeader),
      client,
    });
    return { access_token: refreshed.access_token };
  },
});

const signOut = defineRoute({
  method: 'DELETE',
  path: '/auth/sessions/current',
  tag: 'sessions',
  summary:
    'Signs out: ends the session of the refresh token sent in `x-stack-refresh-token` (or, in the cookie mode, held in the cookie, which is cleared).',
  access: 'client',
  answer: successAnswer,
  errors: ['REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED'],
  endsSession: true,
  handler: async ({ auth, refreshToken, client, deps }) => {
    if (!refreshToken) throw new KnownError('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
    // Found as a refresh finds it (in memory when this instance holds it), then ended in one statement.
    const session = await deps.sessions.find(auth.project.id, refreshToken, deps.clock.now());
    if (!session) throw new KnownError('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
    // The session's own user signs out, whether or not an access token came along.
    await signOutSession(requestContext({ auth, userId: session.user_id, client, deps }), session.id, session.user_id);
    return { success: true as const };
  },
});

/** A session as its user or server code sees it. */
const sessionSchema = z
  .object({
    id: z.uuid(),
    user_id: z.uuid(),
    created_at_millis: millis,
    last_used_at_millis: millis,
    expires_at_millis: millis,
    ip: z.string().nullable(),
    user_agent: z.string().nullable(),
    browser: z.string().nullable().meta({
      description: 'Latchkey extension: the browser `user_agent` names (`Chrome`, `Firefox`), null when it names none.',
    }),
    os: z.string().nullable().meta({
      description:
        'Latchkey extension: the operating system `user_agent` names (`macOS`, `Android`), null when it names none.',
    }),
    country: z.string().nullable().meta({
      description:
        'Latchkey extension: the ISO 3166 alpha-2 code of the country the session was opened from, read from the trusted country header (`countryHeader`); null when none is configured or sent.',
    }),
    is_impersonation: z.boolean(),
    is_current: z.boolean().meta({ description: 'The session of the refresh token sent with this request.' }),
  })
  .strict()
  .meta({ id: 'Session' });

const listSessions = defineRoute({
  method: 'GET',
  path: '/auth/sessions',
  tag: 'sessions',
  summary: "A user's active sessions, most recently used first: where and when each was opened and last used.",
  access: 'client',
  query: z.object({ user_id: z.string().max(100).default('me') }),
  answer: z.object({ items: z.array(sessionSchema), is_paginated: z.literal(false) }).meta({ id: 'SessionList' }),
  errors: userRefErrors,
  handler: async ({ auth, query, refreshToken, deps }) => {
    const user = await resolveUser(deps.db, auth, query.user_id);
    const rows = await listUserSessions(deps.db, auth.project.id, user.id, deps.clock.now());
    const currentHash = refreshToken ? sha256Hex(refreshToken) : null;
    return {
      is_paginated: false as const,
      items: rows.map((row) => ({
        id: row.id,
        user_id: row.user_id,
        created_at_millis: row.created_at.getTime(),
        last_used_at_millis: row.last_used_at.getTime(),
        expires_at_millis: row.expires_at.getTime(),
        ip: row.ip,
        user_agent: row.user_agent,
        ...deviceOf(row.user_agent),
        country: row.country,
        is_impersonation: row.is_impersonation,
        is_current: currentHash !== null && constantTimeEqual(row.refresh_token_hash, currentHash),
      })),
    };
  },
});

const revokeSessionRoute = defineRoute({
  method: 'DELETE',
  path: '/auth/sessions/:sessionId',
  tag: 'sessions',
  summary: 'Ends one session: a user their own, server code any in the project. Its refresh token stops working.',
  access: 'client',
  params: z.object({ sessionId: z.string().max(100) }),
  answer: successAnswer,
  errors: ['SESSION_NOT_FOUND', 'CANNOT_GET_OWN_USER_WITHOUT_USER'],
  handler: async (input) => {
    const { auth, params } = input;
    let owner: string | undefined;
    if (auth.accessType === 'client') {
      if (!auth.userId) throw new KnownError('CANNOT_GET_OWN_USER_WITHOUT_USER');
      owner = auth.userId;
    }
    await revokeSession(requestContext(input), params.sessionId, owner);
    return { success: true as const };
  },
});

export const sessionRoutes: Route[] = [createSessionRoute, refreshCurrent, signOut, listSessions, revokeSessionRoute];
