/**
 * The upstream OAuth providers: the eleven presets of wire-protocol §15.6,
 * generic OpenID Connect providers found by discovery, and the development
 * stand-in that `shared` providers use (`dev-provider.ts`).
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
import type { ProjectConfig } from '../projects/project-config.js';
import { isLocalhostName } from '../projects/trusted-urls.js';

/** Who the person is at the provider. */
export interface ProviderProfile {
  /** The provider's stable subject for the person. */
  accountId: string;
  email: string | null;
  /** True only when the provider says it checked the address. */
  emailVerified: boolean;
  displayName: string | null;
  profileImageUrl: string | null;
}

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
export interface AuthorizationRequest {
  state: string;
  codeChallenge: string;
  nonce: string;
  /** The service's callback URL for this provider. */
  redirectUri: string;
  /** Scopes beyond the provider's defaults. */
  extraScopes: string[];
}

/** What the callback hands to the exchange. */
export interface CallbackExchange {
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

/** A provider entry of the project config. */
export type ProviderConfig = ProjectConfig['oauth_providers'][number];

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
  /** For providers that cannot be reached; null when logging is off. */
  logger: Logger | null;
}

type Api = (url: string, accept?: string) => Promise<unknown>;

interface Preset {
  displayName: string;
  authorizationEndpoint: string;
  tokenEndpoint: string;
  /** Set for presets whose ID token is read: its issuer and key set. */
  idToken?: { issuer: string; jwksUri: string };
  scopes: string[];
  /** Sent on every authorization request (offline access, response mode...). */
  authorizationParameters?: Record<string, string>;
  /** Client authentication at the token endpoint (default `client_secret_post`). */
  clientAuth?: 'basic' | 'post';
  profile(api: Api, claims: JWTPayload | undefined): Promise<ProviderProfile>;
}

const text = (value: unknown): string | null => (typeof value === 'string' && value !== '' ? value : null);
const idText = (value: unknown): string | null =>
  typeof value === 'number' ? String(value) : typeof value === 'string' && value !== '' ? value : null;
const record = (value: unknown): Record<string, unknown> =>
  value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
const records = (value: unknown): Record<string, unknown>[] => (Array.isArray(value) ? value.map(record) : []);
const isTrue = (value: unknown): boolean => value === true || value === 'true';

function requireId(value: unknown, provider: string): string {
  const id = idText(value);
  if (!id) throw new Error(`${provider} answered a profile without an account id`);
  return id;
}

/** A profile read from OpenID Connect claims (ID token or userinfo). */
function claimsProfile(claims: Record<string, unknown>, provider: string): ProviderProfile {
  return {
    accountId: requireId(claims.sub, provider),
    email: text(claims.email),
    emailVerified: text(claims.email) !== null && isTrue(claims.email_verified),
    displayName: text(claims.name) ?? text(claims.preferred_username),
    profileImageUrl: text(claims.picture),
  };
}

