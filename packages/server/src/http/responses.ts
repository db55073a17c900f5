/** Building answers: known errors as JSON with their code header, plain text, JSON, and the status override. */
import { encodeKnownError, headers, type KnownError } from '@latchkey/protocol';

const jsonType = 'application/json; charset=utf-8';
const textType = 'text/plain; charset=utf-8';

/** The answer for a known error (wire-protocol §4.1), before any status override. */
export function knownErrorResponse(error: KnownError): Response {
  const { status, code, body } = encodeKnownError(error);
  return new Response(JSON.stringify(body), {
    status,
    headers: { 'content-type': jsonType, [headers.knownError]: code },
  });
}

/** The statuses of plain status errors (`StatusRefusal`). */
export type RefusalStatus = 400 | 403 | 404;

/**
 * A refusal the original backend answers as a plain status error, not a known
 * error: `text/plain` with the message as body and no `x-stack-known-error`
 * (wire-protocol §4.2). Only where the original backend does exactly that,
 * e.g. a duplicate contact channel; everything else is a known error. A
 * route declares the statuses it answers so (`refusals`).
 */
export class StatusRefusal extends Error {
  constructor(
    readonly status: RefusalStatus,
    message: string,
  ) {
    super(message);
    this.name = 'StatusRefusal';
  }
}

/** A plain-text answer (unknown routes, internal errors; wire-protocol §4.2). */
export function textResponse(status: number, text: string): Response {
  return new Response(text, { status, headers: { 'content-type': textType } });
}

/** 429 with `Retry-After` in whole seconds (wire-protocol §4.3: the SDKs wait that long and retry). */
export function rateLimitedResponse(retryAfterMs: number): Response {
  const response = textResponse(429, 'Too many requests; try again later.');
  response.headers.set('retry-after', String(Math.max(1, Math.ceil(retryAfterMs / 1000))));
  return response;
}

/** A JSON answer with the protocol's content type. */
export function jsonResponse(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': jsonType } });
}

/**
 * When the request asked for it (`x-stack-override-error-status: true`) and
 * the status is 4xx/5xx, answer 200 and move the status to `x-stack-actual-status`.
 */
export function applyStatusOverride(request: Request, response: Response): Response {
  if (request.headers.get(headers.overrideErrorStatus) !== 'true' || response.status < 400) return response;
  const moved = new Headers(response.headers);
  moved.set(headers.actualStatus, String(response.status));
  return new Response(response.body, { status: 200, headers: moved });
}
