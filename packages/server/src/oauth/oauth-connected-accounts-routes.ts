/**
 * Connected accounts (wire-protocol §9.3, §14.8): a provider access token for
 * a user's connected account, refreshed by the service when it has expired,
 * and (an extension) disconnecting an account.
 *
 * - A client acts on its own user (`me`), server and admin access on any user
 *   (`users/user-ref.ts`).
 * - `shared` providers use the development stand-in, whose tokens open
 *   nothing: OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS.
 * - Asking for scopes the account was not granted is
 *   OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE; the SDK then links the
 *   provider again with those scopes. A token the provider will not refresh
 *   any more (revoked, no refresh token) is OAUTH_CONNECTION_NOT_CONNECTED_TO_USER:
 *   the connection no longer works, and the SDK treats both the same.
 * - A client may not disconnect its user's last way to sign in (no password,
 *   no e-mail sign-in, no other provider account): SCHEMA_ERROR saying so,
 *   the catalogue having no code of its own for it. Server code may.
 */
import { KnownError } from '@latchkey/protocol';
import { z } from 'zod';
import { successAnswer } from '../common/schemas.js';
import { requestContext } from '../events/recorder.js';
import { defineRoute, type Route } from '../http/route.js';
import { resolveUser, userRefErrors } from '../users/user-ref.js';
import { disconnectAccount, keepRefreshedTokens } from './connected-accounts-actions.js';
import { findUserAccount, openTokens } from './oauth-account-store.js';
import { enabledProvider, providerClient, publicOrigin } from './oauth-flow.js';

const params = z.object({ userId: z.string().max(64), providerId: z.string().max(64) });

/** An access token this close to expiry is refreshed first. */
const refreshMarginMs = 60_000;

const getAccessToken = defineRoute({
  method: 'POST',
  path: '/connected-accounts/:userId/:providerId/access-token',
  tag: 'oauth',
  summary:
    "A provider access token of the user's connected account with at least the given scopes, refreshed first when it has expired.",
  access: 'client',
  params,
  body: z.strictObject({
    scope: z.string().max(2048).default('').meta({ description: 'Space-separated scopes the token must have.' }),
  }),
  status: 201,
  answer: z.object({ access_token: z.string() }).meta({ id: 'ConnectedAccountAccessToken' }),
  errors: [
    ...userRefErrors,
    'OAUTH_CONNECTION_NOT_CONNECTED_TO_USER',
    'OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE',
    'OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS',
    'OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED',
  ],
  handler: async (input) => {
    const { request, auth, params, body, deps } = input;
    const user = await resolveUser(deps.db, auth, params.userId);
    const providerId = params.providerId.toLowerCase();
    const account = await findUserAccount(deps.db, auth.project.id, user.id, providerId);
    if (!account) throw new KnownError('OAUTH_CONNECTION_NOT_CONNECTED_TO_USER');
    const provider = enabledProvider(auth.project, providerId);
    if (provider.type === 'shared') throw new KnownError('OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS');
    const granted = new Set(account.scopes.split(' ').filter(Boolean));
    if (body.scope.split(/\s+/).some((scope) => scope !== '' && !granted.has(scope))) {
      throw new KnownError('OAUTH_CONNECTION_DOES_NOT_HAVE_REQUIRED_SCOPE');
    }
    const now = deps.clock.now();
    const tokens = openTokens(account, deps.configSealer);
    const expiresAt = account.access_token_expires_at?.getTime() ?? null;
    if (tokens.accessToken && (expiresAt === null || expiresAt - refreshMarginMs > now)) {
      return { access_token: tokens.accessToken };
    }
    if (!tokens.refreshToken) throw new KnownError('OAUTH_CONNECTION_NOT_CONNECTED_TO_USER');
    const client = providerClient(deps, auth.project, provider, publicOrigin(deps, request));
    let fresh: Awaited<ReturnType<typeof client.refresh>>;
    try {
      fresh = await client.refresh(tokens.refreshToken, [...granted]);
    } catch {
      throw new KnownError(
        'OAUTH_CONNECTION_NOT_CONNECTED_TO_USER',
        undefined,
        'The provider no longer accepts this connection; connect the account again.',
      );
    }
    await keepRefreshedTokens(requestContext(input), deps.configSealer, account, fresh);
    return { access_token: fresh.accessToken };
  },
});

const disconnect = defineRoute({
  method: 'DELETE',
  path: '/connected-accounts/:userId/:providerId',
  tag: 'oauth',
  summary:
    "Disconnects the user's account at a provider (extension). A client cannot disconnect its last way to sign in.",
  access: 'client',
  params,
  answer: successAnswer,
  errors: [...userRefErrors, 'OAUTH_CONNECTION_NOT_CONNECTED_TO_USER', 'SCHEMA_ERROR'],
  handler: async (input) => {
    const { auth, params, deps } = input;
    const user = await resolveUser(deps.db, auth, params.userId);
    const providerId = params.providerId.toLowerCase();
    await disconnectAccount(requestContext(input), auth.project, user.id, providerId, auth.accessType === 'client');
    return { success: true as const };
  },
});

export const connectedAccountRoutes: Route[] = [getAccessToken, disconnect];
