/**
 * The shared client of the upstream OAuth providers: the eleven presets of
 * wire-protocol §15.6 (`presets/`, one file each), generic OpenID Connect
 * providers found by discovery, and the development stand-in that `shared`
 * providers use (`dev-provider.ts`).
 *
 * oauth4webapi does the protocol for every provider (authorization request,
 * code exchange with PKCE, ID-token claim checks, refresh); a preset is only
 * data: its endpoints, default scopes and how to read the person's profile
 * from its API. We chose oauth4webapi over arctic because arctic fixes each
 * preset's endpoints inside its classes (the tests point the presets at
 * loopback stand-ins) and reads ID tokens without checking them, and over
 * openid-client because that one wraps the same library with a session layer
 * we do not need. oauth4webapi checks an ID token's issuer, audience, expiry
 * and nonce but, by design, not its signature (it trusts TLS to the token
 * endpoint); we check the signature too, with jose against the issuer's JWKS,
 * so a token that did not come from the issuer is refused however it came.
 */
import { KnownError } from '@latchkey/protocol';
import { createRemoteJWKSet, customFetch, type JWTPayload, jwtVerify } from 'jose';
import * as oauth from 'oauth4webapi';
import type { Logger } from 'pino';
import type { Clock } from '../common/clock.js';
import type { Sealer } from '../crypto/encryption.js';
import { isLocalhostName } from '../projects/trusted-urls.js';
import { presets } from './presets/index.js';
import { type Api, claimsProfile, type ProviderConfig, type ProviderProfile } from './presets/preset.js';

export type { ProviderConfig, ProviderProfile } from './presets/preset.js';

/** The provider's tokens for the person. */
export interface ProviderTokens {
  accessToken: string;
  refreshToken: string | null;
  /** Epoch ms, or null when the provider did not say. */
  expiresAt: number | null;
  /** The scopes granted (the provider's answer, else the ones asked for). */
  scopes: string[];
}

/** The parameters of one sign-in at the provider. */
interface AuthorizationRequest {
  state: string;
  codeChallenge: string;
  nonce: string;
  /** The service's callback URL for this provider. */
  redirectUri: string;
  /** Scopes beyond the provider's defaults. */
  extraScopes: string[];
}

/** What the callback hands to the exchange. */
interface CallbackExchange {
  /** The callback's parameters (query, or form for `form_post` providers). */
  parameters: URLSearchParams;
  state: string;
  redirectUri: string;
  codeVerifier: string;
  nonce: string;
}

/** A configured provider, ready to use. */
export interface ProviderClient {
  readonly id: string;
  authorizationUrl(request: AuthorizationRequest): Promise<URL>;
  /** Exchanges the callback's code; throws OAUTH_PROVIDER_ACCESS_DENIED when the provider refused or failed. */
  exchange(exchange: CallbackExchange): Promise<{ profile: ProviderProfile; tokens: ProviderTokens }>;
  /** New tokens for a refresh token; throws when the provider refuses. */
  refresh(refreshToken: string, scopes: string[]): Promise<ProviderTokens>;
}

/** How the service reaches providers: its fetch, and where a provider URL really goes (tests, egress proxies). */
export interface ProviderNetwork {
  fetch: typeof fetch;
  rewriteUrl: (url: string) => string;
}

/** What reaching OAuth providers needs of the service (`oauth-flow.ts` builds a project's provider clients). */
export interface OAuthNeeds {
  clock: Clock;
  /** Seals a flow's secrets and opens the project's provider secrets. */
  configSealer: Sealer;
  /** The origin the service is reached at from browsers (provider callback URLs), or null for the request's. */
  publicUrl: string | null;
  /** How the service reaches OAuth providers. */
  oauthNetwork: ProviderNetwork;
  /** Whether `shared` providers may use the development stand-in (`ServiceOptions.allowDevelopmentProvider`). */
  allowDevelopmentProvider: boolean;
  /** What this service discovered of OpenID issuers and fetched of their key sets. */
  oauthCaches: ProviderCaches;
  /** For providers that cannot be reached; null when logging is off. */
  logger: Logger | null;
}

