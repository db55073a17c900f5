/**
 * Which failures mean "the database is not answering now" rather than a bug:
 * a timeout (statement, lock, connecting, the client's own), a connection
 * lost or refused, a server shutting down or out of connections. The service
 * answers those 503 with `Retry-After`, so clients wait and retry instead of
 * hanging or seeing a 500.
 */

/** SQLSTATEs of a database that is busy, going away or unreachable. */
const unavailableStates = new Set([
  '57014', // query_canceled: statement_timeout
  '55P03', // lock_not_available: lock_timeout
  '25P03', // idle_in_transaction_session_timeout
  '53300', // too_many_connections
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down)
]);

/** Errors of the socket and of the pg client for a server that is gone or silent. */
const unavailableNodeCodes = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND']);
const unavailableMessages = [
  /timeout exceeded when trying to connect/i,
  /connection terminated/i,
  /query read timeout/i,
  /connection timeout/i,
  /client has encountered a connection error/i,
  /cannot use a pool after calling end/i,
];

/** True when `error` says the database is unavailable for now (see the module comment). */
export function isDatabaseUnavailable(error: unknown): boolean {
  if (!error || typeof error !== 'object') return false;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (
    typeof code === 'string' &&
    (unavailableStates.has(code) || code.startsWith('08') || unavailableNodeCodes.has(code))
  ) {
    return true;
  }
  const cause = (error as { cause?: unknown }).cause;
  if (typeof message === 'string' && unavailableMessages.some((pattern) => pattern.test(message))) return true;
  return cause !== undefined && cause !== error && isDatabaseUnavailable(cause);
}

/** Seconds a client should wait before retrying while the database is unavailable. */
export const unavailableRetryAfterSeconds = 2;
