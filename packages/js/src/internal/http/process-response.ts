/**
 * Pure decoding of an API answer (wire-protocol.md §3, §4.1): no I/O beyond
 * reading the given `Response`, so it is tested with recorded answers.
 */
import { decodeKnownError, headers, type KnownError, type UnknownKnownErrorCode } from '@latchkey/protocol';
import { HttpError } from '../../errors.js';

/** What an answer means to the request pipeline. */
export type ProcessedResponse =
  | { kind: 'ok'; status: number; body: unknown }
  | { kind: 'known-error'; error: KnownError | UnknownKnownErrorCode }
  | { kind: 'rate-limited'; retryAfterMs: number | null; error: HttpError }
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
    return { kind: 'rate-limited', retryAfterMs, error: new HttpError(url, status, text) };
  }
  if (status === 508 && text.includes(loopMarker))
    return { kind: 'loop-detected', error: new HttpError(url, status, text) };
  if (status < 200 || status > 299) return { kind: 'http-error', error: new HttpError(url, status, text) };
  const body = parseBody(response, text, url, status);
  return body instanceof HttpError ? { kind: 'http-error', error: body } : { kind: 'ok', status, body };
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

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
