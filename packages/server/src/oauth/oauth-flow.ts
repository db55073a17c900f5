/**
 * The OAuth flow through the service (wire-protocol §9, spec §4).
 *
 * 1. The app navigates to `GET /auth/oauth/authorize/{provider}` with its
 *    client credentials, its callback URL, its state and its PKCE challenge
 *    (the outer flow). The service checks them, stores the outer flow as a
 *    single-use code (purpose `oauth_flow`, 10 minutes) whose value is the state
 *    it sends to the provider (the inner flow, with its own PKCE verifier and
 *    nonce), binds it to this browser with an HttpOnly cookie, and redirects
 *    to the provider.
 * 2. The provider returns to `GET|POST /auth/oauth/callback/{provider}`. The
 *    service finds the flow by its state, checks the browser's cookie, uses
 *    the flow, exchanges the provider's code (oauth4webapi, ID tokens checked),
 *    applies the account rules (`account-rules.ts`), and redirects to the
 *    app's callback URL with an authorization code of its own (purpose
 *    `oauth_authorization_code`, two minutes) and the app's state.
 * 3. The app exchanges that code at `POST /auth/oauth/token` with its PKCE
 *    verifier (`tokens/tokens-routes.ts`) and gets a session.
 *
 * Linking (`type=link`) adds a provider to the session of the access token
 * the flow starts with, and opens no other: the token must be of a session
 * still alive (the check of every authenticated request), which the callback
 * checks again, with the account rules, so that a refusal reaches the error
 * page; the code exchange applies them, in one transaction with a last check
 * of the session, and answers that session's tokens (its refresh token
 * rotated: Stack's SDK stores the tokens of a code exchange). A session ended
 * at any step links nothing.
 *
 * Every failure after the app's URLs were checked goes to the app's
 * `error_redirect_url` as `?errorCode=<known error>&message=<text>`; before
 * that (bad client, untrusted URLs) the known error is the answer itself, so
 * nothing is ever sent to an address the project does not trust.
 *
 * What the flow changes (its codes, the account rules, a link) is an action
 * of `oauth-actions.ts`; this module checks requests, talks to the provider,
 * and calls them.
 */
import { createHash, randomBytes } from 'node:crypto';
import { encodeKnownError, isKnownError, KnownError, type KnownErrorCode } from '@latchkey/protocol';
import * as oauth from 'oauth4webapi';
import { z } from 'zod';
import { checkUserAccessToken, type RequestAuthNeeds } from '../access/request-auth.js';
import { findCodeByLookup } from '../codes/code-store.js';
import { codeLifetimeMs, otpLength } from '../codes/codes.js';
import { callbackUrl } from '../common/schemas.js';
import { constantTimeEqual, sha256Hex } from '../crypto/hash.js';
import { type ActionContext, actorOf } from '../events/recorder.js';
import type { ClientInfo } from '../http/env.js';
import { readCookie } from '../http/refresh-cookie.js';
import { defineRoute, type Route } from '../http/route.js';
import { openProviderSecret } from '../projects/config-secrets.js';
import type { ProjectRecord } from '../projects/projects.js';
import { isTrustedUrl } from '../projects/trusted-urls.js';
import type { RefreshNeeds } from '../sessions/refresh-rotation.js';
import type { Db } from '../storage/db.js';
import { authenticateOAuthClient } from '../tokens/oauth-client.js';
import { devProvider } from './dev-provider.js';
import {
  checkLink,
  claimFlow,
  issueAuthorizationCode,
  type LinkData,
  linkToSession,
  signInWithProvider,
  startFlow,
} from './oauth-actions.js';
import {
  type OAuthNeeds,
  type ProviderClient,
  type ProviderConfig,
  type ProviderTokens,
  standardProvider,
} from './providers.js';

/** What the OAuth flow needs of the service: its routes, the callback and a link's code exchange. */
export interface OAuthFlowNeeds extends RequestAuthNeeds, RefreshNeeds, OAuthNeeds {}

/** Name of the cookie binding a flow to the browser that started it (the original backend's name). */
function innerCookieName(innerState: string): string {
  return `stack-oauth-inner-${innerState}`;
}

/**
 * Where the flow's cookie is sent: the service's OAuth routes only. The
 * original backend's is site-wide (`/`); no client reads it (HttpOnly), and
 * no other route needs it.
 */
const cookiePath = '/api/v1/auth/oauth';

