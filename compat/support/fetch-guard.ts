/**
 * A `globalThis.fetch` wrapper for tests that run the official SDK.
 *
 * - Requests to any host other than loopback fail at once with a `TypeError`
 *   (what a network failure looks like to the SDK) and are recorded in
 *   `blocked`. After five failed attempts the SDK runs "network diagnostics"
 *   that fetch public hosts (wire-protocol §4.3); those must never leave the
 *   machine nor make a failing test wait on the internet.
 * - Loopback requests go through and are recorded in `requests` with what the
 *   SDK saw: the real status (`x-stack-actual-status` when present), the
 *   known-error code and body, and the token endpoint's grant type and answer.
 *
 * The SDK looks `fetch` up on the global object at call time (its own
 * requests and oauth4webapi's), so replacing `globalThis.fetch` sees all of them.
 */

/** One request that reached the service. */
interface RecordedRequest {
  method: string;
  /** Path below `/api/v1` (e.g. `/users/me`), or the full path for other URLs. */
  path: string;
  url: string;
  /** Headers the SDK sent, lower-cased names. */
  headers: Record<string, string>;
  /** `grant_type` of a form-encoded body (token endpoint). */
  grantType?: string;
  /** HTTP status line. */
  httpStatus: number;
  /** The status the SDK acts on: `x-stack-actual-status` when sent, else the HTTP status. */
  status: number;
  /** `x-stack-known-error`, if any. */
  knownError?: string;
  /** Parsed JSON body of known errors and of token-endpoint answers. */
  body?: unknown;
}

export interface FetchGuard {
  /** Requests that reached a loopback host since the last `reset()`, in order. */
  readonly requests: RecordedRequest[];
  /** Every request that reached a loopback host, never reset. */
  readonly history: RecordedRequest[];
  /** URLs of refused non-loopback requests, in order. */
  readonly blocked: string[];
  /** `method path` of every recorded request since the last `reset()`. */
  trail(): string[];
  /**
   * Changes the SDK's loopback requests before they are sent (null: none), for
   * a test that shows what the SDK does with an answer only another request
   * gets. `reset()` removes it.
   */
  rewrite(change: ((request: Request) => Promise<Request>) | null): void;
  /** Forgets recorded requests (not blocked ones) and removes the rewrite. */
  reset(): void;
  /** Puts the previous `fetch` back. */
  restore(): void;
}

const loopbackHosts = new Set(['127.0.0.1', 'localhost', '[::1]']);

export function guardFetch(): FetchGuard {
  const original = globalThis.fetch;
  const requests: RecordedRequest[] = [];
  const history: RecordedRequest[] = [];
  const blocked: string[] = [];
  let rewrite: ((request: Request) => Promise<Request>) | null = null;

  const guarded: typeof fetch = async (input, init) => {
    let request = new Request(input, init);
    const url = new URL(request.url);
    if (!loopbackHosts.has(url.hostname)) {
      blocked.push(request.url);
      throw new TypeError(`compat tests: fetch to ${url.origin} blocked (only loopback is allowed)`);
    }
    if (rewrite) request = await rewrite(request);
    const grantType = await formField(request, 'grant_type');
    const response = await original(request);
    const actual = response.headers.get('x-stack-actual-status');
    const knownError = response.headers.get('x-stack-known-error') ?? undefined;
    const path = url.pathname.startsWith('/api/v1/') ? url.pathname.slice('/api/v1'.length) : url.pathname;
    const wantsBody = knownError !== undefined || path === '/auth/oauth/token';
    const record: RecordedRequest = {
      method: request.method,
      path,
      url: request.url,
      headers: Object.fromEntries(request.headers),
      ...(grantType ? { grantType } : {}),
      httpStatus: response.status,
      status: actual ? Number(actual) : response.status,
      ...(knownError ? { knownError } : {}),
      ...(wantsBody ? { body: await response.clone().json() } : {}),
    };
    requests.push(record);
    history.push(record);
    return response;
  };

  globalThis.fetch = guarded;
  return {
    requests,
    history,
    blocked,
    trail: () => requests.map((r) => `${r.method} ${r.path}${r.knownError ? ` -> ${r.knownError}` : ''}`),
    rewrite: (change) => {
      rewrite = change;
    },
    reset: () => {
      requests.length = 0;
      rewrite = null;
    },
    restore: () => {
      if (globalThis.fetch === guarded) globalThis.fetch = original;
    },
  };
}

async function formField(request: Request, name: string): Promise<string | undefined> {
  const type = request.headers.get('content-type') ?? '';
  if (!type.startsWith('application/x-www-form-urlencoded')) return undefined;
  return new URLSearchParams(await request.clone().text()).get(name) ?? undefined;
}
