/** Hand-made access tokens for negative tests: forged, `alg: none`, foreign keys. */
import { accessTokenIssuer } from '@latchkey/protocol';
import { generateKeyPair, SignJWT } from 'jose';

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/** The claims of a genuine-looking token for `userId` in `projectId`. */
export function claimsFor(projectId: string, userId: string, nowMs = Date.now()) {
  const iat = Math.floor(nowMs / 1000);
  return { sub: userId, branchId: 'main', iss: accessTokenIssuer, iat, aud: projectId, exp: iat + 600 };
}

/** Signed with a fresh key the service never saw, under the given `kid`. */
export async function forgedToken(claims: Record<string, unknown>, kid: string): Promise<string> {
  const { privateKey } = await generateKeyPair('ES256');
  return new SignJWT(claims).setProtectedHeader({ alg: 'ES256', kid }).sign(privateKey);
}

/** An unsigned token (`alg: none`). */
export function unsignedToken(claims: Record<string, unknown>, kid: string): string {
  return `${b64({ alg: 'none', kid })}.${b64(claims)}.`;
}

/** An HS256 token whose secret is the public JWK text (the classic algorithm-confusion attack). */
export async function hmacToken(claims: Record<string, unknown>, kid: string, secret: string): Promise<string> {
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', kid }).sign(new TextEncoder().encode(secret));
}

/** The `kid` of a token. */
export function kidOf(token: string): string {
  return JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()).kid;
}

/** Replaces a claim of a token without re-signing (breaks the signature). */
export function tamper(token: string, change: Record<string, unknown>): string {
  const [header, payload, signature] = token.split('.');
  const claims = { ...JSON.parse(Buffer.from(payload!, 'base64url').toString()), ...change };
  return `${header}.${b64(claims)}.${signature}`;
}