/** The button label of a provider. */
export function providerDisplayName(config: Pick<ProviderConfig, 'id' | 'display_name'>): string {
  return config.display_name ?? presets[config.id]?.({ id: config.id } as ProviderConfig).displayName ?? config.id;
}

/** Denied, failed or unverifiable answers of a provider, as the known error the app's error page shows. */
export function providerFailure(reason: string): KnownError {
  return new KnownError('OAUTH_PROVIDER_ACCESS_DENIED', undefined, reason);
}

const discoveryTtlMs = 10 * 60_000;

/**
 * What one service discovered of OpenID issuers (for ten minutes) and the key
 * sets it fetched to check ID tokens. `createService` builds one per service,
 * so two services in one process share none of it.
 */
export class ProviderCaches {
  readonly discovered = new Map<string, { server: Promise<oauth.AuthorizationServer>; at: number }>();
  readonly keySets = new Map<string, ReturnType<typeof createRemoteJWKSet>>();
}

/** Where the details of a failure to reach a provider go (the log); the person signing in sees a plain message. */
export type ReportFailure = (detail: string) => void;

/** What the person signing in reads when the provider could not be reached or answered nonsense. */
const unreachable = 'The sign-in provider could not be reached. Please try again later.';

/** Plain HTTP only to loopback (tests and local identity providers); everything else must be HTTPS. */
function insecureAllowed(url: string): boolean {
  const parsed = new URL(url);
  return parsed.protocol === 'http:' && isLocalhostName(parsed.hostname);
}

/**
 * The client for a configured `standard` provider (a preset or a generic
 * OpenID Connect issuer). `shared` providers are the development stand-in's
 * (`dev-provider.ts`).
 */