/** The flow's cookie lives as long as the flow: 10 minutes, as the original backend's. */
const cookieMaxAgeSeconds = codeLifetimeMs.oauth_flow / 1000;

/** The origin the service is reached at: the configured public URL, else the request's. */
export function publicOrigin(deps: OAuthFlowNeeds, request: Request): string {
  return deps.publicUrl ?? new URL(request.url).origin;
}

/** The enabled provider of the project, or OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED. */
export function enabledProvider(project: ProjectRecord, providerId: string): ProviderConfig {
  const provider = project.config.oauth_providers.find((p) => p.id === providerId && p.enabled);
  if (!provider) throw new KnownError('OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED');
  return provider;
}

/** The client that talks to a configured provider: its own keys (`standard`), or the development stand-in. */
export function providerClient(
  deps: OAuthFlowNeeds,
  project: ProjectRecord,
  provider: ProviderConfig,
  origin: string,
): ProviderClient {
  if (provider.type === 'shared') {
    if (project.isProductionMode) {
      throw new KnownError(
        'OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED',
        undefined,
        `${provider.id} uses shared development keys, which a production project cannot use.`,
      );
    }
    if (!deps.allowDevelopmentProvider) {
      // Anyone could sign in through the stand-in as any identity: a production server offers it only when told to.
      throw new KnownError(
        'OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED',
        undefined,
        `${provider.id} uses shared development keys, which this server does not offer: give the project its own keys.`,
      );
    }
    return devProvider(provider.id, origin, deps.configSealer, () => deps.clock.now());
  }
  const secret =
    provider.client_secret && openProviderSecret(provider.client_secret, project.id, provider.id, deps.configSealer);
  return standardProvider(
    { ...provider, ...(secret ? { client_secret: secret } : {}) },
    deps.oauthNetwork,
    deps.oauthCaches,
    () => deps.clock.now(),
    (detail) =>
      deps.logger?.warn({ projectId: project.id, provider: provider.id, detail }, 'oauth provider unreachable'),
  );
}

/** What the service keeps of a flow between the authorize request and the callback. */
const flowData = z.object({
  provider_id: z.string(),
  type: z.enum(['authenticate', 'link']),
  link_user_id: z.string().nullable(),
  /** The session a link adds the provider to (null for sign-in). */
  link_session_id: z.string().nullable().default(null),
  redirect_uri: z.string(),
  state: z.string(),
  code_challenge: z.string(),
  error_redirect_url: z.string(),
  after_callback_redirect_url: z.string().nullable(),
  scopes: z.array(z.string()),
  verifier_sealed: z.string(),
  nonce: z.string(),
  browser_hash: z.string(),
});
type FlowData = z.infer<typeof flowData>;

const base64url43 = /^[A-Za-z0-9_-]{43}$/;

const authorizeQuery = z.object({
  client_id: z.string().max(256),
  client_secret: z.string().max(256),
  redirect_uri: callbackUrl,
  state: z.string().min(1).max(512),
  code_challenge: z.string().max(256),
  code_challenge_method: z.string().max(32),
  scope: z.string().max(256).optional(),
  grant_type: z.string().max(64).optional(),
  response_type: z.string().max(64).optional(),
  type: z.enum(['authenticate', 'link']).default('authenticate'),
  token: z.string().max(8192).optional(),
  provider_scope: z.string().max(1024).optional(),
  error_redirect_url: callbackUrl.optional(),
  error_redirect_uri: callbackUrl.optional(),
  after_callback_redirect_url: z.string().max(2048).optional(),
});

/** A redirect the browser follows with a GET, never cached. */
function redirect(location: string, cookies: string[] = []): Response {
  const headers = new Headers({ location, 'cache-control': 'no-store' });
  for (const cookie of cookies) headers.append('set-cookie', cookie);
  return new Response(null, { status: 307, headers });
}

/** The app's error page with the known error in its query. */
function errorRedirect(url: string, error: KnownError, cookies: string[] = []): Response {
  const target = new URL(url);
  const { code, body } = encodeKnownError(error);
  target.searchParams.set('errorCode', code);
  target.searchParams.set('message', body.error);
  if (body.details) target.searchParams.set('details', JSON.stringify(body.details));
  return redirect(target.href, cookies);
}

/**
 * The flow's cookie. Over https it is `SameSite=None; Secure`: a `form_post`
 * provider (Apple) returns with a cross-site POST, on which browsers withhold
 * `Lax` cookies, and the flow would fail. It stays `Lax` on plain http
 * (development), where browsers refuse `SameSite=None` without `Secure`. The
 * cookie only proves the callback comes back to the browser that started the
 * flow; what it guards needs the flow's unguessable state as well.
 */
