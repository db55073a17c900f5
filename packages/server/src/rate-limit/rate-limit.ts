/**
 * Rate limits for endpoints that cost someone else something (a mail in an
 * inbox, a guess at a code). Counted in the database, in fixed windows, so
 * every instance sharing it enforces the same limit. Over the limit, the
 * request is answered 429 with `Retry-After` (wire-protocol §4.3: the SDKs
 * wait and retry), before anything is written.
 */
import type { Db } from '../storage/db.js';
import { countHit } from './rate-limit-store.js';

/** A limit: at most `limit` hits per `windowMs`. */
export interface RateLimit {
  limit: number;
  windowMs: number;
}

/** Thrown when a limit is exceeded; the service answers 429 with `Retry-After`. */
export class RateLimitExceeded extends Error {
  override readonly name = 'RateLimitExceeded';
  constructor(readonly retryAfterMs: number) {
    super('Too many requests; try again later.');
  }
}

/**
 * Counts a hit of `key` (e.g. `reset:<project>:<email>`) and throws
 * `RateLimitExceeded` once it is over `limit`. Call it with the database, not
 * in the transaction of the work it guards (a refused request still counts).
 */
export async function enforceRateLimit(db: Db, key: string, rule: RateLimit, now: number): Promise<void> {
  const windowStart = now - (now % rule.windowMs);
  const hits = await countHit(db, key, windowStart);
  if (hits > rule.limit) throw new RateLimitExceeded(windowStart + rule.windowMs - now);
}
