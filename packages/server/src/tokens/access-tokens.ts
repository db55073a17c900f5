/**
 * Access tokens (wire-protocol §5.1): ES256 JWTs signed with the project's
 * key, `{sub, branchId, iss, iat, aud, exp}`, living 10 minutes by the
 * service clock. Verification accepts only ES256 with a known `kid` whose
 * project is the token's audience. Webhook tokens (`issueWebhookToken`) are
 * made and checked here too, with the same keys and another issuer.
 */
import { accessTokenIssuer, constants } from '@latchkey/protocol';
import { decodeProtectedHeader, errors, type JWTPayload, jwtVerify, SignJWT } from 'jose';
import type { Clock } from '../common/clock.js';
import { isUuid } from '../common/ids.js';
import type { SigningKeys } from './signing-keys.js';

/** The outcome of reading an access token. */
export type AccessTokenCheck =
  | { ok: true; projectId: string; userId: string; sessionId: string | null }
  | { ok: false; reason: 'unparsable' | 'expired' };

/** The outcome of reading a webhook token. */
export type WebhookTokenCheck =
  | { ok: true; projectId: string; actorId: string | null }
  | { ok: false; reason: 'unparsable' | 'expired' };

/** The issuer of webhook tokens: not the access tokens' (`accessTokenIssuer`), which they must never pass for. */
const webhookTokenIssuer = 'urn:latchkey:webhook-token';
const webhookTokenScope = 'webhooks';
/** How long a webhook token lets its holder in. */
const webhookTokenLifetimeSeconds = 60 * 60;

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
    const verified = await this.#verifyJwt(token, accessTokenIssuer);
    if (!verified.ok) return verified;
    const { payload, projectId } = verified;
    if (typeof payload.sub !== 'string' || !isUuid(payload.sub)) return { ok: false, reason: 'unparsable' };
    const sessionId = typeof payload.sid === 'string' && isUuid(payload.sid) ? payload.sid.toLowerCase() : null;
    const result = { ok: true, projectId, userId: payload.sub.toLowerCase(), sessionId } as const;
    this.#remember(token, { result, exp: payload.exp! });
    return result;
  }

  /**
   * A webhook token for `projectId` (`POST /webhooks/svix-token`): an ES256
   * JWT signed with the project's key like an access token, but of another
   * issuer and with `scope: "webhooks"`, so that neither is ever taken for the
   * other. It names the admin who asked (`sub`, when known) and lives an hour.
   */
  async issueWebhookToken(projectId: string, actorId: string | null): Promise<string> {
    const { kid, privateKey } = await this.keys.signingKey(projectId);
    const issuedAt = Math.floor(this.clock.now() / 1000);
    const jwt = new SignJWT({ scope: webhookTokenScope })
      .setProtectedHeader({ alg: 'ES256', kid })
      .setIssuer(webhookTokenIssuer)
      .setIssuedAt(issuedAt)
      .setAudience(projectId)
      .setExpirationTime(issuedAt + webhookTokenLifetimeSeconds);
    if (actorId !== null) jwt.setSubject(actorId);
    return jwt.sign(privateKey);
  }

  /** Checks a webhook token as `check` does an access token: its project, and the admin who asked for it. */
  async checkWebhookToken(token: string): Promise<WebhookTokenCheck> {
    const verified = await this.#verifyJwt(token, webhookTokenIssuer);
    if (!verified.ok) return verified;
    const { payload, projectId } = verified;
    if (payload.scope !== webhookTokenScope) return { ok: false, reason: 'unparsable' };
    return { ok: true, projectId, actorId: typeof payload.sub === 'string' ? payload.sub : null };
  }

  /** Verifies an ES256 JWT of `issuer` signed by a project's key whose audience is that project. */
  async #verifyJwt(
    token: string,
    issuer: string,
  ): Promise<{ ok: true; payload: JWTPayload; projectId: string } | { ok: false; reason: 'unparsable' | 'expired' }> {
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
        issuer,
        audience: key.projectId,
        requiredClaims: issuer === accessTokenIssuer ? ['sub', 'exp', 'iat'] : ['exp', 'iat'],
        currentDate: new Date(this.clock.now()),
      });
      return { ok: true, payload, projectId: key.projectId };
    } catch (error) {
      return error instanceof errors.JWTExpired ? { ok: false, reason: 'expired' } : unparsable;
    }
  }
}
