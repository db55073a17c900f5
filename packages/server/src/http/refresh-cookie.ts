/**
 * The refresh-token cookie mode: for a service mounted on the app's own
 * origin, a browser session's refresh token (valid a year) lives in an
 * `HttpOnly` cookie the service sets, which page scripts, and so a script
 * injected into the page, can never read. Off unless `createService({
 * refreshTokenCookie })` turns it on; even then only requests that ask for it
 * with the `x-latchkey-refresh-cookie` header (the SDK's `tokenStore:
 * 'httponly-cookie'`) see any of it. Every other request and answer is the
 * wire protocol's, byte for byte.
 *
 * For a request that asks (`mount-routes.ts` runs these steps for every route):
 * - an answer carrying `refresh_token` (sign-up, sign-in, magic link, the
 *   OAuth code exchange) carries it in the cookie instead of the body;
 * - the cookie stands in for a refresh token the request does not send: the
 *   `x-stack-refresh-token` header (sign-out, the session list's
 *   `is_current`, a password change that keeps this session) and the token
 *   endpoint's `refresh_token` field;
 * - a sign-out, and a refusal of the cookie's token, clear the cookie.
 *
 * Cross-site request forgery. The browser attaches the cookie to any request
 * to this origin, also one another site makes it send, so the cookie is
 * honoured only when both hold:
 * 1. The request carries the custom header. A cross-site form cannot set a
 *    header, and a cross-site `fetch` that sets one must pass a CORS
 *    preflight as a credentialed request, which fails: the service answers
 *    `access-control-allow-origin: *` and never `-allow-credentials`, so a
 *    browser never sends it with cookies from another origin.
 * 2. Its `Origin`, when it has one, is trusted: the service's own (its
 *    `publicUrl`, or the request's), or a trusted domain of the project
 *    (localhost too when the project allows it). Browsers send `Origin` on
 *    every POST, PATCH, PUT and DELETE and on every cross-origin request; a
 *    request without it is not a page's, and can only carry the cookie when
 *    its sender already holds it. Anything else is ORIGIN_NOT_TRUSTED (403)
 *    before the route does anything, whether it would read, set or clear.
 * Rule 1 is enough in today's browsers; rule 2 does not lean on the CORS
 * answer staying as it is, and also stops sibling subdomains, which
 * `SameSite=Lax` counts as the same site.
 *
 * Cookie tossing. A sibling subdomain cannot read the cookie, but it can set
 * one of the same name for the parent domain, or for a longer path, which the
 * browser then sends first: the page would run in the sibling's session.
 * Over https (and unless the operator set a `path`) the cookie is therefore
 * `__Host-latchkey-refresh-<projectId>` with `Path=/` and no `Domain`: the
 * browser accepts a cookie of that name only from this very host, so no
 * sibling can set one. Wherever the name is sent twice all the same (plain
 * http, an operator's `path`, the old name), the request is refused
 * (REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED: the page is signed out, in nobody's
 * session) and its answer expires the name for every path of the request and
 * for this host and each parent domain, where a sibling could have set it.
 * A cookie of the name used before `__Host-` (`Path=/api/v1`) is still read
 * when the new one is absent, and replaced by it at the next cookie written.
 */
import { constants, headers, KnownError, refreshCookieHeader, refreshCookieName } from '@latchkey/protocol';
import type { ProjectRecord } from '../projects/projects.js';
import { isTrustedUrl } from '../projects/trusted-urls.js';

/**
 * Options of the refresh-token cookie (`createService({ refreshTokenCookie })`).
 *
 * @example
 * createService({ storage, secret, refreshTokenCookie: { sameSite: 'Strict' } });
 */
export interface RefreshTokenCookieOptions {
  /**
   * `Lax` (default) or `Strict`. The SDK only sends the cookie from the app's
   * own pages, so `Strict` costs nothing there; it also withholds the cookie
   * from top-level navigations that start on another site.
   */
  sameSite?: 'Lax' | 'Strict';
  /**
   * Send the cookie over https only. Default: when the service's public
   * origin (`publicUrl`, else the request's) is https. Set `true` behind a
   * proxy that ends TLS and forwards plain http without `publicUrl`.
   */
  secure?: boolean;
  /**
   * The cookie's `Path`, where browsers send it. Default: `/` over https,
   * where the cookie is named `__Host-…`, which browsers accept only from
   * this host with `Path=/` (a sibling subdomain cannot plant one); on plain
   * http `/api/v1`, the only place that reads it. Set it when the host serves
   * the API under a prefix (`/auth/api/v1`): the cookie then keeps its plain
   * name, and the service still refuses a request that carries it twice.
   */
  path?: string;
}

