/**
 * The "outer" OAuth flow between the app and the service (wire-protocol.md
 * §9.1, §9.2): the authorize URL a browser goes to (authorization code with
 * PKCE), the verifier kept in a cookie for the way back, and the code
 * exchange. Browser-only by nature; the pure parts take what they need.
 */
import { cookieNames, KnownError, oauthVerifierCookieMaxAgeSeconds, type SignInResponseWire } from '@latchkey/protocol';
import { HttpError } from '../errors.js';
import { absolutePageUrl } from '../internal/callback-url.js';
import type { Core } from '../internal/core.js';
import { asBaseFields, decodeAnswer, readFields } from '../internal/decode/fields.js';
import { processApiResponse } from '../internal/http/process-response.js';
import { apiUrl } from '../internal/http/request.js';
import { withServiceCookie } from '../internal/http/retry.js';
import { parseJson } from '../internal/parse-json.js';
import { currentLocation } from '../internal/redirect.js';
import { type CookieDocument, deleteCookie, parseCookies, setCookie } from '../internal/session/cookie-store.js';
import { refreshContentType } from '../internal/session/refresh-request.js';
import type { FetchFunction } from '../options.js';
import { readSignIn, type SignInTokens } from './password.js';

/** What the flow is for: signing in (or up), or connecting a provider to the signed-in user. */
type OAuthFlowType = 'authenticate' | 'link';

/** Everything the authorize URL carries (wire-protocol.md §9.1). */
interface AuthorizeRequest {
  baseUrl: string;
  projectId: string;
  publishableClientKey: string;
  providerId: string;
  /** Absolute URL of the app's OAuth callback page, without `code`/`state`. */
  redirectUri: string;
  /** Absolute URL of the app's error page. */
  errorRedirectUrl: string;
  state: string;
  codeChallenge: string;
  type: OAuthFlowType;
  afterCallbackRedirectUrl?: string;
  /** `link` only: the user's current access token. */
  token?: string;
  /** `link` only: extra provider scopes. */
  providerScopes?: string[];
}

/**
 * The authorize URL, with the query keys in the order the 2.7 SDK sent them.
 *
 * @example
 * ```ts
 * location.assign(authorizeUrl({ baseUrl, projectId, publishableClientKey, providerId: 'github', redirectUri,
 *   errorRedirectUrl, state, codeChallenge, type: 'authenticate' }));
 * ```
 */
function authorizeUrl(request: AuthorizeRequest): string {
  const query: Record<string, string | undefined> = {
    client_id: request.projectId,
    client_secret: request.publishableClientKey,
    redirect_uri: request.redirectUri,
    scope: 'legacy',
    state: request.state,
    grant_type: 'authorization_code',
    code_challenge: request.codeChallenge,
    code_challenge_method: 'S256',
    response_type: 'code',
    type: request.type,
    error_redirect_url: request.errorRedirectUrl,
    after_callback_redirect_url: request.afterCallbackRedirectUrl,
  };
  if (request.type === 'link') {
    query.token = request.token;
    const scopes = request.providerScopes?.join(' ');
    if (scopes) query.provider_scope = scopes;
  }
  const path = `/auth/oauth/authorize/${encodeURIComponent(request.providerId.toLowerCase())}`;
  return apiUrl(request.baseUrl, path, query);
}

/**
 * A fresh PKCE pair and state: 32 random bytes each for the verifier and the
 * state (base64url), and the S256 challenge of the verifier (WebCrypto).
 *
 * @example
 * ```ts
 * const { state, verifier, codeChallenge } = await createPkce();
 * ```
 */
async function createPkce(): Promise<{ state: string; verifier: string; codeChallenge: string }> {
  const verifier = randomBase64Url();
  return { state: randomBase64Url(), verifier, codeChallenge: await pkceChallenge(verifier) };
}

/**
 * base64url(SHA-256(`verifier`)), the `code_challenge` of `S256`.
 *
 * @example
 * ```ts
 * await pkceChallenge('N8FuLKmee6YpaBArrSLIyBq3Mz8ed_YVb5O-aPcbNSI'); // 43 characters
 * ```
 */
async function pkceChallenge(verifier: string): Promise<string> {
  const digest = await webCrypto().subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64Url(new Uint8Array(digest));
}

function randomBase64Url(): string {
  return base64Url(webCrypto().getRandomValues(new Uint8Array(32)));
}