function cookie(deps: OAuthFlowNeeds, request: Request, name: string, value: string, maxAgeSeconds: number): string {
  const sameSite = publicOrigin(deps, request).startsWith('https:') ? 'None; Secure' : 'Lax';
  return `${name}=${value}; Path=${cookiePath}; Max-Age=${maxAgeSeconds}; HttpOnly; SameSite=${sameSite}`;
}

const authorize = defineRoute({
  method: 'GET',
  path: '/auth/oauth/authorize/:providerId',
  tag: 'oauth',
  summary:
    "Starts sign-in (or linking) with a provider: checks the app's client, URLs and PKCE challenge, then redirects (307) to the provider.",
  access: 'none',
  params: z.object({ providerId: z.string().max(64) }),
  query: authorizeQuery,
  answer: 'text',
  errors: [
    'INVALID_OAUTH_CLIENT_ID_OR_SECRET',
    'INVALID_PUBLISHABLE_CLIENT_KEY',
    'REDIRECT_URL_NOT_WHITELISTED',
    'OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED',
    'OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS',
    'INVALID_SCOPE',
  ],
  handler: async ({ request, client: browser, params, query, deps }) => {
    const project = await authenticateOAuthClient(deps, query.client_id, query.client_secret, 'publishable-key');
    const errorUrl = query.error_redirect_url ?? query.error_redirect_uri;
    for (const url of [query.redirect_uri, errorUrl, query.after_callback_redirect_url]) {
      if (url !== undefined && !isTrustedUrl(url, project.config)) throw new KnownError('REDIRECT_URL_NOT_WHITELISTED');
    }
    if (query.code_challenge_method !== 'S256' || !base64url43.test(query.code_challenge)) {
      throw new KnownError('SCHEMA_ERROR', {
        message:
          'PKCE is required: code_challenge_method must be S256 and code_challenge a base64url SHA-256 (43 characters).',
      });
    }
    // From here on, failures go to the app's error page (the redirect URI when there is none).
    const fail = (error: KnownError) => errorRedirect(errorUrl ?? query.redirect_uri, error);
    try {
      const provider = enabledProvider(project, params.providerId.toLowerCase());
      const scopes = (query.provider_scope ?? '').split(/\s+/).filter(Boolean);
      if (scopes.length > 0 && provider.type === 'shared') {
        throw new KnownError('OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS');
      }
      if (scopes.some((scope) => !/^[\x21\x23-\x5b\x5d-\x7e]{1,200}$/.test(scope))) {
        throw new KnownError('INVALID_SCOPE', { scope: query.provider_scope ?? '' });
      }
      let linkUserId: string | null = null;
      let linkSessionId: string | null = null;
      if (query.type === 'link') {
        const linking = await checkUserAccessToken(deps, query.token ?? '', project.id);
        if (linking.sessionId === null) throw linkSessionEnded();
        linkUserId = linking.userId;
        linkSessionId = linking.sessionId;
      }
      const origin = publicOrigin(deps, request);
      const client = providerClient(deps, project, provider, origin);
      const verifier = oauth.generateRandomCodeVerifier();
      const browserSecret = randomBytes(32).toString('base64url');
      const now = deps.clock.now();
      const data: FlowData = {
        provider_id: provider.id,
        type: query.type,
        link_user_id: linkUserId,
        link_session_id: linkSessionId,
        redirect_uri: query.redirect_uri,
        state: query.state,
        code_challenge: query.code_challenge,
        error_redirect_url: errorUrl ?? query.redirect_uri,
        after_callback_redirect_url: query.after_callback_redirect_url ?? null,
        scopes,
        verifier_sealed: deps.configSealer.seal(verifier, `oauth-flow:${project.id}:verifier`),
        nonce: oauth.generateRandomNonce(),
        browser_hash: sha256Hex(browserSecret),
      };
      const flow = await startFlow(flowContext(deps, project.id, browser, linkUserId), data, now);
      const providerUrl = await client.authorizationUrl({
        state: flow.code,
        codeChallenge: await oauth.calculatePKCECodeChallenge(verifier),
        nonce: data.nonce,
        redirectUri: `${origin}/api/v1/auth/oauth/callback/${provider.id}`,
        extraScopes: scopes,
      });
      return redirect(providerUrl.href, [
        cookie(deps, request, innerCookieName(flow.code), browserSecret, cookieMaxAgeSeconds),
      ]);
    } catch (error) {
      if (isKnownError(error)) return fail(error);
      throw error;
    }
  },
});

