/**
 * The signed-in user as `GET /users/me` answers it, kept in memory so the
 * session check every page of an app makes reads no database. Every change
 * to a user or a team row reaches every instance through the change feed,
 * which drops the users concerned: a changed user, or the users who selected
 * a changed team. The service's own changes are actions whose events name the
 * `user` or `team` cache (`events/catalogue.ts`): the recorder tells the other
 * instances on commit and this one right after it, so a request that follows
 * a change never reads the old row. Triggers (migration 0009) announce what no
 * action foresees: SQL an operator runs by hand, cascades.
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
  /** Most bytes of users held at once, by `weighUser` (default 32 MiB). */
  maxBytes?: number;
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
      // Metadata may be 16 KiB a field, six fields with the selected team's: bound the bytes too.
      weigh: (held) => (held.user ? weighUser(held.user) : 0),
      maxWeight: options.maxBytes ?? 32 * 1024 * 1024,
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

  /** Users held, and about how many bytes they take (`weighUser`). */
  get held(): { users: number; bytes: number } {
    return { users: this.#cache.size, bytes: this.#cache.weight };
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

/** About what a user row takes in memory: a kilobyte of fixed fields, and its metadata and team's as JSON. */
function weighUser(user: UserWithTeam): number {
  const team = user.selected_team;
  const json = [user.client_metadata, user.client_read_only_metadata, user.server_metadata];
  if (team) json.push(team.client_metadata, team.client_read_only_metadata, team.server_metadata);
  return 1024 + json.reduce<number>((bytes, value) => bytes + JSON.stringify(value ?? null).length, 0);
}
