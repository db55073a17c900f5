/**
 * A browser, as far as an OAuth flow needs one, for HTTP tests: follows
 * redirects one by one, keeps cookies (per host, as browsers do on loopback),
 * and stops at the app's pages, which it does not load. Plus the app's side of
 * the flow: the authorize URL with its PKCE pair, and the code exchange.
 */
import { createHash, randomBytes } from 'node:crypto';

/** What the browser needs of a test service: where it answers, and the project's id and publishable key. */
export interface OAuthTestProject {
  apiUrl: string;
  projectId: string;
  keys: { publishableClientKey: string };
}

/** The app's pages in the tests (allowed by `allow_localhost`). */
export const appCallbackUrl = 'http://localhost:3000/handler/oauth-callback';
export const appErrorUrl = 'http://localhost:3000/handler/error';

export class TestBrowser {
  readonly cookies = new Map<string, string>();

  /**
   * Goes to `url` and follows redirects until a page answers, or the next
   * address is on `stopAt` (an origin the test plays itself). Returns the last
   * address and its answer (null when stopped before loading it).
   */
  async go(
    url: string,
    options: { stopAt?: string[]; init?: RequestInit } = {},
  ): Promise<{ url: string; response: Response | null; visited: string[] }> {
    const stopAt = options.stopAt ?? ['http://localhost:3000'];
    let current = url;
    let init: RequestInit | undefined = options.init;
    const visited: string[] = [];
    for (let hop = 0; hop < 20; hop++) {
      if (stopAt.some((origin) => current.startsWith(origin))) return { url: current, response: null, visited };
      visited.push(current);
      const headers = new Headers(init?.headers);
      const cookie = [...this.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
      if (cookie) headers.set('cookie', cookie);
      const response = await fetch(current, { ...init, headers, redirect: 'manual' });
      for (const line of response.headers.getSetCookie()) this.#store(line);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) return { url: current, response, visited };
      await response.body?.cancel();
      current = new URL(location, current).href;
      init = undefined;
    }
    throw new Error(`too many redirects from ${url}`);
  }

  #store(line: string): void {
    const [pair = '', ...attributes] = line.split(';');
    const index = pair.indexOf('=');
    const name = pair.slice(0, index).trim();
    const value = pair.slice(index + 1).trim();
    const expired = attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /expires=Thu, 01 Jan 1970/i.test(a));
    if (expired || value === '') this.cookies.delete(name);
    else this.cookies.set(name, value);
  }
}

/** The app's half of a flow: its state and PKCE verifier, and the authorize URL built from them. */
export interface AppFlow {
  url: string;
  state: string;
  verifier: string;
}

/** The authorize URL the SDK would navigate to (wire-protocol §9.1). */
export function authorizeUrl(
  service: OAuthTestProject,
  providerId: string,
  options: {
    type?: 'authenticate' | 'link';
    token?: string;
    providerScope?: string;
    afterCallbackRedirectUrl?: string;
    redirectUri?: string;
    errorRedirectUrl?: string;
    clientSecret?: string;
    omit?: string[];
  } = {},
): AppFlow {
  const verifier = randomBytes(32).toString('base64url');
  const state = randomBytes(32).toString('base64url');
  const query: Record<string, string> = {
    client_id: service.projectId,
    client_secret: options.clientSecret ?? service.keys.publishableClientKey,
    redirect_uri: options.redirectUri ?? appCallbackUrl,
    scope: 'legacy',
    state,
    grant_type: 'authorization_code',
    code_challenge: createHash('sha256').update(verifier).digest('base64url'),
    code_challenge_method: 'S256',
    response_type: 'code',
    type: options.type ?? 'authenticate',
    error_redirect_url: options.errorRedirectUrl ?? appErrorUrl,
  };
  if (options.afterCallbackRedirectUrl) query.after_callback_redirect_url = options.afterCallbackRedirectUrl;
  if (options.token) query.token = options.token;
  if (options.providerScope) query.provider_scope = options.providerScope;
  for (const key of options.omit ?? []) delete query[key];
  const url = new URL(`${service.apiUrl}/auth/oauth/authorize/${providerId}`);
  for (const [key, value] of Object.entries(query)) url.searchParams.set(key, value);
  return { url: url.href, state, verifier };
}

/** `POST /auth/oauth/token` with an authorization code, as the SDK sends it (vector 105). */
export async function exchangeCode(
  service: OAuthTestProject,
  fields: { code: string; verifier: string; redirectUri?: string },
): Promise<{ status: number; body: Record<string, unknown> & { code?: string; error?: string } }> {
  const body = new URLSearchParams({
    redirect_uri: fields.redirectUri ?? appCallbackUrl,
    code_verifier: fields.verifier,
    code: fields.code,
    grant_type: 'authorization_code',
    client_id: service.projectId,
    client_secret: service.keys.publishableClientKey,
  });
  const response = await fetch(`${service.apiUrl}/auth/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded;charset=UTF-8' },
    body,
  });
  return { status: response.status, body: await response.json() };
}

/** Where a flow ended: the app's callback (`code`, `state`) or its error page (`errorCode`, `message`). */
export function landing(url: string): { page: string; params: URLSearchParams } {
  const parsed = new URL(url);
  return { page: `${parsed.origin}${parsed.pathname}`, params: parsed.searchParams };
}
