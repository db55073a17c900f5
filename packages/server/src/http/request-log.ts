/**
 * Every answer leaves through `finishResponse`: request id, `cache-control`,
 * CORS on `/api/*`, the status override, and one log line. The log line holds
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
 */
export function defaultLogger(destination?: DestinationStream): Logger {
  const options = { formatters: { level: (label: string) => ({ level: label }) } };
  return destination ? pino(options, destination) : pino(options);
}

export function finishResponse(
  request: Request,
  response: Response,
  record: RequestRecord,
  logger: Logger | null,
): Response {
  const pathname = new URL(request.url).pathname;
  const finished = new Headers(response.headers);
  finished.set(headers.requestId, record.requestId);
  finished.set('cache-control', 'no-store, max-age=0');
  if (isApiPath(pathname)) for (const [name, value] of Object.entries(corsHeaders)) finished.set(name, value);
  const answer = applyStatusOverride(
    request,
    new Response(response.body, { status: response.status, statusText: response.statusText, headers: finished }),
  );
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
