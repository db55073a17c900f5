/**
 * A real OpenID Connect provider on loopback for the OAuth tests: panva's
 * `oidc-provider`, with one confidential client, PKCE required, refresh
 * tokens, and accounts the test defines. Two ways to log in:
 *
 * - `interactive: false` (HTTP tests): the interaction is answered by the test
 *   itself — `nextLogin(accountId)` says who logs in (and consents) at the
 *   next authorization, `nextLogin({ deny: true })` makes the person decline.
 * - `interactive: true` (Chromium): oidc-provider's own development login and
 *   consent pages, where any login name is accepted.
 *
 * Exported from `@latchkey/server/testing`; `oidc-provider` (a development
 * dependency of the server) is loaded only when an upstream starts, so a test
 * that starts one needs it installed.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair } from 'jose';
import type Provider from 'oidc-provider';

/** An account of the upstream: its subject and the claims it releases. */
interface UpstreamAccount {
  sub: string;
  email?: string;
  email_verified?: boolean;
  name?: string;
}

export interface OidcUpstream {
  /** The issuer URL, e.g. `http://127.0.0.1:40123`. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** Who logs in at the next non-interactive authorization; `{ deny: true }` declines. */
  nextLogin(who: string | { deny: true }): void;
  /** Adds or replaces an account (interactive logins of unknown names get `<name>@upstream.test`, verified). */
  setAccount(account: UpstreamAccount): void;
  /** The provider, for tests that need its internals (e.g. its access-token lifetime). */
  provider: Provider;
  close(): Promise<void>;
}

export interface OidcUpstreamOptions {
  /** The redirect URIs the client may use (the service's callback URLs). */
  redirectUris: string[];
  interactive?: boolean;
  accounts?: UpstreamAccount[];
  /** Access-token lifetime in seconds (default 3600). */
  accessTokenTtl?: number;
}

/** Starts the provider on a free loopback port. */
export async function startOidcUpstream(options: OidcUpstreamOptions): Promise<OidcUpstream> {
  const accounts = new Map((options.accounts ?? []).map((account) => [account.sub, account]));
  let next: string | { deny: true } | null = null;
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const clientId = 'latchkey-test-client';
  const clientSecret = 'upstream-client-secret-0123456789abcdef';

  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey = { ...(await exportJWK(privateKey)), kid: 'upstream-test-key', alg: 'RS256', use: 'sig' };
  const { default: OidcProvider } = await import('oidc-provider');
  const provider = new OidcProvider(issuer, {
    jwks: { keys: [signingKey] },
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_post',
      },
    ],
    async findAccount(_context, sub) {
      const account = accounts.get(sub) ?? { sub, email: `${sub}@upstream.test`, email_verified: true, name: sub };
      return { accountId: sub, claims: async () => ({ ...account }) };
    },
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    scopes: ['openid', 'offline_access', 'email', 'profile', 'repo'],
    features: { devInteractions: { enabled: options.interactive === true } },
    pkce: { required: () => true },
    cookies: { keys: ['upstream-cookie-key-for-tests-only'] },
    // Every lifetime set, so oidc-provider has nothing to warn about.
    ttl: {
      AccessToken: options.accessTokenTtl ?? 3600,
      AuthorizationCode: 60,
      IdToken: 3600,
      RefreshToken: 24 * 3600,
      Interaction: 3600,
      Session: 24 * 3600,
      Grant: 24 * 3600,
    },
    // Refresh tokens for every client that may use the grant, offline_access or not.
    issueRefreshToken: async (_context, client) => client.grantTypeAllowed('refresh_token'),
    async loadExistingGrant(context) {
      // Consent is given by the test (or the dev pages); a grant covers what was asked.
      const grantId =
        context.oidc.result?.consent?.grantId ?? context.oidc.session?.grantIdFor(context.oidc.client!.clientId);
      return grantId ? context.oidc.provider.Grant.find(grantId) : undefined;
    },
  });
  provider.proxy = false;

  const callback = provider.callback();
  server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    if (!options.interactive && request.url?.startsWith('/interaction/')) {
      answerInteraction(request, response).catch((error: unknown) => {
        response.statusCode = 500;
        response.end(String(error));
      });
      return;
    }
    callback(request, response);
  });

  async function answerInteraction(request: IncomingMessage, response: ServerResponse) {
    const details = await provider.interactionDetails(request, response);
    const who = next;
    if (who === null) throw new Error('startOidcUpstream: call nextLogin() before the authorization');
    if (typeof who === 'object') {
      next = null;
      await provider.interactionFinished(
        request,
        response,
        { error: 'access_denied', error_description: 'The person declined.' },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    if (details.prompt.name === 'login') {
      await provider.interactionFinished(
        request,
        response,
        { login: { accountId: who } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    next = null;
    const grant = new provider.Grant({ accountId: who, clientId });
    grant.addOIDCScope(String(details.params.scope ?? 'openid'));
    const grantId = await grant.save();
    await provider.interactionFinished(request, response, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }

  return {
    issuer,
    clientId,
    clientSecret,
    provider,
    nextLogin(who) {
      next = who;
    },
    setAccount(account) {
      accounts.set(account.sub, account);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The project config entry of `upstream` as a generic OpenID Connect provider
 * (wire shape), as an operator would add it.
 *
 * @example
 * await service.setProjectConfig({ oauth_providers: [upstreamProvider(upstream)] });
 */
export function upstreamProvider(upstream: Pick<OidcUpstream, 'issuer' | 'clientId' | 'clientSecret'>, id = 'corp') {
  return {
    id,
    type: 'standard' as const,
    enabled: true,
    issuer: upstream.issuer,
    client_id: upstream.clientId,
    client_secret: upstream.clientSecret,
    display_name: 'Corp SSO',
  };
}

/**
 * Starts the upstream for a service at `serviceUrl` (its callback for provider
 * `id` registered) and returns it with the provider's config entry.
 */
export async function startUpstreamFor(
  serviceUrl: string,
  options: Omit<OidcUpstreamOptions, 'redirectUris'> = {},
  id = 'corp',
): Promise<{ upstream: OidcUpstream; provider: ReturnType<typeof upstreamProvider> }> {
  const upstream = await startOidcUpstream({
    ...options,
    redirectUris: [`${serviceUrl}/api/v1/auth/oauth/callback/${id}`],
  });
  return { upstream, provider: upstreamProvider(upstream, id) };
}
