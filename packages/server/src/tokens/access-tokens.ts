/**
 * Access tokens (wire-protocol §5.1): ES256 JWTs signed with the project's
 * key, `{sub, branchId, iss, iat, aud, exp}`, living 10 minutes by the
 * service clock. Verification accepts only ES256 with a known `kid` whose
 * project is the token's audience.
 */
import { accessTokenIssuer, constants } from '@latchkey/protocol';
import { decodeProtectedHeader, errors, jwtVerify, SignJWT } from 'jose';
import type { Clock } from '../common/clock.js';
import { isUuid } from '../common/ids.js';
import type { SigningKeys } from './signing-keys.js';

/** The outcome of reading an access token. */
export type AccessTokenCheck =
  | { ok: true; projectId: string; userId: string; sessionId: string | null }
  | { ok: false; reason: 'unparsable' | 'expired' };

const kidPattern = /^[A-Za-z0-9_-]{12}$/;

/** A token that verified: what it says, and when it expires (epoch seconds, its `exp`). */
interface Verified {
  result: AccessTokenCheck & { ok: true };
  exp: number;
}

/**
 * How many verified tokens are remembered (about 10,000 × 1 KB at most); past
 * it the oldest go first.
 */
const verifiedTokenCacheSize = 10_000;

export class AccessTokens {
  /**
   * Tokens already verified, until their `exp`: a client sends the same token
   * with every request for ten minutes, and ES256 verification (a job on the
   * libuv pool, where it also queues behind password hashing) was the largest
   * cost of `GET /users/me`. The key is the whole token, so a hit
   * is the very bytes that verified; signing keys are never withdrawn, and
   * the session's revocation is checked per request by the caller, not here.
   */
  readonly #verified = new Map<string, Verified>();

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

  /** Checks signature, algorithm, issuer, audience and expiry (signature first), once per token. */
  async check(token: string): Promise<AccessTokenCheck> {
    const known = this.#verified.get(token);
    if (known) {
      // As jose decides: expired once `exp` is not after the current second.
      if (known.exp > Math.floor(this.clock.now() / 1000)) return known.result;
      this.#verified.delete(token);
      return { ok: false, reason: 'expired' };
    }
    return this.#verify(token);
  }

  #remember(token: string, verified: Verified): void {
    if (this.#verified.size >= verifiedTokenCacheSize) {
      // Map order is insertion order: the first key is the oldest.
      this.#verified.delete(this.#verified.keys().next().value!);
    }
    this.#verified.set(token, verified);
  }

  async #verify(token: string): Promise<AccessTokenCheck> {
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
      const result = { ok: true, projectId: key.projectId, userId: payload.sub.toLowerCase(), sessionId } as const;
      this.#remember(token, { result, exp: payload.exp! });
      return result;
    } catch (error) {
      return error instanceof errors.JWTExpired ? { ok: false, reason: 'expired' } : unparsable;
    }
  }
}
