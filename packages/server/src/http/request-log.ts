/**
 * Every answer leaves through `finishResponse`: request id, `cache-control`,
 * `x-content-type-options: nosniff`, CORS on `/api/*`, the status override,
 * and one log line. The log line holds
 * the method, path (no query), status, duration and known-error code; never
 * headers, bodies, tokens, keys or passwords.
 */
import { headers } from '@latchkey/protocol';
import pino, { type DestinationStream, type Logger } from 'pino';
import { corsHeaders, isApiPath } from './cors.js';
import type { RequestRecord } from './env.js';
import { applyStatusOverride } from './responses.js';

/**
 * The service's logger when none is given: JSON lines with levels by name
 * (`"level":"info"`), as the CLI writes them, to stdout or `destination`.
 * Stdout is written asynchronously: a synchronous write per request line cost
 * 3–5 % of a request; what is pending is flushed when the process exits.
 */
export function defaultLogger(destination?: DestinationStream): Logger {
  const options = { formatters: { level: (label: string) => ({ level: label }) } };
  return pino(options, destination ?? pino.destination({ dest: 1, sync: false }));
}

export function finishResponse(
  request: Request,
  response: Response,
  record: RequestRecord,
  logger: Logger | null,
): Response {
  const pathname = new URL(request.url).pathname;
  // The route's own answer takes the headers as it is: rebuilding it cost a stream, a separate header write
  // and a chunked body per request. An answer with immutable headers (a fetched one) is copied.
  let answer = response;
  try {
    addFinishingHeaders(answer.headers, pathname, record);
  } catch {
    const copied = new Headers(response.headers);
    addFinishingHeaders(copied, pathname, record);
    answer = new Response(response.body, { status: response.status, statusText: response.statusText, headers: copied });
  }
  answer = applyStatusOverride(request, answer);
  logger?.info(
    {
      reqId: record.requestId,
      method: request.method,
      path: pathname,
      status: response.status,
      ms: Math.round((performance.now() - record.startedAt) * 10) / 10,
      ...(record.errorCode ? { error: record.errorCode } : {}),
    },
    'request',
  );
  return answer;
}

function addFinishingHeaders(target: Headers, pathname: string, record: RequestRecord): void {
  target.set(headers.requestId, record.requestId);
  // The dashboard's hashed assets may be cached (they say so); nothing else the service answers may.
  if (!(pathname.startsWith('/dashboard/assets/') && target.has('cache-control'))) {
    target.set('cache-control', 'no-store, max-age=0');
  }
  // Every answer, in this one place: a browser never guesses another type (a JSON or text answer run as HTML).
  target.set('x-content-type-options', 'nosniff');
  if (isApiPath(pathname)) for (const [name, value] of Object.entries(corsHeaders)) target.set(name, value);
}