function base64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function webCrypto(): Crypto {
  if (!globalThis.crypto?.subtle) throw new Error('OAuth needs WebCrypto (crypto.subtle), which this page lacks.');
  return globalThis.crypto;
}

/**
 * Keeps the verifier for the way back, in `stack-oauth-outer-<state>` (1 hour).
 *
 * @example
 * ```ts
 * storeVerifier(document, state, verifier);
 * ```
 */
function storeVerifier(doc: CookieDocument, state: string, verifier: string): void {
  setCookie(doc, cookieNames.oauthVerifier(state), verifier, oauthVerifierCookieMaxAgeSeconds);
}

/** The cookie of where a sign-in flow asked to end, kept for a callback that asks for the second factor. */
const returnToCookie = (state: string) => `latchkey-oauth-return-${state}`;

/**
 * Where the sign-in flows whose callback asked for the second factor would
 * have ended (their `afterCallbackRedirectUrl`), by the error that asked: the
 * service answers it with a session, not with that error.
 */
export const flowReturnTo = new WeakMap<object, string>();

/** Cookie `name`, deleting it (it serves one callback); `null` when there is none. */
function takeCookie(doc: CookieDocument, name: string): string | null {
  const value = parseCookies(doc.cookie).get(name);
  if (!value) return null;
  deleteCookie(doc, name);
  return value;
}

/**
 * Where the sign-in flow of `state` asked to end, deleting its cookie; `null` when it asked nothing.
 *
 * @example
 * ```ts
 * const returnTo = takeFlowReturnTo(document, state);
 * ```
 */
export const takeFlowReturnTo = (doc: CookieDocument, state: string) => takeCookie(doc, returnToCookie(state));

/**
 * The verifier stored for `state`, deleting its cookie (it serves one
 * exchange); `null` when there is none (expired, another browser, a callback
 * this app did not start), which spec §4 says to ignore silently.
 *
 * @example
 * ```ts
 * const verifier = takeVerifier(document, state);
 * ```
 */
export const takeVerifier = (doc: CookieDocument, state: string) => takeCookie(doc, cookieNames.oauthVerifier(state));

/** Answer of `POST /auth/oauth/token` with `grant_type=authorization_code` (wire-protocol.md §9.2): a sign-in's, and where to end. */
interface CodeExchangeWire extends SignInResponseWire {
  after_callback_redirect_url?: string | null;
}

/** A finished code exchange: the session, and where the flow asked to end. */
export interface CodeExchangeResult extends SignInTokens {
  afterCallbackRedirectUrl: string | null;
}

export interface CodeExchangeRequest {
  baseUrl: string;
  projectId: string;
  publishableClientKey: string;
  code: string;
  verifier: string;
  /** The same string the authorize URL carried. */
  redirectUri: string;
  fetch: FetchFunction;
  /** The mode of the session the exchange starts (`Session.serviceCookie`): the service sets its refresh token as its cookie. */
  serviceCookie: boolean;
}

/**
 * Exchanges the authorization code (form-encoded, OAuth client authentication
 * in the body, no `x-stack-*` headers). Sent once, never retried: a code
 * serves one exchange. A known-error answer (`x-stack-known-error`) is thrown
 * as its `KnownError`; a 4xx OAuth error body (`{ error: 'invalid_grant',
 * error_description }`) as `INVALID_AUTHORIZATION_CODE` with the description;
 * anything else as the pipeline throws it (`HttpError`, `RateLimitedError`).
 *
 * @example
 * ```ts
 * const session = await exchangeCode({ baseUrl, projectId, publishableClientKey, code, verifier, redirectUri, fetch });
 * ```
 */
export async function exchangeCode(request: CodeExchangeRequest): Promise<CodeExchangeResult> {
  const url = apiUrl(request.baseUrl, '/auth/oauth/token');
  const body = new URLSearchParams({
    redirect_uri: request.redirectUri,
    code_verifier: request.verifier,
    code: request.code,
    grant_type: 'authorization_code',
    client_id: request.projectId,
    client_secret: request.publishableClientKey,
  }).toString();
  const init: RequestInit = { method: 'POST', headers: { 'content-type': refreshContentType }, body };
  const response = await request.fetch(url, request.serviceCookie ? withServiceCookie(init) : init);
  const processed = await processApiResponse(response, url);
  if (processed.kind === 'ok') {
    return decodeAnswer('POST /auth/oauth/token', processed.body, (answer) =>
      decodeCodeExchange(answer, request.serviceCookie),
    );
  }
  const { error } = processed;
  if (error instanceof HttpError && error.status >= 400 && error.status < 500) {
    const oauthError = parseOAuthError(error.body);
    if (oauthError) throw new KnownError('INVALID_AUTHORIZATION_CODE', undefined, oauthError);
  }
  throw error;
}

