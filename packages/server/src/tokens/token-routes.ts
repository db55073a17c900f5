/**
 * `POST /auth/oauth/token` (wire-protocol §5.3): the OAuth token endpoint. It
 * takes a form body and client authentication (project id and publishable
 * key, in the body or as HTTP Basic), carries no `x-stack-*` headers, and
 * answers errors with their real status. Only `grant_type=refresh_token` is
 * supported so far; the refresh token is not rotated (decision b).
 */
import { constants, KnownError, type RefreshResponseWire } from '@latchkey/protocol';
import type { Hono } from 'hono';
import { hasNul, readForm } from '../http/body.js';
import type { AppEnv, Deps } from '../http/env.js';
import { jsonResponse } from '../http/responses.js';
import { isValidApiKey } from '../api-keys/api-keys.js';
import { findSession, touchSession } from '../sessions/session-store.js';

/** An OAuth error body (RFC 6749 §5.2) for cases the known-error catalogue has no code for. */
function oauthError(error: string, description: string): Response {
  return jsonResponse({ error, error_description: description }, 400);
}

/** `client_secret_basic` credentials, or null. */
function basicCredentials(authorization: string | undefined): { id: string; secret: string } | null {
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

export function registerTokenRoute(api: Hono<AppEnv>, deps: Deps): void {
  const { db } = deps.storage;

  api.post('/auth/oauth/token', async (c) => {
    const form = await readForm(c.req.raw, deps.bodyLimitBytes);
    for (const name of new Set(form.keys())) {
      if (form.getAll(name).length > 1) return oauthError('invalid_request', `Parameter ${name} is repeated.`);
    }
    const grantType = form.get('grant_type');
    if (!grantType) return oauthError('invalid_request', 'Missing grant_type.');
    if (grantType !== 'refresh_token') {
      return oauthError('unsupported_grant_type', `Grant type ${grantType} is not supported.`);
    }

    const basic = basicCredentials(c.req.header('authorization'));
    const clientId = basic?.id ?? form.get('client_id') ?? '';
    const clientSecret = basic?.secret ?? form.get('client_secret') ?? '';
    const now = deps.clock.now();
    const clientValid =
      clientId !== '' &&
      !hasNul(clientId) &&
      clientSecret !== '' &&
      (await isValidApiKey(db, clientId, 'publishableClientKey', clientSecret, now));
    if (!clientValid) throw new KnownError('INVALID_OAUTH_CLIENT_ID_OR_SECRET', { client_id: clientId || null });

    const refreshToken = form.get('refresh_token');
    if (!refreshToken) return oauthError('invalid_request', 'Missing refresh_token.');
    const session = await findSession(db, clientId, refreshToken, now);
    if (!session) throw new KnownError('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
    await touchSession(db, session, now);
    const answer: RefreshResponseWire = {
      access_token: await deps.accessTokens.issue(clientId, session.user_id),
      token_type: 'Bearer',
      expires_in: constants.accessTokenLifetimeSeconds,
      scope: 'legacy',
    };
    return jsonResponse(answer);
  });
}
