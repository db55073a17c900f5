/**
 * Local verification of access tokens (DESIGN.md, wire-protocol.md §5.1) for
 * server code: the signature against the project's public keys
 * (`GET /projects/{id}/.well-known/jwks.json`, cached 300 s), the algorithm
 * (ES256), issuer, audience (the project) and expiry (30 s of clock
 * tolerance). No call per token once the keys are cached; a token signed
 * with a key the cache does not know refetches the keys, at most once a
 * minute, so a rotated key is picked up and random key ids cost nothing.
 */
import { accessTokenIssuer, clockToleranceSeconds, keySetCacheSeconds } from '@latchkey/protocol';
import type { Clock } from '../../options.js';
import type { Send } from '../core.js';
import { type Fields, optionalString, readFields } from '../decode/fields.js';
import { base64UrlBytes, decodeJwtPart, decodeJwtPayload } from './jwt.js';

/** Who an access token that verified belongs to. */
export interface VerifiedAccessToken {
  userId: string;
  /** `exp` in epoch ms; `null` for a token without one. */
  expiresAt: number | null;
}

/** Verifies one access token: its claims when valid, `null` otherwise (forged, expired, another project's). */
export type AccessTokenVerifier = (token: string) => Promise<VerifiedAccessToken | null>;

/** A public key of the JWKS, as the verifier reads it (RFC 7517 names). */
interface JwkWire {
  kid: string;
  kty: string;
  crv?: string;
  x?: string;
  y?: string;
}

interface KeySet {
  fetchedAt: number;
  keys: Map<string, Promise<CryptoKey | null>>;
}

const refetchForUnknownKeyMs = 60_000;

/** A verifier for the tokens of `projectId`; `send` reaches the service (the JWKS needs no credentials). */
export function createAccessTokenVerifier(projectId: string, send: Send, clock: Clock): AccessTokenVerifier {
  let keySet: Promise<KeySet> | null = null;
  const path = `/projects/${encodeURIComponent(projectId)}/.well-known/jwks.json`;
  const fetchKeys = (): Promise<KeySet> => {
    const fetchedAt = clock.now();
    const loading = send({ method: 'GET', path }, decodeJwks).then((jwks) => ({
      fetchedAt,
      keys: new Map(jwks.map((jwk) => [jwk.kid, importKey(jwk)])),
    }));
    loading.catch(() => {
      if (keySet === loading) keySet = null; // a failed fetch is retried by the next token
    });
    keySet = loading;
    return loading;
  };
  const keyFor = async (kid: string): Promise<CryptoKey | null> => {
    let current = await (keySet ?? fetchKeys());
    const age = clock.now() - current.fetchedAt;
    if (age > keySetCacheSeconds * 1000 || (!current.keys.has(kid) && age > refetchForUnknownKeyMs)) {
      current = await fetchKeys();
    }
    return (await current.keys.get(kid)) ?? null;
  };
  return async (token) => {
    const parts = token.split('.');
    const header = parts.length === 3 ? decodeJwtPart(parts[0]!) : null;
    if (header?.alg !== 'ES256' || typeof header.kid !== 'string') return null;
    const key = await keyFor(header.kid);
    if (!key || !(await signatureMatches(key, parts))) return null;
    return checkClaims(decodeJwtPayload(token), projectId, clock.now());
  };
}

/** The claims of a token whose signature matched: issuer, audience, subject, expiry. */
export function checkClaims(
  claims: Record<string, unknown> | null,
  projectId: string,
  now: number,
): VerifiedAccessToken | null {
  if (!claims || claims.iss !== accessTokenIssuer) return null;
  const audience = claims.aud ?? claims.projectId;
  const audiences = Array.isArray(audience) ? audience : [audience];
  if (!audiences.includes(projectId)) return null;
  if (typeof claims.sub !== 'string' || claims.sub === '') return null;
  if (claims.exp !== undefined && typeof claims.exp !== 'number') return null;
  const expiresAt = typeof claims.exp === 'number' ? claims.exp * 1000 : null;
  if (expiresAt !== null && expiresAt + clockToleranceSeconds * 1000 <= now) return null;
  return { userId: claims.sub, expiresAt };
}

/** Decodes `GET /projects/{id}/.well-known/jwks.json`. */
export function decodeJwks(body: unknown): JwkWire[] {
  return readFields<{ keys: JwkWire[] }, JwkWire[]>(body, (jwks) => jwks.list('keys', readJwk));
}

function readJwk(jwk: Fields<JwkWire>): JwkWire {
  return {
    kid: jwk.string('kid'),
    kty: jwk.string('kty'),
    crv: optionalString(jwk, 'crv'),
    x: optionalString(jwk, 'x'),
    y: optionalString(jwk, 'y'),
  };
}

/** The P-256 public key of `jwk`; `null` for a key of another kind, which no ES256 token can use. */
async function importKey(jwk: JwkWire): Promise<CryptoKey | null> {
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256' || !jwk.x || !jwk.y) return null;
  const publicJwk = { kty: 'EC', crv: 'P-256', x: jwk.x, y: jwk.y };
  try {
    return await crypto.subtle.importKey('jwk', publicJwk, { name: 'ECDSA', namedCurve: 'P-256' }, false, ['verify']);
  } catch {
    return null;
  }
}

/** ES256: ECDSA P-256 with SHA-256 over `header.payload`, the signature as raw r‖s (RFC 7518 §3.4). */
async function signatureMatches(key: CryptoKey, [header, payload, signature]: string[]): Promise<boolean> {
  let bytes: Uint8Array<ArrayBuffer>;
  try {
    bytes = base64UrlBytes(signature!);
  } catch {
    return false;
  }
  if (bytes.length !== 64) return false;
  const signed = new TextEncoder().encode(`${header}.${payload}`);
  return crypto.subtle.verify({ name: 'ECDSA', hash: 'SHA-256' }, key, bytes, signed);
}