const callbackFields = z.object({
  state: z.string().max(512).optional(),
  code: z.string().max(8192).optional(),
  error: z.string().max(256).optional(),
  error_description: z.string().max(2048).optional(),
});

/** Errors of a flow that cannot go anywhere (unknown state): answered to the browser as they are. */
const callbackErrors = [
  'OUTER_OAUTH_TIMEOUT',
  'INVALID_AUTHORIZATION_CODE',
] as const satisfies readonly KnownErrorCode[];

async function handleCallback(
  request: Request,
  browser: ClientInfo,
  providerId: string,
  parameters: URLSearchParams,
  deps: OAuthFlowNeeds,
) {
  const state = parameters.get('state') ?? '';
  const row = /^[0-9a-z]{45}$/.test(state)
    ? await findCodeByLookup(deps.db, null, 'oauth_flow', sha256Hex(state.slice(otpLength)))
    : null;
  if (!row || !constantTimeEqual(row.code_hash, sha256Hex(state))) {
    throw new KnownError('INVALID_AUTHORIZATION_CODE', undefined, 'This sign-in link is not one the service started.');
  }
  const parsed = flowData.safeParse(row.data);
  if (!parsed.success || parsed.data.provider_id !== providerId) {
    throw new KnownError('INVALID_AUTHORIZATION_CODE', undefined, 'This sign-in link is not one the service started.');
  }
  const flow = parsed.data;
  const clearCookie = cookie(deps, request, innerCookieName(state), '', 0);
  const fail = (error: KnownError) => errorRedirect(flow.error_redirect_url, error, [clearCookie]);
  const now = deps.clock.now();
  if (row.used_at !== null || row.expires_at.getTime() <= now) {
    return fail(new KnownError('OUTER_OAUTH_TIMEOUT'));
  }
  const browserSecret = readCookie(request, innerCookieName(state));
  if (!browserSecret || !constantTimeEqual(sha256Hex(browserSecret), flow.browser_hash)) {
    return fail(
      new KnownError(
        'OUTER_OAUTH_TIMEOUT',
        undefined,
        'The sign-in was started in another browser, or too long ago. Please sign in again.',
      ),
    );
  }
  // Used before the provider is called: of two callbacks with this state, one goes on.
  const used = await claimFlow(flowContext(deps, row.project_id, browser, null), row.id, now);
  if (!used) return fail(new KnownError('OUTER_OAUTH_TIMEOUT'));
  try {
    const project = await deps.authCache.project(row.project_id);
    if (!project) throw new KnownError('OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED');
    const provider = enabledProvider(project, providerId);
    const origin = publicOrigin(deps, request);
    const client = providerClient(deps, project, provider, origin);
    const { profile, tokens } = await client.exchange({
      parameters,
      state,
      redirectUri: `${origin}/api/v1/auth/oauth/callback/${provider.id}`,
      codeVerifier: deps.configSealer.open(flow.verifier_sealed, `oauth-flow:${project.id}:verifier`),
      nonce: flow.nonce,
    });
    const granted = { ...tokens, scopes: [...new Set([...tokens.scopes, ...flow.scopes])] };
    let outcome: { userId: string; isNewUser: boolean };
    let link: LinkData | null = null;
    if (flow.type === 'link') {
      const sessionId = flow.link_session_id;
      const userId = flow.link_user_id;
      if (sessionId === null || userId === null) throw linkSessionEnded();
      link = {
        session_id: sessionId,
        provider_id: provider.id,
        profile,
        tokens_sealed: deps.configSealer.seal(JSON.stringify(granted), linkTokensContext(project.id, sessionId)),
      };
      // Checked now, so that a refusal reaches the error page; applied at the code exchange.
      const checked = { project, userId, link, tokens: granted, ended: linkSessionEnded };
      await checkLink(flowContext(deps, project.id, browser, userId), deps.configSealer, checked);
      outcome = { userId, isNewUser: false };
    } else {
      // A sign-in has no actor until it succeeds.
      const source = { auth: null, projectId: project.id, userId: null, client: browser, deps };
      outcome = await signInWithProvider(flowContext(deps, project.id, browser, null), deps.configSealer, {
        project,
        providerId: provider.id,
        profile,
        tokens: granted,
        source,
      });
    }
    const codeData = {
      user_id: outcome.userId,
      is_new_user: outcome.isNewUser,
      redirect_uri: flow.redirect_uri,
      code_challenge: flow.code_challenge,
      after_callback_redirect_url: flow.after_callback_redirect_url,
      ...(link ? { link } : {}),
    };
    const code = await issueAuthorizationCode(flowContext(deps, project.id, browser, null), codeData);
    const target = new URL(flow.redirect_uri);
    target.searchParams.set('code', code.code);
    target.searchParams.set('state', flow.state);
    return redirect(target.href, [clearCookie]);
  } catch (error) {
    if (isKnownError(error)) return fail(error);
    throw error;
  }
}

