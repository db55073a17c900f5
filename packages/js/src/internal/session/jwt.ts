/**
 * Local reading of an access token's expiry (wire-protocol.md §5.1): the
 * payload is decoded, the signature is not checked (the service does that).
 */

/** The `exp` claim in epoch milliseconds; `null` when the token has none (never expires). */
export function accessTokenExpiresAt(token: string): number | null {
  const payload = decodeJwtPayload(token);
  const exp = payload?.exp;
  return typeof exp === 'number' ? exp * 1000 : null;
}

/** Milliseconds of validity left at `now`; `Infinity` for a token without `exp`. */
export function remainingValidityMs(token: string, now: number): number {
  const expiresAt = accessTokenExpiresAt(token);
  return expiresAt === null ? Number.POSITIVE_INFINITY : expiresAt - now;
}

/** The JSON payload of a compact JWS, or `null` when it cannot be read. */
export function decodeJwtPayload(token: string): Record<string, unknown> | null {
  const part = token.split('.')[1];
  return part ? decodeJwtPart(part) : null;
}

/** A base64url-encoded JSON object of a compact JWS (its header or payload), or `null` when it cannot be read. */
export function decodeJwtPart(part: string): Record<string, unknown> | null {
  try {
    const parsed: unknown = JSON.parse(new TextDecoder().decode(base64UrlBytes(part)));
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/** The bytes of base64url `text` (padding optional); throws on characters outside the alphabet. */
export function base64UrlBytes(text: string): Uint8Array<ArrayBuffer> {
  const base64 = text
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(text.length / 4) * 4, '=');
  return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
}
