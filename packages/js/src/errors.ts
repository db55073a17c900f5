/**
 * Errors the SDK raises itself: the service could not be reached, answered
 * outside the protocol, kept refusing for too many requests, or sent an answer
 * without the fields the SDK reads. Everything the service reports on purpose
 * is a `KnownError` from `@latchkey/protocol` instead. Each class has a stable
 * `code` (never a catalogue code) and carries its own English message (the
 * words of `clientMessages`, which UIs may reword), so the SDK's bundle needs
 * no wording table.
 */

/**
 * The service could not be reached: network failure, offline, or still failing
 * after every retry. `cause` holds the last failure.
 *
 * @example
 * ```ts
 * try { await app.getProject(); }
 * catch (e) { if (e instanceof ConnectivityError && e.offline) showOfflineBanner(); }
 * ```
 */
export class ConnectivityError extends Error {
  override readonly name = 'ConnectivityError';
  readonly code = 'CONNECTIVITY_ERROR';
  constructor(
    readonly url: string,
    readonly offline: boolean,
    options?: { cause?: unknown },
  ) {
    const offlineText = 'You appear to be offline. Check your connection and try again.';
    super(offline ? offlineText : `Could not reach the Latchkey service at ${url}.`, options);
  }
}

/**
 * The service answered, but not with a usable answer: a non-2xx status that is
 * not a known error (a 508 loop that outlasted the retries included), or a body
 * that is not valid JSON.
 *
 * @example
 * ```ts
 * catch (e) { if (e instanceof HttpError) console.error(e.status, e.body); }
 * ```
 */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  readonly code = 'HTTP_ERROR';
  constructor(
    readonly url: string,
    readonly status: number,
    readonly body: string,
    message = `Failed to send request to ${url}: ${status} ${body}`,
  ) {
    super(message);
  }
}

/**
 * The service still answered 429 (too many requests) after every retry.
 * `retryAfterMs` is its last `Retry-After`, or `null` when it gave none.
 *
 * @example
 * ```ts
 * catch (e) { if (e instanceof RateLimitedError) setTimeout(retry, e.retryAfterMs ?? 60_000); }
 * // e.message: 'The Latchkey service rate limited this request; retry after 30 s.'
 * ```
 */
export class RateLimitedError extends Error {
  override readonly name = 'RateLimitedError';
  readonly code = 'RATE_LIMITED';
  constructor(
    readonly url: string,
    readonly retryAfterMs: number | null,
  ) {
    const when = retryAfterMs === null ? 'later' : `after ${retryAfterMs / 1000} s`;
    super(`The Latchkey service rate limited this request; retry ${when}.`);
  }
}

/**
 * A successful answer without a field the SDK reads, or with a field of the
 * wrong type: the service does not speak the protocol (wire-protocol.md §15).
 * `call` is `METHOD /path`; `field` the path inside the body (`selected_team.id`).
 *
 * @example
 * ```ts
 * catch (e) { if (e instanceof MalformedAnswerError) report(e.call, e.field, e.problem); }
 * // e.message: "The service's answer to GET /users/me is malformed: client_metadata is missing"
 * ```
 */
export class MalformedAnswerError extends Error {
  override readonly name = 'MalformedAnswerError';
  readonly code = 'MALFORMED_ANSWER';
  constructor(
    /** `METHOD /path` of the request, or `null` when the answer was decoded on its own. */
    readonly call: string | null,
    /** Where in the body, e.g. `oauth_providers[0].id`; `''` for the body itself. */
    readonly field: string,
    /** What is wrong, e.g. `is missing`, `must be a string or null`. */
    readonly problem: string,
    options?: { cause?: unknown },
  ) {
    super(`The service's answer${call ? ` to ${call}` : ''} is malformed: ${field || 'the body'} ${problem}`, options);
  }
}