const callbackParams = z.object({ providerId: z.string().max(64) });
const callbackSummary =
  "The provider's return: exchanges its code, applies the account rules and redirects (307) to the app's callback with an authorization code, or to its error page.";

const callback = defineRoute({
  method: 'GET',
  path: '/auth/oauth/callback/:providerId',
  tag: 'oauth',
  summary: callbackSummary,
  access: 'none',
  params: callbackParams,
  query: callbackFields,
  answer: 'text',
  errors: callbackErrors,
  handler: ({ request, client, params, deps }) =>
    handleCallback(request, client, params.providerId, new URL(request.url).searchParams, deps),
});

const callbackPost = defineRoute({
  method: 'POST',
  path: '/auth/oauth/callback/:providerId',
  tag: 'oauth',
  summary: `${callbackSummary} (form_post providers such as Apple)`,
  access: 'none',
  params: callbackParams,
  body: { form: callbackFields },
  answer: 'text',
  errors: callbackErrors,
  handler: ({ request, client, params, body, deps }) => handleCallback(request, client, params.providerId, body, deps),
});

const linkTokensContext = (projectId: string, sessionId: string) => `oauth-link:${projectId}:${sessionId}`;

const linkSessionEnded = () =>
  new KnownError(
    'ACCESS_TOKEN_EXPIRED',
    { expired_at_millis: null },
    'The session this link was started from has ended (signed out or revoked). Sign in again to link.',
  );

/**
 * The code exchange of a link: adds the provider to the session the flow was
 * started from, in one transaction with the account rules, and rotates that
 * session's refresh token (`sessions/refresh-rotation.ts`: the replaced one
 * lasts the grace window, so the page's other tabs follow). Returns the
 * session's id and new refresh token; REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED when
 * the session ended meanwhile, and the account rules' refusals.
 */
export async function completeLink(
  deps: OAuthFlowNeeds,
  input: {
    project: ProjectRecord;
    userId: string;
    link: LinkData;
    client: ClientInfo;
    also: (trx: Db) => Promise<void>;
  },
): Promise<{ sessionId: string; refreshToken: string }> {
  const { project, link } = input;
  const tokens = JSON.parse(
    deps.configSealer.open(link.tokens_sealed, linkTokensContext(project.id, link.session_id)),
  ) as ProviderTokens;
  const ended = () => new KnownError('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', undefined, linkSessionEnded().message);
  const rotated = await linkToSession(
    flowContext(deps, project.id, input.client, input.userId),
    deps.configSealer,
    deps.refreshTokens,
    { project, userId: input.userId, link, tokens, ended, also: input.also },
  );
  deps.sessions.rotated(project.id, rotated.replaced);
  return { sessionId: rotated.sessionId, refreshToken: rotated.refreshToken };
}

/**
 * The actions of the flow: in the flow's project, from the browser that runs
 * it, by the linking user (a link) or nobody yet (a sign-in has no actor
 * until it succeeds).
 */
function flowContext(
  deps: OAuthFlowNeeds,
  projectId: string,
  client: ClientInfo,
  userId: string | null,
): ActionContext {
  return {
    db: deps.db,
    clock: deps.clock,
    actor: actorOf(null, userId),
    projectId,
    userId,
    client,
    feed: deps.changes,
  };
}

/** The PKCE check of the token endpoint: base64url(SHA-256(verifier)) equals the stored challenge. */
export function pkceMatches(verifier: string, challenge: string): boolean {
  if (!/^[A-Za-z0-9._~-]{43,128}$/.test(verifier)) return false;
  return constantTimeEqual(createHash('sha256').update(verifier).digest('base64url'), challenge);
}

export const oauthFlowRoutes: Route[] = [authorize, callback, callbackPost];