/** The description (else the code) of an OAuth error body `{ error, error_description? }`. */
function parseOAuthError(text: string): string | undefined {
  const body = parseJson(text) as { error?: unknown; error_description?: unknown } | null | undefined;
  if (typeof body?.error !== 'string') return undefined;
  return typeof body.error_description === 'string' ? body.error_description : body.error;
}

/** Decodes a code exchange: the session as a sign-in's (`readSignIn`, in the session's mode), and where to end. */
function decodeCodeExchange(body: unknown, serviceCookie: boolean): CodeExchangeResult {
  return readFields<CodeExchangeWire, CodeExchangeResult>(body, (answer) => ({
    ...readSignIn(asBaseFields(answer), serviceCookie),
    afterCallbackRedirectUrl:
      answer.value<string | null | undefined>(
        'after_callback_redirect_url',
        (value) => value === null || typeof value === 'string',
        'a string or null',
        true,
      ) ?? null,
  }));
}

/** The app's OAuth client: who it is to the service, and how it sends the exchange. */
export interface OAuthClient {
  baseUrl: string;
  projectId: string;
  publishableClientKey: string;
  fetch: FetchFunction;
}

/** A flow to start from the current page: the provider, the type and what the type needs. */
export type OAuthFlow = Pick<
  AuthorizeRequest,
  'providerId' | 'type' | 'afterCallbackRedirectUrl' | 'token' | 'providerScopes'
> & {
  /** Where a failed flow returns (absolute, on this origin); default: the app's `error` page. */
  errorRedirectUrl?: string;
};

/**
 * The `redirect_uri` of the app: its `oauth-callback` page as an absolute URL
 * on this origin, without `code`/`state`; `undefined` outside a browser.
 *
 * @example
 * ```ts
 * oauthRedirectUri('/handler/oauth-callback'); // 'http://localhost:3000/handler/oauth-callback'
 * ```
 */
export function oauthRedirectUri(callbackPage: string): string | undefined {
  const page = absolutePageUrl(callbackPage);
  return page && withoutCodeAndState(page);
}

/** `href` without the `code` and `state` an OAuth callback carries. */
export function withoutCodeAndState(href: string): string {
  const url = new URL(href);
  url.searchParams.delete('code');
  url.searchParams.delete('state');
  return url.href;
}

/** The developer error of an OAuth call made outside a browser. */
export const browserOnly = (call: string) => new Error(`${call}: OAuth runs in a browser only.`);

/**
 * Starts a flow from the current page: builds the authorize URL for the
 * app's `oauth-callback` page and its `error` page (or the flow's own), keeps the verifier in its cookie
 * (and where a sign-in asked to end, in one of its own), then leaves for the service. Outside a browser it throws a developer error
 * naming `call`.
 *
 * @example
 * ```ts
 * await startOAuthFlow(core, client, { providerId: 'github', type: 'authenticate' }, 'signInWithOAuth');
 * ```
 */
export async function startOAuthFlow(
  core: Pick<Core, 'urls' | 'leave'>,
  client: OAuthClient,
  flow: OAuthFlow,
  call: string,
): Promise<void> {
  const redirectUri = oauthRedirectUri(core.urls.oauthCallback);
  const errorRedirectUrl = flow.errorRedirectUrl ?? absolutePageUrl(core.urls.error);
  if (typeof document === 'undefined' || !currentLocation() || !redirectUri || !errorRedirectUrl) {
    throw browserOnly(call);
  }
  const { state, verifier, codeChallenge } = await createPkce();
  const url = authorizeUrl({ ...client, ...flow, redirectUri, errorRedirectUrl, state, codeChallenge });
  storeVerifier(document, state, verifier);
  if (flow.afterCallbackRedirectUrl) {
    setCookie(document, returnToCookie(state), flow.afterCallbackRedirectUrl, oauthVerifierCookieMaxAgeSeconds);
  }
  await core.leave(url);
}
