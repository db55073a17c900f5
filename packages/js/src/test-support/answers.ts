/** Recorded-style service answers (wire-protocol.md §3, §4). */
import { encodeKnownError, headers, KnownError, type KnownErrorCode } from '@latchkey/protocol';

/** A 2xx JSON answer. */
export function jsonAnswer(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json; charset=utf-8' } });
}

/**
 * A known-error answer. With `override` (the SDK always asks for it on API
 * calls) the status line is 200 and the real status rides in a header.
 */
export function knownErrorAnswer(error: KnownError | KnownErrorCode, override = true): Response {
  const known = typeof error === 'string' ? new KnownError(error as 'USER_NOT_FOUND') : error;
  const encoded = encodeKnownError(known);
  return new Response(JSON.stringify(encoded.body), {
    status: override ? 200 : encoded.status,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      [headers.knownError]: encoded.code,
      ...(override ? { [headers.actualStatus]: String(encoded.status) } : {}),
    },
  });
}

/** A plain (non-known) error answer. */
export function plainErrorAnswer(status: number, text: string, extra: Record<string, string> = {}, override = true) {
  return new Response(text, {
    status: override ? 200 : status,
    headers: {
      'content-type': 'text/plain; charset=utf-8',
      ...(override ? { [headers.actualStatus]: String(status) } : {}),
      ...extra,
    },
  });
}
