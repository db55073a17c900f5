/** What the SDK handed to `fetch`, parsed for assertions (JSON or form bodies). */

export interface RecordedRequest {
  method: string;
  url: string;
  path: string;
  query: Record<string, string>;
  headers: Record<string, string>;
  contentType: string | null;
  body: unknown;
}

/** Parses what the SDK handed to `fetch`. */
export function recordRequest(input: string, init: RequestInit = {}): RecordedRequest {
  const url = new URL(input);
  const requestHeaders = Object.fromEntries(new Headers(init.headers).entries());
  const contentType = requestHeaders['content-type'] ?? null;
  const raw = typeof init.body === 'string' ? init.body : null;
  let body: unknown = null;
  if (raw !== null)
    body = contentType?.startsWith('application/json') ? JSON.parse(raw) : Object.fromEntries(new URLSearchParams(raw));
  return {
    method: init.method ?? 'GET',
    url: input,
    path: url.pathname,
    query: Object.fromEntries(url.searchParams.entries()),
    headers: requestHeaders,
    contentType,
    body,
  };
}
