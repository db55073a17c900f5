/**
 * Immediate sign-out: the sessions revoked anywhere (sign-out, a revoked
 * session, a password change or reset, a deleted user), which every instance
 * learns from the storage's change feed within moments of the commit
 * (`revokedNotice`, sent by the statement that deletes them), kept in memory for as long as an access token
 * lives. Request authentication refuses an access token whose session (its
 * `sid`) is in the set, so a revoked session's tokens stop working at once,
 * without a database read per request. While the feed is not listening (its
 * connection lost), a revocation could be missed, so the session is read from
 * the database instead until it listens again.
 */
import { constants } from '@latchkey/protocol';
import type { Clock } from '../common/clock.js';
import type { ChangeFeed } from '../storage/change-feed.js';
import type { Db } from '../storage/db.js';
import { sessionExists } from './session-store.js';

/** How long a revoked id is kept: an access token's life, and a minute for clock skew. */
const keepMs = constants.accessTokenLifetimeSeconds * 1000 + 60_000;

/** Most revoked ids held (about 100 bytes each); see `overflowUntil`. */
const defaultMaxHeld = 100_000;

export class SessionRevocations {
  readonly #revoked = new Map<string, number>();
  readonly #maxHeld: number;
  #nextPrune = 0;
  /**
   * After more revocations than `maxHeld` within a token's life (a mass
   * sign-out), the ids are no longer held: until every one of them would have
   * been forgotten, sessions are read from the database instead, as while the
   * feed is down. Memory stays bounded; no revoked session is missed.
   */
  #overflowUntil = 0;

  constructor(private readonly options: { feed: ChangeFeed; clock: Clock; db: Db; maxHeld?: number }) {
    this.#maxHeld = options.maxHeld ?? defaultMaxHeld;
    options.feed.subscribe((event) => {
      if (event.type === 'revoked') this.add(event.sessionIds);
    });
  }

  /** Notes sessions as revoked on this instance. */
  add(sessionIds: readonly string[]): void {
    const forgetAt = this.options.clock.now() + keepMs;
    if (this.#revoked.size + sessionIds.length > this.#maxHeld) {
      this.#overflowUntil = forgetAt;
      this.#revoked.clear();
      return;
    }
    for (const id of sessionIds) this.#revoked.set(id.toLowerCase(), forgetAt);
  }

  /** Whether the session was revoked (read from the database while revocations might be missed). */
  async isRevoked(sessionId: string): Promise<boolean> {
    const now = this.options.clock.now();
    if (now >= this.#nextPrune) this.#prune(now);
    if (this.#revoked.has(sessionId)) return true;
    if (!this.options.feed.live || now < this.#overflowUntil) {
      return !(await sessionExists(this.options.db, sessionId));
    }
    return false;
  }

  #prune(now: number): void {
    this.#nextPrune = now + 60_000;
    for (const [id, forgetAt] of this.#revoked) if (forgetAt <= now) this.#revoked.delete(id);
  }
}
