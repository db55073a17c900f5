/**
 * Tokens: `POST /auth/oauth/token` (wire-protocol §5.3), the OAuth token
 * endpoint, and the public JWKS of a project. The token endpoint takes a form
 * body and client authentication (project id and publishable key, in the body
 * or as HTTP Basic), carries no `x-stack-*` headers, and answers errors with
 * their real status. `refresh_token` answers a new access token, and rotates
 * the refresh token only for a client that stores the new one (the cookie
 * mode, `latchkey_refresh_rotation=1`; `sessions/refresh-rotation.ts`): for
 * the 2.7 protocol it is stable (decision b). `authorization_code` exchanges the code an
 * OAuth sign-in gave the app's callback (`oauth/oauth-flow.ts`) for a session,
 * once, with the PKCE verifier and the same redirect URI. In the
 * refresh-token cookie mode (`http/refresh-cookie.ts`) the refresh token of
 * both grants travels in the service's cookie instead of the form and the body.
 */
import { isKnownError, KnownError, refreshRotationField } from '@latchkey/protocol';
import { z } from 'zod';
import { checkCode, useCode, verificationCode } from '../codes/codes.js';
import { countryOf } from '../http/client-address.js';
import { jsonResponse } from '../http/responses.js';
import { defineRoute, type Route } from '../http/route.js';
import { secondFactorErrors } from '../mfa/mfa-attempts.js';
import { linkData } from '../oauth/oauth-actions.js';
import { completeLink, pkceMatches } from '../oauth/oauth-flow.js';
import { findProject } from '../projects/projects.js';
import { codeExchangeAnswer, completeSignIn, refreshAnswer } from '../sessions/complete-sign-in.js';
import type { Db } from '../storage/db.js';
import { authenticateOAuthClient } from './oauth-client.js';

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
  grant_type: z.enum(['refresh_token', 'authorization_code']),
  refresh_token: z.string().optional().meta({ description: "For `refresh_token`: the session's refresh token." }),
  [refreshRotationField]: z.literal('1').optional().meta({
    description:
      'For `refresh_token`: the client stores a rotated refresh token (a Latchkey extension): the answer carries a new `refresh_token`, and the one sent stops working 30 s later.',
  }),
  code: z.string().optional().meta({ description: "For `authorization_code`: the code of the app's OAuth callback." }),
  code_verifier: z.string().optional().meta({ description: 'For `authorization_code`: the PKCE verifier.' }),
  redirect_uri: z
    .string()
    .optional()
    .meta({ description: 'For `authorization_code`: the callback URL the flow was started with.' }),
  client_id: z.string().optional().meta({ description: 'The project id (or send HTTP Basic credentials).' }),
  client_secret: z.string().optional().meta({ description: 'The publishable client key.' }),
});

const tokenAnswer = z
  .object({
    access_token: z.string(),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int().positive(),
    scope: z.string(),
    refresh_token: z.string().optional(),
    user_id: z.string().optional(),
    is_new_user: z.boolean().optional(),
    newUser: z.boolean().optional(),
    after_callback_redirect_url: z.string().nullable().optional(),
    afterCallbackRedirectUrl: z.string().nullable().optional(),
  })
  .meta({
    id: 'TokenAnswer',
    description:
      'A refresh answers the access token, and a new refresh token only when the client asked for rotation; an authorization code answers a session.',
  });

/** What the callback stored with the app's authorization code. */
const authorizationCodeData = z.object({
  user_id: z.string(),
  is_new_user: z.boolean(),
  redirect_uri: z.string(),
  code_challenge: z.string(),
  after_callback_redirect_url: z.string().nullable(),
  /** A link flow's provider account, added to its session by this exchange. */
  link: linkData.optional(),
});