/** The checked options, as the service holds them. */
export interface RefreshCookieSettings {
  sameSite: 'Lax' | 'Strict';
  secure: boolean | null;
  /** The operator's `path`, or null for the default (see `RefreshTokenCookieOptions.path`). */
  path: string | null;
}

/** Checks the options of `createService`; a wrong one is a TypeError at start, not a broken cookie later. */
export function refreshCookieSettings(options: RefreshTokenCookieOptions): RefreshCookieSettings {
  const sameSite = options.sameSite ?? 'Lax';
  if (sameSite !== 'Lax' && sameSite !== 'Strict') {
    throw new TypeError("createService: refreshTokenCookie.sameSite must be 'Lax' or 'Strict'.");
  }
  const path = options.path ?? null;
  // A cookie attribute value: no separator, control character or space can end it or add another attribute.
  if (path !== null && !/^\/[\x21-\x3a\x3c-\x7e]*$/.test(path)) {
    throw new TypeError('createService: refreshTokenCookie.path must be a URL path such as /api/v1.');
  }
  return { sameSite, secure: options.secure ?? null, path };
}

/** Where the cookie lived before it could be `__Host-` (and still lives on plain http by default). */
const plainPath = '/api/v1';

/** Lifetime of the cookie: that of the sessions the sign-in routes open. */
const maxAgeSeconds = Math.floor(constants.defaultServerSessionExpiresInMs / 1000);

/** A refresh token as the cookie may hold it (the service's are 45 base32 characters). */
const plausibleToken = /^[0-9A-Za-z]{20,100}$/;

/**
 * The cookie mode of one request; made by `refreshCookieOf` when the service
 * has it on and the request asks. Bound to a project (its cookie name, its
 * trusted domains) by the route wrapper after project authentication, or by
 * a route without it (the token endpoint) once it knows the project.
 */
export class RefreshCookie {
  readonly #request: Request;
  readonly #settings: RefreshCookieSettings;
  readonly #publicUrl: string | null;
  #projectId: string | null = null;
  #token: string | null = null;
  #standsIn = false;
  #issued: string | null = null;
  /** The request carried the name twice: every copy is expired. */
  #tossed = false;
  /** The request's cookie had the name used before `__Host-`: it goes once the new one is set. */
  #fromPlainName = false;

  /** `publicUrl`: the origin the service is reached at (`RefreshCookieNeeds`), or null for the request's. */
  constructor(request: Request, settings: RefreshCookieSettings, publicUrl: string | null) {
    this.#request = request;
    this.#settings = settings;
    this.#publicUrl = publicUrl;
  }