export function standardProvider(
  config: ProviderConfig,
  network: ProviderNetwork,
  caches: ProviderCaches,
  now: () => number,
  report: ReportFailure = () => {},
): ProviderClient {
  const describe = (error: unknown) => describeFailure(error, report);
  const client: oauth.Client = { client_id: config.client_id ?? '' };
  const secret = config.client_secret ?? '';
  const preset = presets[config.id]?.(config);
  const requestOptions = (url: string) => ({
    [oauth.customFetch]: (input: string | URL | Request, init?: RequestInit) =>
      network.fetch(network.rewriteUrl(String(input instanceof Request ? input.url : input)), init),
    [oauth.allowInsecureRequests]: insecureAllowed(network.rewriteUrl(url)),
  });

  const server = async (): Promise<oauth.AuthorizationServer> => {
    if (preset) {
      return {
        issuer: preset.idToken?.issuer ?? new URL(preset.authorizationEndpoint).origin,
        authorization_endpoint: preset.authorizationEndpoint,
        token_endpoint: preset.tokenEndpoint,
        ...(preset.idToken ? { jwks_uri: preset.idToken.jwksUri } : {}),
      };
    }
    return discover(caches, now, config.issuer!, requestOptions(config.issuer!), report);
  };
  const defaultScopes = preset?.scopes ?? ['openid', 'email', 'profile'];
  const usesIdToken = !preset || preset.idToken !== undefined;
  const clientAuth = preset?.clientAuth === 'basic' ? oauth.ClientSecretBasic(secret) : oauth.ClientSecretPost(secret);

  const tokensOf = (answer: oauth.TokenEndpointResponse, asked: string[]): ProviderTokens => ({
    accessToken: answer.access_token,
    refreshToken: answer.refresh_token ?? null,
    expiresAt: typeof answer.expires_in === 'number' ? now() + answer.expires_in * 1000 : null,
    scopes: typeof answer.scope === 'string' ? answer.scope.split(/[ ,]+/).filter(Boolean) : asked,
  });

  return {
    id: config.id,
    async authorizationUrl(request) {
      const as = await server();
      const url = new URL(as.authorization_endpoint!);
      const scopes = [...new Set([...defaultScopes, ...request.extraScopes])];
      url.searchParams.set('client_id', client.client_id);
      url.searchParams.set('redirect_uri', request.redirectUri);
      url.searchParams.set('response_type', 'code');
      if (scopes.length > 0) url.searchParams.set('scope', scopes.join(' '));
      url.searchParams.set('state', request.state);
      url.searchParams.set('code_challenge', request.codeChallenge);
      url.searchParams.set('code_challenge_method', 'S256');
      if (usesIdToken) url.searchParams.set('nonce', request.nonce);
      for (const [key, value] of Object.entries(preset?.authorizationParameters ?? {}))
        url.searchParams.set(key, value);
      return new URL(network.rewriteUrl(url.href));
    },

    async exchange({ parameters, state, redirectUri, codeVerifier, nonce }) {
      const as = await server();
      let callback: URLSearchParams;
      try {
        callback = oauth.validateAuthResponse(as, client, parameters, state);
      } catch (error) {
        if (error instanceof oauth.AuthorizationResponseError && error.error === 'access_denied') {
          throw providerFailure('Sign-in was cancelled at the provider.');
        }
        throw providerFailure(`The provider answered with an error: ${describe(error)}`);
      }
      let answer: oauth.TokenEndpointResponse;
      try {
        const response = await oauth.authorizationCodeGrantRequest(
          as,
          client,
          clientAuth,
          callback,
          redirectUri,
          codeVerifier,
          requestOptions(as.token_endpoint!),
        );
        answer = await oauth.processAuthorizationCodeResponse(as, client, response, {
          expectedNonce: usesIdToken ? nonce : oauth.expectNoNonce,
          requireIdToken: usesIdToken,
        });
      } catch (error) {
        throw providerFailure(`The provider did not accept the sign-in: ${describe(error)}`);
      }
      const asked = [...defaultScopes];
      let claims: JWTPayload | undefined;
      if (usesIdToken) claims = await verifyIdToken(as, client.client_id, answer.id_token!, network, caches, describe);
      const api: Api = async (url, accept = 'application/json') => {
        const response = await network.fetch(network.rewriteUrl(url), {
          headers: { authorization: `Bearer ${answer.access_token}`, accept, 'user-agent': 'Latchkey' },
        });
        if (!response.ok) throw providerFailure(`The provider's API answered ${response.status} for the profile.`);
        return response.json();
      };
      let profile: ProviderProfile;
      try {
        profile = preset ? await preset.profile(api, claims) : await oidcProfile(as, client, answer, claims!, network);
      } catch (error) {
        if (error instanceof KnownError) throw error;
        throw providerFailure(`The provider's profile could not be read: ${describe(error)}`);
      }
      return { profile, tokens: tokensOf(answer, asked) };
    },

    async refresh(refreshToken, scopes) {
      const as = await server();
      const response = await oauth.refreshTokenGrantRequest(
        as,
        client,
        clientAuth,
        refreshToken,
        requestOptions(as.token_endpoint!),
      );
      const answer = await oauth.processRefreshTokenResponse(as, client, response);
      const tokens = tokensOf(answer, scopes);
      return { ...tokens, refreshToken: tokens.refreshToken ?? refreshToken };
    },
  };
}