/** The provider presets (wire-protocol §15.6): endpoints, scopes and profile readers; public facts of each API. */
const presets: Record<string, (config: ProviderConfig) => Preset> = {
  github: () => ({
    displayName: 'GitHub',
    authorizationEndpoint: 'https://github.com/login/oauth/authorize',
    tokenEndpoint: 'https://github.com/login/oauth/access_token',
    scopes: ['read:user', 'user:email'],
    async profile(api) {
      const user = record(await api('https://api.github.com/user', 'application/vnd.github+json'));
      // The public e-mail of the profile is whatever the person typed; only the e-mails API says which is verified.
      const emails = records(await api('https://api.github.com/user/emails', 'application/vnd.github+json'));
      const primary = emails.find((e) => e.primary === true);
      return {
        accountId: requireId(user.id, 'GitHub'),
        email: text(primary?.email),
        emailVerified: primary?.verified === true && text(primary.email) !== null,
        displayName: text(user.name) ?? text(user.login),
        profileImageUrl: text(user.avatar_url),
      };
    },
  }),
  google: () => ({
    displayName: 'Google',
    authorizationEndpoint: 'https://accounts.google.com/o/oauth2/v2/auth',
    tokenEndpoint: 'https://oauth2.googleapis.com/token',
    idToken: { issuer: 'https://accounts.google.com', jwksUri: 'https://www.googleapis.com/oauth2/v3/certs' },
    scopes: ['openid', 'email', 'profile'],
    authorizationParameters: { access_type: 'offline', prompt: 'consent' },
    profile: async (_api, claims) => claimsProfile(record(claims), 'Google'),
  }),
  microsoft: (config) => {
    const tenant = config.microsoft_tenant_id ?? 'common';
    return {
      displayName: 'Microsoft',
      authorizationEndpoint: `https://login.microsoftonline.com/${tenant}/oauth2/v2.0/authorize`,
      tokenEndpoint: `https://login.microsoftonline.com/${tenant}/oauth2/v2.0/token`,
      scopes: ['User.Read', 'offline_access'],
      async profile(api) {
        const me = record(await api('https://graph.microsoft.com/v1.0/me'));
        // Microsoft accounts carry addresses nobody proved (work accounts can type any): never verified.
        return {
          accountId: requireId(me.id, 'Microsoft'),
          email: text(me.mail) ?? text(me.userPrincipalName),
          emailVerified: false,
          displayName: text(me.displayName),
          profileImageUrl: null,
        };
      },
    };
  },
  spotify: () => ({
    displayName: 'Spotify',
    authorizationEndpoint: 'https://accounts.spotify.com/authorize',
    tokenEndpoint: 'https://accounts.spotify.com/api/token',
    scopes: ['user-read-email', 'user-read-private'],
    async profile(api) {
      const me = record(await api('https://api.spotify.com/v1/me'));
      return {
        accountId: requireId(me.id, 'Spotify'),
        email: text(me.email),
        emailVerified: false,
        displayName: text(me.display_name),
        profileImageUrl: text(records(me.images)[0]?.url),
      };
    },
  }),
  facebook: (config) => ({
    displayName: 'Facebook',
    authorizationEndpoint: 'https://www.facebook.com/v19.0/dialog/oauth',
    tokenEndpoint: 'https://graph.facebook.com/v19.0/oauth/access_token',
    scopes: config.facebook_config_id ? [] : ['email', 'public_profile'],
    ...(config.facebook_config_id ? { authorizationParameters: { config_id: config.facebook_config_id } } : {}),
    async profile(api) {
      const me = record(await api('https://graph.facebook.com/me?fields=id,name,email,picture'));
      return {
        accountId: requireId(me.id, 'Facebook'),
        email: text(me.email),
        emailVerified: false,
        displayName: text(me.name),
        profileImageUrl: text(record(record(me.picture).data).url),
      };
    },
  }),
  discord: () => ({
    displayName: 'Discord',
    authorizationEndpoint: 'https://discord.com/oauth2/authorize',
    tokenEndpoint: 'https://discord.com/api/oauth2/token',
    scopes: ['identify', 'email'],
    async profile(api) {
      const me = record(await api('https://discord.com/api/users/@me'));
      const id = requireId(me.id, 'Discord');
      const avatar = text(me.avatar);
      return {
        accountId: id,
        email: text(me.email),
        emailVerified: me.verified === true && text(me.email) !== null,
        displayName: text(me.global_name) ?? text(me.username),
        profileImageUrl: avatar ? `https://cdn.discordapp.com/avatars/${id}/${avatar}.png` : null,
      };
    },
  }),
  gitlab: () => ({
    displayName: 'GitLab',
    authorizationEndpoint: 'https://gitlab.com/oauth/authorize',
    tokenEndpoint: 'https://gitlab.com/oauth/token',
    scopes: ['read_user'],
    async profile(api) {
      const me = record(await api('https://gitlab.com/api/v4/user'));
      return {
        accountId: requireId(me.id, 'GitLab'),
        email: text(me.email),
        emailVerified: text(me.email) !== null && text(me.confirmed_at) !== null,
        displayName: text(me.name) ?? text(me.username),
        profileImageUrl: text(me.avatar_url),
      };
    },
  }),
  bitbucket: () => ({
    displayName: 'Bitbucket',
    authorizationEndpoint: 'https://bitbucket.org/site/oauth2/authorize',
    tokenEndpoint: 'https://bitbucket.org/site/oauth2/access_token',
    clientAuth: 'basic',
    scopes: ['account', 'email'],
    async profile(api) {
      const me = record(await api('https://api.bitbucket.org/2.0/user'));
      const emails = records(record(await api('https://api.bitbucket.org/2.0/user/emails')).values);
      const primary = emails.find((e) => e.is_primary === true);
      return {
        accountId: requireId(me.uuid ?? me.account_id, 'Bitbucket'),
        email: text(primary?.email),
        emailVerified: primary?.is_confirmed === true && text(primary.email) !== null,
        displayName: text(me.display_name),
        profileImageUrl: text(record(record(me.links).avatar).href),
      };
    },
  }),
  linkedin: () => ({
    displayName: 'LinkedIn',
    authorizationEndpoint: 'https://www.linkedin.com/oauth/v2/authorization',
    tokenEndpoint: 'https://www.linkedin.com/oauth/v2/accessToken',
    idToken: { issuer: 'https://www.linkedin.com/oauth', jwksUri: 'https://www.linkedin.com/oauth/openid/jwks' },
    scopes: ['openid', 'profile', 'email'],
    profile: async (_api, claims) => claimsProfile(record(claims), 'LinkedIn'),
  }),
  apple: () => ({
    displayName: 'Apple',
    authorizationEndpoint: 'https://appleid.apple.com/auth/authorize',
    tokenEndpoint: 'https://appleid.apple.com/auth/token',
    idToken: { issuer: 'https://appleid.apple.com', jwksUri: 'https://appleid.apple.com/auth/keys' },
    scopes: ['name', 'email'],
    // Apple posts the callback when name or e-mail is asked for.
    authorizationParameters: { response_mode: 'form_post' },
    profile: async (_api, claims) => claimsProfile(record(claims), 'Apple'),
  }),
  x: () => ({
    displayName: 'X',
    authorizationEndpoint: 'https://x.com/i/oauth2/authorize',
    tokenEndpoint: 'https://api.x.com/2/oauth2/token',
    clientAuth: 'basic',
    scopes: ['users.read', 'tweet.read', 'offline.access'],
    async profile(api) {
      const me = record(record(await api('https://api.x.com/2/users/me?user.fields=profile_image_url')).data);
      // X gives no e-mail address through this API.
      return {
        accountId: requireId(me.id, 'X'),
        email: null,
        emailVerified: false,
        displayName: text(me.name) ?? text(me.username),
        profileImageUrl: text(me.profile_image_url),
      };
    },
  }),
};

