/**
 * Sessions as a refresh finds them by their refresh token, kept in memory so
 * a refresh within a minute of the session's last write reads no database
 * (the query was the largest part of a refresh). A session only
 * ever changes by this path (`last_used_at`, updated here as it is written)
 * or goes (sign-out, revocation, a password change, a deleted user), and
 * every deletion is announced on the change feed and lands in
 * `SessionRevocations`, which a cached session is checked against on every
 * use: entries live for less than a revoked id is kept there. The expiry is
 * checked against the service clock on every use. Unknown tokens are never
 * held, so guessing fills nothing.
 */
import { sha256Hex } from '../crypto/hash.js';
import type { ChangeFeed } from '../storage/change-feed.js';
import type { Db } from '../storage/db.js';
import { FeedCache, type FeedCacheStats } from '../storage/feed-cache.js';
import type { SessionRow } from '../storage/schema.js';
import type { SessionRevocations } from './revocations.js';
import { findSession } from './session-store.js';

export interface SessionCacheOptions {
  db: Db;
  feed: ChangeFeed;
  revocations: SessionRevocations;
  /** Longest life of an entry (default 60 s, well under how long a revocation is remembered); 0 caches nothing. */
  ttlMs?: number;
  /** Most sessions held at once (default 10,000). */
  maxEntries?: number;
}

export class SessionCache {
  readonly #options: SessionCacheOptions;
  readonly #cache: FeedCache<SessionRow | null>;

  constructor(options: SessionCacheOptions) {
    this.#options = options;
    const { feed } = options;
    this.#cache = new FeedCache<SessionRow | null>({
      live: () => feed.live,
      ttlMs: options.ttlMs ?? 60_000,
      maxEntries: options.maxEntries ?? 10_000,
      keep: (row) => row !== null,
    });
    feed.subscribe((event) => {
      if (event.type === 'live' || event.type === 'lost') this.#cache.clear();
      else if (event.type === 'rotated') this.#cache.forget(keyOf(event.projectId, event.tokenHash));
    });
  }

  /** Counters for tests and figures. */
  get stats(): FeedCacheStats {
    return this.#cache.stats;
  }

  /**
   * The project's unexpired, unrevoked session whose refresh token this is
   * (current, or the one it replaced last: `refresh-rotation.ts`), or null. A
   * session found by its replaced token is not held: that token's next use
   * reads the session as it is then.
   */
  async find(projectId: string, refreshToken: string, now: number): Promise<SessionRow | null> {
    const hash = sha256Hex(refreshToken);
    const key = keyOf(projectId, hash);
    const row = await this.#cache.get(key, () => findSession(this.#options.db, projectId, refreshToken, now));
    if (row === null) return null;
    if (row.expires_at.getTime() <= now || (await this.#options.revocations.isRevoked(row.id))) {
      this.#cache.forget(key);
      return null;
    }
    if (row.refresh_token_hash !== hash) this.#cache.forget(key);
    return row;
  }

  /**
   * Drops the token hashed `tokenHash` after a rotation replaced it (or
   * tried to), before the change feed would: this instance's next use of it
   * reads the session as it is now.
   */
  rotated(projectId: string, tokenHash: string): void {
    this.#cache.forget(keyOf(projectId, tokenHash));
  }

  /** Notes a write of the session's `last_used_at` (the held row is the one `find` answered). */
  touched(row: SessionRow, now: number): void {
    row.last_used_at = new Date(now);
  }
}

function keyOf(projectId: string, tokenHash: string): string {
  return `${projectId}\u0000${tokenHash}`;
}