/** A generic provider's profile: the ID token's claims, completed from userinfo when they lack the e-mail. */
async function oidcProfile(
  as: oauth.AuthorizationServer,
  client: oauth.Client,
  answer: oauth.TokenEndpointResponse,
  claims: JWTPayload,
  network: ProviderNetwork,
): Promise<ProviderProfile> {
  let merged: Record<string, unknown> = { ...claims };
  if (!merged.email && as.userinfo_endpoint) {
    const response = await oauth.userInfoRequest(as, client, answer.access_token, {
      [oauth.customFetch]: (input: string | URL | Request, init?: RequestInit) =>
        network.fetch(network.rewriteUrl(String(input instanceof Request ? input.url : input)), init),
      [oauth.allowInsecureRequests]: insecureAllowed(network.rewriteUrl(as.userinfo_endpoint)),
    });
    const info = await oauth.processUserInfoResponse(as, client, String(claims.sub), response);
    merged = { ...info, ...merged, email: info.email, email_verified: info.email_verified };
  }
  return claimsProfile(merged, as.issuer);
}

/** Checks the ID token's signature against the issuer's keys, and its issuer and audience once more. */
async function verifyIdToken(
  as: oauth.AuthorizationServer,
  audience: string,
  idToken: string,
  network: ProviderNetwork,
  { keySets }: ProviderCaches,
  describe: (error: unknown) => string,
): Promise<JWTPayload> {
  if (!as.jwks_uri) throw providerFailure('The provider publishes no keys to check its ID token with.');
  const jwksUrl = network.rewriteUrl(as.jwks_uri);
  let keys = keySets.get(jwksUrl);
  if (!keys) {
    keys = createRemoteJWKSet(new URL(jwksUrl), { [customFetch]: network.fetch });
    keySets.set(jwksUrl, keys);
  }
  try {
    const { payload } = await jwtVerify(idToken, keys, { issuer: as.issuer, audience });
    return payload;
  } catch (error) {
    throw providerFailure(`The provider's ID token failed verification: ${describe(error)}`);
  }
}

/**
 * The discovered metadata of an issuer, cached for ten minutes per service.
 * A failure is reported with its details and shown as a plain message: what
 * an issuer (or whatever answers at its address) says is not for the browser.
 */
async function discover(
  { discovered }: ProviderCaches,
  now: () => number,
  issuer: string,
  options: Record<symbol, unknown>,
  report: ReportFailure,
): Promise<oauth.AuthorizationServer> {
  const cached = discovered.get(issuer);
  if (cached && now() - cached.at < discoveryTtlMs) return cached.server;
  const issuerUrl = new URL(issuer);
  const server = oauth
    .discoveryRequest(issuerUrl, { algorithm: 'oidc', ...options })
    .then((response) => oauth.processDiscoveryResponse(issuerUrl, response))
    .catch((error: unknown) => {
      discovered.delete(issuer);
      report(`OpenID configuration of ${issuer} not read: ${errorText(error)}`);
      throw providerFailure(unreachable);
    });
  discovered.set(issuer, { server, at: now() });
  return server;
}

/**
 * A failure as the person signing in may read it: a provider's OAuth error
 * (code and description, as it answered them) or what the checks of its
 * answer found wrong. Anything else (a connection refused or not allowed, a
 * time-out) is the provider unreachable: its details go to the log and the
 * sign-in fails with a plain sentence (thrown here).
 */
function describeFailure(error: unknown, report: ReportFailure): string {
  if (error instanceof KnownError) return error.message;
  if (error instanceof oauth.ResponseBodyError || error instanceof oauth.AuthorizationResponseError)
    return `${error.error}${error.error_description ? `: ${error.error_description}` : ''}`;
  const joseCode = (error as { code?: unknown }).code;
  const checked =
    error instanceof oauth.OperationProcessingError ||
    (typeof joseCode === 'string' && /^ERR_JW[TSEK]/.test(joseCode) && joseCode !== 'ERR_JWKS_TIMEOUT');
  if (checked) return (error as Error).message;
  report(errorText(error));
  throw providerFailure(unreachable);
}

/** An error and its causes in one line, for the log. */
function errorText(error: unknown): string {
  const parts: string[] = [];
  for (let cause = error, depth = 0; cause && depth < 4; depth++) {
    parts.push(cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause));
    cause = (cause as { cause?: unknown }).cause;
  }
  return parts.join(' <- ').slice(0, 1000);
}