/** The button label of a provider. */
export function providerDisplayName(config: Pick<ProviderConfig, 'id' | 'display_name'>): string {
  return config.display_name ?? presets[config.id]?.({ id: config.id } as ProviderConfig).displayName ?? config.id;
}

/** Denied, failed or unverifiable answers of a provider, as the known error the app's error page shows. */
export function providerFailure(reason: string): KnownError {
  return new KnownError('OAUTH_PROVIDER_ACCESS_DENIED', undefined, reason);
}

const discoveryTtlMs = 10 * 60_000;

/** What one service (one network) discovered and fetched, so that services of one process never share it. */
interface NetworkCache {
  discovered: Map<string, { server: Promise<oauth.AuthorizationServer>; at: number }>;
  keySets: Map<string, ReturnType<typeof createRemoteJWKSet>>;
}
const caches = new WeakMap<ProviderNetwork, NetworkCache>();

function cacheOf(network: ProviderNetwork): NetworkCache {
  let cache = caches.get(network);
  if (!cache) {
    cache = { discovered: new Map(), keySets: new Map() };
    caches.set(network, cache);
  }
  return cache;
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
    return discover(network, config.issuer!, requestOptions(config.issuer!), report);
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
      if (usesIdToken) claims = await verifyIdToken(as, client.client_id, answer.id_token!, network, describe);
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
  describe: (error: unknown) => string,
): Promise<JWTPayload> {
  if (!as.jwks_uri) throw providerFailure('The provider publishes no keys to check its ID token with.');
  const jwksUrl = network.rewriteUrl(as.jwks_uri);
  const { keySets } = cacheOf(network);
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
  network: ProviderNetwork,
  issuer: string,
  options: Record<symbol, unknown>,
  report: ReportFailure,
): Promise<oauth.AuthorizationServer> {
  const { discovered } = cacheOf(network);
  const cached = discovered.get(issuer);
  if (cached && Date.now() - cached.at < discoveryTtlMs) return cached.server;
  const issuerUrl = new URL(issuer);
  const server = oauth
    .discoveryRequest(issuerUrl, { algorithm: 'oidc', ...options })
    .then((response) => oauth.processDiscoveryResponse(issuerUrl, response))
    .catch((error: unknown) => {
      discovered.delete(issuer);
      report(`OpenID configuration of ${issuer} not read: ${errorText(error)}`);
      throw providerFailure(unreachable);
    });
  discovered.set(issuer, { server, at: Date.now() });
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
