/**
 * Access tokens (wire-protocol §5.1): ES256 JWTs signed with the project's
 * key, `{sub, branchId, iss, iat, aud, exp}`, living 10 minutes by the
 * service clock. Verification accepts only ES256 with a known `kid` whose
 * project is the token's audience.
 */
import { accessTokenIssuer, constants } from '@latchkey/protocol';
import { decodeProtectedHeader, errors, jwtVerify, SignJWT } from 'jose';
import { isUuid } from '../common/ids.js';
import type { Clock } from '../http/env.js';
import type { SigningKeys } from './signing-keys.js';

/** The outcome of reading an access token. */
export type AccessTokenCheck =
  | { ok: true; projectId: string; userId: string; sessionId: string | null }
  | { ok: false; reason: 'unparsable' | 'expired' };

const kidPattern = /^[A-Za-z0-9_-]{12}$/;

export class AccessTokens {
  constructor(
    private readonly keys: SigningKeys,
    private readonly clock: Clock,
  ) {}

  /**
   * A new access token for `userId` in `projectId`, naming its session
   * (`sid`) so that it stops working when the session is revoked.
   */
  async issue(projectId: string, userId: string, sessionId: string): Promise<string> {
    const { kid, privateKey } = await this.keys.signingKey(projectId);
    const issuedAt = Math.floor(this.clock.now() / 1000);
    return new SignJWT({ branchId: 'main', sid: sessionId })
      .setProtectedHeader({ alg: 'ES256', kid })
      .setSubject(userId)
      .setIssuer(accessTokenIssuer)
      .setIssuedAt(issuedAt)
      .setAudience(projectId)
      .setExpirationTime(issuedAt + constants.accessTokenLifetimeSeconds)
      .sign(privateKey);
  }

  /** Checks signature, algorithm, issuer, audience and expiry (signature first). */
  async check(token: string): Promise<AccessTokenCheck> {
    const unparsable = { ok: false, reason: 'unparsable' } as const;
    let kid: unknown;
    try {
      const header = decodeProtectedHeader(token);
      if (header.alg !== 'ES256') return unparsable;
      kid = header.kid;
    } catch {
      return unparsable;
    }
    if (typeof kid !== 'string' || !kidPattern.test(kid)) return unparsable;
    const key = await this.keys.verificationKey(kid);
    if (!key) return unparsable;
    try {
      const { payload } = await jwtVerify(token, key.publicKey, {
        algorithms: ['ES256'],
        issuer: accessTokenIssuer,
        audience: key.projectId,
        requiredClaims: ['sub', 'exp', 'iat'],
        currentDate: new Date(this.clock.now()),
      });
      if (typeof payload.sub !== 'string' || !isUuid(payload.sub)) return unparsable;
      const sessionId = typeof payload.sid === 'string' && isUuid(payload.sid) ? payload.sid.toLowerCase() : null;
      return { ok: true, projectId: key.projectId, userId: payload.sub.toLowerCase(), sessionId };
    } catch (error) {
      return error instanceof errors.JWTExpired ? { ok: false, reason: 'expired' } : unparsable;
    }
  }
}
