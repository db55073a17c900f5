/**
 * The one request pipeline: builds `<baseUrl>/api/v1<path>` with the protocol
 * headers (wire-protocol.md §1, §2), lets a credential strategy decorate each
 * attempt, sends it, decodes the answer and applies the retry rules.
 */
import { apiBasePath, headers, KnownError } from '@latchkey/protocol';
import type { FetchFunction, Timers } from '../../options.js';
import { clientVersionHeader } from '../../version.js';
import type { Credentials, PreparedCredentials } from './credentials.js';
import { randomNonce } from './nonce.js';
import { attemptOutcome, type ProcessedResponse, processApiResponse } from './process-response.js';
import { type AttemptOutcome, sendWithRetries } from './retry.js';

type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** One API call. `body: undefined` sends no body (and no content-type). */
export interface ApiRequest {
  method: HttpMethod;
  /** Path below `/api/v1`, e.g. `/users/me`. */
  path: string;
  query?: Record<string, string | undefined>;
  body?: unknown;
}

export interface PipelineOptions {
  baseUrl: string;
  projectId: string;
  fetch?: FetchFunction;
  timers?: Timers;
  random?: () => number;
  isOnline?: () => boolean;
  /** The refresh-token cookie mode (`tokenStore: 'httponly-cookie'`). */
  serviceCookie?: boolean;
}

/** Sends an API request with the given credentials; resolves with the decoded 2xx body. */
export type SendRequest = (request: ApiRequest, credentials: Credentials) => Promise<unknown>;

/**
 * `<baseUrl>/api/v1<path>?<query>`, with trailing slashes removed. A base that
 * already ends in `/api/v1` (an "API URL") is accepted as the same service.
 */
export function apiUrl(baseUrl: string, path: string, query?: ApiRequest['query']): string {
  const origin = baseUrl.replace(/\/+$/, '').replace(/\/api\/v1$/, '');
  const url = `${origin}${apiBasePath}${path}`.replace(/\/+$/, '');
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) if (value !== undefined) search.append(key, value);
  const text = search.toString();
  return text ? `${url}?${text}` : url;
}

/** The headers of one attempt: protocol headers, then the credentials', then content-type with a body. */
function requestHeaders(projectId: string, request: ApiRequest, credentials: PreparedCredentials) {
  const result: Record<string, string> = {
    [headers.overrideErrorStatus]: 'true',
    [headers.projectId]: projectId,
    [headers.clientVersion]: clientVersionHeader,
    [headers.randomNonce]: randomNonce(),
    ...credentials.headers,
  };
  if (request.body !== undefined) result['content-type'] = 'application/json';
  return result;
}

/** The fetch options of one attempt (`sendWithRetries` adds `credentials` and `cache`). */
function requestInit(request: ApiRequest, requestHeaders: Record<string, string>): RequestInit {
  const init: RequestInit = { method: request.method, headers: requestHeaders };
  if (request.body !== undefined) init.body = JSON.stringify(request.body);
  return init;
}

/** Creates the pipeline every audience sends through. */
export function createPipeline(options: PipelineOptions): SendRequest {
  return (request, credentials) => {
    const url = apiUrl(options.baseUrl, request.path, request.query);
    const prepare = async () => {
      const prepared = await credentials.prepare();
      return {
        init: requestInit(request, requestHeaders(options.projectId, request, prepared)),
        decode: async (response: Response) => outcomeOf(await processApiResponse(response, url), prepared),
      };
    };
    return sendWithRetries(prepare, { ...options, url, method: request.method });
  };
}

/** Maps a decoded answer to the retry loop; a known error the credentials can repair is retried at once. */
function outcomeOf(processed: ProcessedResponse, prepared: PreparedCredentials): AttemptOutcome<unknown> {
  return attemptOutcome(
    processed,
    (body) => body,
    (error) => {
      if (error instanceof KnownError && prepared.recover?.(error))
        return { kind: 'retry', delayMs: 0, failure: error };
      throw error;
    },
  );
}
