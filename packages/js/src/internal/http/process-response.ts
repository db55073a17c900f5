/**
 * Pure decoding of an API answer (wire-protocol.md §3, §4.1): no I/O beyond
 * reading the given `Response`, so it is tested with recorded answers.
 */
import { decodeKnownError, headers, type KnownError, type UnknownKnownErrorCode } from '@latchkey/protocol';
import { HttpError, RateLimitedError } from '../../errors.js';
import { parseJson } from '../parse-json.js';
import type { AttemptOutcome } from './retry.js';

/** What an answer means to the request pipeline. */
export type ProcessedResponse =
  | { kind: 'ok'; status: number; body: unknown }
  | { kind: 'known-error'; error: KnownError | UnknownKnownErrorCode }
  | { kind: 'rate-limited'; retryAfterMs: number | null; error: RateLimitedError }
  | { kind: 'loop-detected'; error: HttpError }
  | { kind: 'http-error'; error: HttpError };

const loopMarker = 'INFINITE_LOOP_DETECTED';

/** The real status: `x-stack-actual-status` when the service overrode it, else the HTTP status. */
export function actualStatus(response: Response): number {
  const header = response.headers.get(headers.actualStatus);
  const parsed = header === null ? Number.NaN : Number.parseInt(header, 10);
  return Number.isInteger(parsed) ? parsed : response.status;
}

/** Decode an answer of `url` into data, a known error, or a retry / failure signal. */
export async function processApiResponse(response: Response, url: string): Promise<ProcessedResponse> {
  const status = actualStatus(response);
  const text = await response.text();
  const knownCode = response.headers.get(headers.knownError);
  if (knownCode !== null) return { kind: 'known-error', error: decodeKnownError(knownCode, status, parseJson(text)) };
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(response.headers.get('retry-after'));
    return { kind: 'rate-limited', retryAfterMs, error: new RateLimitedError(url, retryAfterMs) };
  }
  if (status === 508 && text.includes(loopMarker))
    return { kind: 'loop-detected', error: new HttpError(url, status, text) };
  if (status < 200 || status > 299) return { kind: 'http-error', error: new HttpError(url, status, text) };
  const body = parseBody(response, text, url, status);
  return body instanceof HttpError ? { kind: 'http-error', error: body } : { kind: 'ok', status, body };
}

/**
 * The retry loop's view of a decoded answer, the same for every endpoint:
 * 429 waits `Retry-After` (or retries at once), a 508 loop backs off, other
 * HTTP errors are thrown. `ok` reads the data; `knownError` decides about a
 * known error (retry, an expected value, or throw).
 */
export function attemptOutcome<T>(
  processed: ProcessedResponse,
  ok: (body: unknown) => T,
  knownError: (error: KnownError | UnknownKnownErrorCode) => AttemptOutcome<T>,
): AttemptOutcome<T> {
  switch (processed.kind) {
    case 'ok':
      return { kind: 'done', value: ok(processed.body) };
    case 'known-error':
      return knownError(processed.error);
    case 'rate-limited':
      return { kind: 'retry', delayMs: processed.retryAfterMs ?? 0, failure: processed.error };
    case 'loop-detected':
      return { kind: 'retry', delayMs: 'backoff', failure: processed.error };
    case 'http-error':
      throw processed.error;
  }
}

/** `Retry-After` in seconds, as milliseconds; `null` when absent or unreadable. */
export function parseRetryAfter(value: string | null): number | null {
  if (value === null || value.trim() === '') return null;
  const seconds = Number(value);
  return Number.isFinite(seconds) && seconds >= 0 ? seconds * 1000 : null;
}

function parseBody(response: Response, text: string, url: string, status: number): unknown {
  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('json')) return text;
  if (text === '') return null;
  const parsed = parseJson(text);
  return parsed === undefined
    ? new HttpError(url, status, text, `The service at ${url} answered with invalid JSON.`)
    : parsed;
}
