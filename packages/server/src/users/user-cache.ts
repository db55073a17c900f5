/**
 * The signed-in user as `GET /users/me` answers it, kept in memory so the
 * session check every page of an app makes reads no database. Every change
 * to a user or a team row reaches every instance through the change feed
 * (a trigger announces it, migration 0009; this instance's own writes are
 * announced as they are sent, `storage/write-watch.ts`), which drops the
 * users concerned: a changed user, or the users who selected a changed team.
 * The rules of holding (nothing while the feed is down, no stale load stored,
 * a TTL backstop, least recently used out first) are `FeedCache`'s.
 */
import type { ChangeFeed } from '../storage/change-feed.js';
import type { Db } from '../storage/db.js';
import { FeedCache, type FeedCacheStats } from '../storage/feed-cache.js';
import { attachSelectedTeam, findUser } from './user-store.js';
import type { UserWithTeam } from './user-views.js';

export interface UserCacheOptions {
  db: Db;
  /** The storage's change feed. */
  feed: ChangeFeed;
  /** Longest life of an entry (default 60 s); 0 caches nothing. */
  ttlMs?: number;
  /** Most users held at once (default 10,000). */
  maxEntries?: number;
}

/** A user as loaded, with the project it was asked for (the key is the user's id alone: ids are unique). */
interface Held {
  projectId: string;
  user: UserWithTeam | null;
}

export class UserCache {
  readonly #db: Db;
  readonly #cache: FeedCache<Held>;

  constructor(options: UserCacheOptions) {
    this.#db = options.db;
    const { feed } = options;
    this.#cache = new FeedCache<Held>({
      live: () => feed.live,
      ttlMs: options.ttlMs ?? 60_000,
      maxEntries: options.maxEntries ?? 10_000,
      keep: (held) => held.user !== null,
    });
    feed.subscribe((event) => {
      if (event.type === 'users') this.#forgetUsers(event.userIds);
      else if (event.type === 'teams') this.#forgetTeams(event.teamIds);
      else if (event.type === 'live' || event.type === 'lost') this.#cache.clear();
    });
  }

  /** Counters for tests and figures. */
  get stats(): FeedCacheStats {
    return this.#cache.stats;
  }

  /** The user of the project with their selected team, or null when there is none. */
  async get(projectId: string, userId: string): Promise<UserWithTeam | null> {
    const key = userId.toLowerCase();
    const held = await this.#cache.get(key, async () => ({ projectId, user: await this.#read(projectId, key) }));
    // Another project's user of that id (none exists: ids are random UUIDs), read without the cache.
    return held.projectId === projectId ? held.user : this.#read(projectId, key);
  }

  #read(projectId: string, userId: string): Promise<UserWithTeam | null> {
    return findUser(this.#db, projectId, userId).then((row) => attachSelectedTeam(this.#db, row));
  }

  #forgetUsers(userIds: readonly string[] | null): void {
    if (userIds === null) this.#cache.clear();
    else for (const id of userIds) this.#cache.forget(id.toLowerCase());
  }

  #forgetTeams(teamIds: readonly string[] | null): void {
    if (teamIds === null) {
      this.#cache.clear();
      return;
    }
    const ids = new Set(teamIds.map((id) => id.toLowerCase()));
    this.#cache.forgetWhere((held) => held.user?.selected_team_id != null && ids.has(held.user.selected_team_id));
  }
}
