/** CORS for `/api/*` (wire-protocol §3): any origin, the protocol's headers, preflight answered for any path. */
import { corsAllowedHeaders, corsExposedHeaders } from '@latchkey/protocol';

export const corsHeaders: Readonly<Record<string, string>> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
  'access-control-allow-headers': corsAllowedHeaders.join(', '),
  'access-control-expose-headers': corsExposedHeaders.join(', '),
  'access-control-max-age': '86400',
};

/** True for paths that get CORS headers. */
export function isApiPath(pathname: string): boolean {
  return pathname === '/api' || pathname.startsWith('/api/');
}
