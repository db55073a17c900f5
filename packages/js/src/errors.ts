/**
 * Errors the SDK raises itself when the service cannot be reached or answers
 * outside the protocol. Everything the service reports on purpose is a
 * `KnownError` from `@latchkey/protocol` instead.
 */
import { clientMessages } from '@latchkey/protocol';

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
  constructor(
    readonly url: string,
    readonly offline: boolean,
    options?: { cause?: unknown },
  ) {
    super(offline ? clientMessages.offline : clientMessages.connectivity(url), options);
  }
}

/**
 * The service answered, but not with a usable answer: a non-2xx status that is
 * not a known error, or a body the protocol does not allow.
 *
 * @example
 * ```ts
 * catch (e) { if (e instanceof HttpError) console.error(e.status, e.body); }
 * ```
 */
export class HttpError extends Error {
  override readonly name = 'HttpError';
  constructor(
    readonly url: string,
    readonly status: number,
    readonly body: string,
    message = `Failed to send request to ${url}: ${status} ${body}`,
  ) {
    super(message);
  }
}