  /**
   * Binds the request to `project` and reads its cookie; ORIGIN_NOT_TRUSTED
   * when the request's `Origin` is neither the service's nor one the project trusts.
   */
  bind(project: Pick<ProjectRecord, 'id' | 'config'>): void {
    const origin = this.#request.headers.get('origin');
    if (origin !== null && origin !== this.#serviceOrigin() && !isTrustedUrl(origin, project.config)) {
      throw new KnownError('ORIGIN_NOT_TRUSTED');
    }
    this.#projectId = project.id;
    const name = this.#name();
    let values = readCookies(this.#request, name);
    if (values.length === 0 && name !== refreshCookieName(project.id)) {
      values = readCookies(this.#request, refreshCookieName(project.id));
      this.#fromPlainName = values.length > 0;
    }
    if (values.length > 1) {
      this.#tossed = true;
      throw new KnownError(
        'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED',
        undefined,
        'The session cookie came twice, one of them set by another site (a sibling subdomain): both were cleared. Sign in again.',
      );
    }
    const value = values[0];
    this.#token = value !== undefined && plausibleToken.test(value) ? value : null;
  }

  /** Whether a refusal `error` takes the cookie away: a refused cookie's token, or a name sent twice. */
  clearsWith(error: KnownError): boolean {
    return this.#tossed || (this.#standsIn && error.is('REFRESH_TOKEN_ERROR'));
  }

  /**
   * The refresh token the request names: `sent` (its header or form field)
   * when it sends one, else the cookie's, which then stands in for it.
   */
  refreshToken(sent: string | null): string | null {
    if (sent) return sent;
    this.#standsIn = this.#token !== null;
    return this.#token;
  }

  /** The answer `value` without its `refresh_token`, which goes into the cookie instead. */
  takeRefreshToken(value: unknown): unknown {
    if (this.#projectId === null || typeof value !== 'object' || value === null || !('refresh_token' in value)) {
      return value;
    }
    const { refresh_token: token, ...rest } = value as { refresh_token: unknown };
    if (typeof token !== 'string') return value;
    this.#issued = token;
    return rest;
  }

  /** `response` with the cookie set (a token was taken from the answer) or cleared (`clear`). */
  finish(response: Response, clear: boolean): Response {
    if (this.#projectId === null || (this.#issued === null && !clear)) return response;
    const cookies = this.#tossed
      ? this.#everyCopy()
      : [
          this.#issued === null
            ? this.#cookie(this.#name(), '', 0)
            : this.#cookie(this.#name(), this.#issued, maxAgeSeconds),
        ];
    // The cookie of the old name goes once the new one replaces it (or it is cleared).
    if (this.#fromPlainName) cookies.push(this.#cookie(refreshCookieName(this.#projectId), '', 0, plainPath));
    const finished = new Response(response.body, response);
    for (const cookie of cookies) finished.headers.append('set-cookie', cookie);
    return finished;
  }

  #secure(): boolean {
    return this.#settings.secure ?? this.#serviceOrigin().startsWith('https:');
  }

  /** `__Host-` over https unless the operator chose a path; the plain name otherwise. */
  #name(): string {
    const name = refreshCookieName(this.#projectId!);
    return this.#settings.path === null && this.#secure() ? `__Host-${name}` : name;
  }

  #path(): string {
    return this.#settings.path ?? (this.#secure() ? '/' : plainPath);
  }

  #cookie(name: string, value: string, maxAge: number, path = this.#path(), domain?: string): string {
    const attributes = `Max-Age=${maxAge}; Path=${path}${domain ? `; Domain=${domain}` : ''}`;
    return `${name}=${value}; ${attributes}; HttpOnly; SameSite=${this.#settings.sameSite}${this.#secure() ? '; Secure' : ''}`;
  }

  /**
   * Expiring cookies for every copy of the name the request could have
   * carried: each path prefix of the request's (and the configured path),
   * host-only and for this host and each parent domain (a public suffix the
   * browser ignores). A `__Host-` name is host-only at `/` by definition.
   */
  #everyCopy(): string[] {
    const name = this.#name();
    if (name.startsWith('__Host-')) return [this.#cookie(name, '', 0, '/')];
    const segments = new URL(this.#request.url).pathname.split('/').filter(Boolean);
    const paths = new Set(['/', this.#path(), ...segments.map((_, i) => `/${segments.slice(0, i + 1).join('/')}`)]);
    const host = new URL(this.#serviceOrigin()).hostname;
    const labels = host.split('.');
    const isAddress = /^[\d.]+$/.test(host) || host.includes(':') || host.startsWith('[');
    const domains = isAddress ? [] : labels.slice(0, -1).map((_, i) => labels.slice(i).join('.'));
    return [...paths].flatMap((path) => [
      this.#cookie(name, '', 0, path),
      ...domains.map((domain) => this.#cookie(name, '', 0, path, domain)),
    ]);
  }

  #serviceOrigin(): string {
    return this.#publicUrl ?? new URL(this.#request.url).origin;
  }
}

/** What the cookie mode needs of the service. */
export interface RefreshCookieNeeds {
  /** The refresh-token cookie mode's settings, or null when it is off (the default). */
  refreshCookie: RefreshCookieSettings | null;
  /** The origin the service is reached at from browsers, or null for the request's. */
  publicUrl: string | null;
}

/** The cookie mode of `request`: null unless the service has it on and the request asks for it. */
export function refreshCookieOf(request: Request, needs: RefreshCookieNeeds): RefreshCookie | null {
  if (!needs.refreshCookie || request.headers.get(refreshCookieHeader) !== '1') return null;
  return new RefreshCookie(request, needs.refreshCookie, needs.publicUrl);
}

/** The refresh token of `x-stack-refresh-token`, or null (an empty header counts as absent, decision c). */
export function sentRefreshToken(request: Request): string | null {
  return request.headers.get(headers.refreshToken) || null;
}

/** The value of the first cookie called `name` (the browser sends the most specific path first), or null. */
export function readCookie(request: Request, name: string): string | null {
  return readCookies(request, name)[0] ?? null;
}

/** The values of every cookie called `name` the request carries, in its order. */
function readCookies(request: Request, name: string): string[] {
  const values: string[] = [];
  for (const part of (request.headers.get('cookie') ?? '').split(';')) {
    const index = part.indexOf('=');
    if (index >= 0 && part.slice(0, index).trim() === name) values.push(part.slice(index + 1).trim());
  }
  return values;
}