const issueToken = defineRoute({
  method: 'POST',
  path: '/auth/oauth/token',
  tag: 'tokens',
  summary:
    'OAuth token endpoint: a new access token for a refresh token (rotated only when the client asks), or a session for the authorization code of an OAuth sign-in (PKCE S256).',
  access: 'none',
  body: { form: tokenForm },
  answer: tokenAnswer,
  errors: [
    'INVALID_OAUTH_CLIENT_ID_OR_SECRET',
    'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED',
    'INVALID_AUTHORIZATION_CODE',
    'REDIRECT_URL_NOT_WHITELISTED',
    // The account rules of a link, applied by its code exchange.
    'USER_NOT_FOUND',
    'OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER',
    'USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION',
    // A sign-in whose account needs a second factor: the known-error JSON with its real status (wire-protocol §9.2).
    ...secondFactorErrors,
  ],
  handler: async ({ request, body: form, client, refreshCookie, deps }) => {
    for (const name of new Set(form.keys())) {
      if (form.getAll(name).length > 1) return oauthError('invalid_request', `Parameter ${name} is repeated.`);
    }
    const grantType = form.get('grant_type');
    if (!grantType) return oauthError('invalid_request', 'Missing grant_type.');
    if (grantType !== 'refresh_token' && grantType !== 'authorization_code') {
      return oauthError('unsupported_grant_type', `Grant type ${grantType} is not supported.`);
    }

    const basic = basicCredentials(request.headers.get('authorization'));
    const clientId = basic?.id ?? form.get('client_id') ?? '';
    const clientSecret = basic?.secret ?? form.get('client_secret') ?? '';
    const project = await authenticateOAuthClient(deps, clientId, clientSecret);
    refreshCookie?.bind(project);
    const now = deps.clock.now();
    const country = countryOf(request, deps.countryHeader);

    if (grantType === 'authorization_code') {
      const code = form.get('code') ?? '';
      const verifier = form.get('code_verifier') ?? '';
      const redirectUri = form.get('redirect_uri') ?? '';
      if (!code || !verifier || !redirectUri) {
        return oauthError('invalid_request', 'An authorization_code grant needs code, code_verifier and redirect_uri.');
      }
      const parsedCode = verificationCode.safeParse(code);
      if (!parsedCode.success) throw new KnownError('INVALID_AUTHORIZATION_CODE');
      const row = await checkCode(deps.db, {
        projectId: project.id,
        purpose: 'oauth_authorization_code',
        code: parsedCode.data,
        now,
      }).catch((error: unknown) => {
        if (isKnownError(error) && error.is('VERIFICATION_ERROR')) throw new KnownError('INVALID_AUTHORIZATION_CODE');
        throw error;
      });
      const data = authorizationCodeData.parse(row.data);
      if (redirectUri !== data.redirect_uri) throw new KnownError('REDIRECT_URL_NOT_WHITELISTED');
      if (!pkceMatches(verifier, data.code_challenge)) throw new KnownError('INVALID_AUTHORIZATION_CODE');
      const use = (trx: Db) =>
        useCode(trx, row, now).catch(() => {
          throw new KnownError('INVALID_AUTHORIZATION_CODE');
        });
      const after = data.after_callback_redirect_url;
      // A link adds to the session it was started from (its tokens answered, rotated); a sign-in opens one.
      if (data.link) {
        const linked = await completeLink(deps, { project, userId: data.user_id, link: data.link, client, also: use });
        const session = { ...linked, projectId: project.id, userId: data.user_id, isNewUser: data.is_new_user };
        return codeExchangeAnswer(deps, session, after);
      }
      return completeSignIn(
        { auth: null, project, client, request, deps },
        {
          method: 'oauth',
          user: async (trx) => {
            await use(trx);
            return { userId: data.user_id, isNewUser: data.is_new_user };
          },
          answer: { codeExchange: { afterCallbackRedirectUrl: after } },
        },
      );
    }

    // In the cookie mode the service's cookie stands in for a refresh_token the form leaves out.
    const sent = form.get('refresh_token');
    const refreshToken = refreshCookie ? refreshCookie.refreshToken(sent) : sent;
    if (!refreshToken) {
      // A page in the cookie mode whose cookie is gone (expired, cleared) is signed out, as by a refused token.
      if (refreshCookie) throw new KnownError('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
      return oauthError('invalid_request', 'Missing refresh_token.');
    }
    // The cookie mode always rotates (the service writes the cookie); other clients when they say they store it.
    const rotates = refreshCookie !== null || form.get(refreshRotationField) === '1';
    return refreshAnswer(deps, { projectId: project.id, refreshToken, rotates, now, country, client });
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
