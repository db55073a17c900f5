/**
 * Tokens: `POST /auth/oauth/token` (wire-protocol §5.3), the OAuth token
 * endpoint, and the public JWKS of a project. The token endpoint takes a form
 * body and client authentication (project id and publishable key, in the body
 * or as HTTP Basic), carries no `x-stack-*` headers, and answers errors with
 * their real status. Only `grant_type=refresh_token` is supported so far; the
 * refresh token is not rotated (decision b).
 */
import { constants, KnownError } from '@latchkey/protocol';
import { z } from 'zod';
import { matchesValidKey } from '../api-keys/api-keys.js';
import { jsonResponse } from '../http/responses.js';
import { defineRoute, type Route } from '../http/route.js';
import { countryOf, recordUserActivity } from '../metrics/activity.js';
import { findProject } from '../projects/projects.js';
import { findSession, touchSession } from '../sessions/session-store.js';

/** An OAuth error body (RFC 6749 §5.2) for cases the known-error catalogue has no code for. */
function oauthError(error: string, description: string): Response {
  return jsonResponse({ error, error_description: description }, 400);
}

/** `client_secret_basic` credentials, or null. */
function basicCredentials(authorization: string | null): { id: string; secret: string } | null {
  const match = authorization?.match(/^Basic\s+([A-Za-z0-9+/=]+)\s*$/i);
  if (!match) return null;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return null;
  try {
    return {
      id: decodeURIComponent(decoded.slice(0, colon)),
      secret: decodeURIComponent(decoded.slice(colon + 1)),
    };
  } catch {
    return null;
  }
}

const tokenForm = z.object({
  grant_type: z.literal('refresh_token'),
  refresh_token: z.string(),
  client_id: z.string().optional().meta({ description: 'The project id (or send HTTP Basic credentials).' }),
  client_secret: z.string().optional().meta({ description: 'The publishable client key.' }),
});

const refreshAnswer = z
  .object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().positive(),
    scope: z.string(),
  })
  .meta({ id: 'RefreshAnswer' });

const issueToken = defineRoute({
  method: 'POST',
  path: '/auth/oauth/token',
  tag: 'tokens',
  summary: 'OAuth token endpoint: a new access token for a refresh token (the refresh token is not rotated).',
  access: 'none',
  body: { form: tokenForm },
  answer: refreshAnswer,
  errors: ['INVALID_OAUTH_CLIENT_ID_OR_SECRET', 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED'],
  handler: async ({ request, body: form, deps }) => {
    for (const name of new Set(form.keys())) {
      if (form.getAll(name).length > 1) return oauthError('invalid_request', `Parameter ${name} is repeated.`);
    }
    const grantType = form.get('grant_type');
    if (!grantType) return oauthError('invalid_request', 'Missing grant_type.');
    if (grantType !== 'refresh_token') {
      return oauthError('unsupported_grant_type', `Grant type ${grantType} is not supported.`);
    }

    const basic = basicCredentials(request.headers.get('authorization'));
    const clientId = basic?.id ?? form.get('client_id') ?? '';
    const clientSecret = basic?.secret ?? form.get('client_secret') ?? '';
    const now = deps.clock.now();
    const clientValid =
      clientId !== '' &&
      clientSecret !== '' &&
      matchesValidKey(await deps.authCache.keys(clientId, 'publishableClientKey'), clientSecret, now);
    if (!clientValid) throw new KnownError('INVALID_OAUTH_CLIENT_ID_OR_SECRET', { client_id: clientId || null });

    const refreshToken = form.get('refresh_token');
    if (!refreshToken) return oauthError('invalid_request', 'Missing refresh_token.');
    const session = await findSession(deps.db, clientId, refreshToken, now);
    if (!session) throw new KnownError('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
    await touchSession(deps.db, session, now);
    const country = countryOf(request, deps.countryHeader);
    await recordUserActivity(deps.db, { projectId: clientId, userId: session.user_id, now, country });
    return {
      access_token: await deps.accessTokens.issue(clientId, session.user_id),
      token_type: 'Bearer' as const,
      expires_in: constants.accessTokenLifetimeSeconds,
      scope: 'legacy',
    };
  },
});

const jwk = z.looseObject({ kid: z.string(), kty: z.string(), alg: z.literal('ES256'), use: z.literal('sig') });

const getJwks = defineRoute({
  method: 'GET',
  path: '/projects/:projectId/.well-known/jwks.json',
  tag: 'tokens',
  summary: "The project's public signing keys, to verify its access tokens without a call per request.",
  access: 'none',
  params: z.object({ projectId: z.string() }),
  answer: z.object({ keys: z.array(jwk) }).meta({ id: 'Jwks' }),
  errors: ['PROJECT_NOT_FOUND'],
  handler: async ({ params, deps }) => {
    if (!(await findProject(deps.db, params.projectId))) {
      throw new KnownError('PROJECT_NOT_FOUND', { project_id: params.projectId });
    }
    return { keys: await deps.signingKeys.publicJwks(params.projectId) };
  },
});

export const tokenRoutes: Route[] = [issueToken, getJwks];
