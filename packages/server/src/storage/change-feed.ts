/**
 * The change feed: how every instance sharing a database learns that a
 * project or its key sets changed, so that caches of them (request
 * authentication, `access/auth-cache.ts`) drop what they hold at once.
 *
 * An action that changes such data records an event whose catalogue row
 * names the cache (`events/recorder.ts`); the recorder notifies in the
 * action's transaction (`notifyChanges`), so the notification is sent on
 * commit (PostgreSQL `NOTIFY`); each storage listens on one channel (`LISTEN`)
 * and hands the changes of its own schema to its subscribers. PostgreSQL
 * listens on a connection of its own, reconnecting when it drops; PGlite, one
 * connection, listens on that one and delivers before the writing query ends.
 * While a feed is not `live` (not yet listening, or its connection lost) its
 * subscribers must not trust what they cached: they hear `lost`, then `live`
 * once it listens again.
 *
 * The same channel tells outbox workers that a mail was queued
 * (`notifyMailQueued`) and webhook workers that messages are due, so one
 * queued by any instance is sent at once, and
 * carries the changes of user and team rows, which triggers announce
 * (migration 0009) for the user cache (`users/user-cache.ts`): they cover
 * SQL an operator runs by hand and cascades; this instance's own writes are
 * announced by the recorder after their commit.
 */
import { type RawBuilder, sql } from 'kysely';
import type { Db } from './db.js';

/** What a feed tells its subscribers. */
export type FeedEvent =
  | { type: 'change'; projectId: string }
  /** A mail was queued (`notifyMailQueued`): outbox workers look for due mail now. */
  | { type: 'mail' }
  /** Webhook messages were written or made due again (`notifyWebhookDue`, a trigger): delivery workers look now. */
  | { type: 'webhook' }
  /** Sessions were deleted (`notifySessionsRevoked`): their access tokens must stop working. */
  | { type: 'revoked'; sessionIds: string[] }
  /** A refresh token (by its hash) stopped being its session's current one (`rotatedNotice`): caches drop it. */
  | { type: 'rotated'; projectId: string; tokenHash: string }
  /** Users were changed or deleted (a trigger tells, migration 0009); null: too many to name, any may have. */
  | { type: 'users'; userIds: string[] | null }
  /** Teams were changed or deleted (a trigger tells); null: any may have. */
  | { type: 'teams'; teamIds: string[] | null }
  /** Listening (again): changes made from now on arrive. */
  | { type: 'live' }
  /** No longer listening: changes may be missed until `live`. */
  | { type: 'lost' };

export interface ChangeFeed {
  /** True while changes made by any instance reach this feed. */
  readonly live: boolean;
  /** Calls `listener` on every event; returns the function that stops it. */
  subscribe(listener: (event: FeedEvent) => void): () => void;
  /**
   * Tells this process's subscribers at once of a change it has just committed.
   * Other instances hear of it through the database; this one would hear of it
   * a moment later, so a request that follows a write sees the write. Only
   * writers not yet made actions call it (an action's events are announced by
   * the recorder).
   */
  publishLocal(projectId: string): void;
  /**
   * Tells this process's subscribers at once of `event`: the recorder
   * (`events/recorder.ts`) announces an action's notices here once its
   * transaction committed, so the next request on this instance sees the change.
   */
  announce(event: FeedEvent): void;
  close(): Promise<void>;
}

/** The one channel every Latchkey instance of a database notifies and listens on. */
export const changeChannel = 'latchkey_changes';

/**
 * Notifies every instance that the project (its row or its key sets) changed;
 * sent when the transaction of `db`, if any, commits. The payload names the
 * schema, so instances of other schemas of the database ignore it.
 */
export async function notifyProjectChanged(db: Db, projectId: string): Promise<void> {
  await sql`select pg_notify(${changeChannel}, json_build_object('schema', current_schema(), 'project', ${projectId}::text)::text)`.execute(
    db,
  );
}

/** The payload of a notification telling `event`, less the schema (`notifyChanges` adds it). */
function payloadOf(event: FeedEvent): Record<string, unknown> | null {
  switch (event.type) {
    case 'change':
      return { project: event.projectId };
    case 'users':
      return { users: event.userIds };
    case 'teams':
      return { teams: event.teamIds };
    case 'revoked':
      return { revoked: event.sessionIds };
    case 'rotated':
      return { rotated: [event.projectId, event.tokenHash] };
    case 'mail':
      return { mail: true };
    case 'webhook':
      return { webhook: true };
    default:
      return null;
  }
}

/**
 * Notifies every instance of `events` (the recorder's cache notices, in one
 * statement); sent when the transaction of `db`, if any, commits, and not at
 * all when it rolls back. Each payload names the schema, as every
 * notification on the channel does.
 */
export async function notifyChanges(db: Db, events: readonly FeedEvent[]): Promise<void> {
  const calls = events.flatMap((event) => {
    const payload = payloadOf(event);
    if (payload === null) return [];
    return [
      sql`pg_notify(${changeChannel}, (${JSON.stringify(payload)}::jsonb || jsonb_build_object('schema', current_schema()))::text)`,
    ];
  });
  if (calls.length > 0) await sql`select ${sql.join(calls)}`.execute(db);
}

/**
 * Tells every instance's outbox worker that a mail was queued; sent when the
 * transaction of `db`, if any, commits, so a worker never looks before the
 * row is visible.
 */
export async function notifyMailQueued(db: Db): Promise<void> {
  await sql`select pg_notify(${changeChannel}, json_build_object('schema', current_schema(), 'mail', true)::text)`.execute(
    db,
  );
}

/**
 * Tells every instance's webhook worker that messages are due (a replay);
 * sent when the transaction of `db`, if any, commits. New messages need no
 * call: a trigger on `webhook_messages` (migration 0015) sends the same.
 */
export async function notifyWebhookDue(db: Db): Promise<void> {
  await sql`select pg_notify(${changeChannel}, json_build_object('schema', current_schema(), 'webhook', true)::text)`.execute(
    db,
  );
}

/**
 * The `pg_notify` call that tells every instance the sessions of `ids` (an
 * SQL expression of a short JSON array of ids; PostgreSQL's payload limit is
 * 8000 bytes) were deleted; sent when the transaction commits. The session
 * store sends it in the statement that deletes them, one per session.
 */
export function revokedNotice(ids: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`pg_notify(${changeChannel}, json_build_object('schema', current_schema(), 'revoked', ${ids})::text)`;
}

/**
 * The `pg_notify` call that tells every instance the refresh token hashed
 * `tokenHash` of a session of `projectId` (SQL expressions) was replaced by a
 * new one (`sessions/refresh-rotation.ts`), so that no cache answers it as
 * current any more; sent when the transaction commits, by the statement that
 * rotates it.
 */
export function rotatedNotice(projectId: RawBuilder<unknown>, tokenHash: RawBuilder<unknown>): RawBuilder<unknown> {
  return sql`pg_notify(${changeChannel}, json_build_object('schema', current_schema(), 'rotated', json_build_array(${projectId}, ${tokenHash}))::text)`;
}

/** The event a notification payload carries for `schema`, or null (another schema, or not ours). */
function feedEventOf(payload: string, schema: string): FeedEvent | null {
  try {
    const parsed = JSON.parse(payload) as {
      schema?: unknown;
      project?: unknown;
      mail?: unknown;
      webhook?: unknown;
      revoked?: unknown;
      rotated?: unknown;
      users?: unknown;
      teams?: unknown;
    };
    if (parsed.schema !== schema) return null;
    if (typeof parsed.project === 'string') return { type: 'change', projectId: parsed.project };
    if ('users' in parsed) return { type: 'users', userIds: idList(parsed.users) };
    if ('teams' in parsed) return { type: 'teams', teamIds: idList(parsed.teams) };
    if (Array.isArray(parsed.revoked)) {
      return { type: 'revoked', sessionIds: parsed.revoked.filter((id): id is string => typeof id === 'string') };
    }
    if (Array.isArray(parsed.rotated)) {
      const [projectId, tokenHash] = parsed.rotated;
      if (typeof projectId === 'string' && typeof tokenHash === 'string')
        return { type: 'rotated', projectId, tokenHash };
      return null;
    }
    if (parsed.webhook === true) return { type: 'webhook' };
    return parsed.mail === true ? { type: 'mail' } : null;
  } catch {
    return null;
  }
}

/** The ids a trigger named, or null (all) for anything but a list of strings. */
function idList(value: unknown): string[] | null {
  return Array.isArray(value) && value.every((id) => typeof id === 'string') ? value : null;
}

/** Subscribers and the `live` flag; the listening itself is the backend's. */
class Subscribers {
  #listeners = new Set<(event: FeedEvent) => void>();
  live = false;

  subscribe(listener: (event: FeedEvent) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  emit(event: FeedEvent): void {
    if (event.type === 'live' || event.type === 'lost') this.live = event.type === 'live';
    for (const listener of [...this.#listeners]) listener(event);
  }

  clear(): void {
    this.#listeners.clear();
  }
}

/**
 * The feed of a PGlite storage. Call `receive` from PGlite's notification
 * callback, and `listening()` once `LISTEN` ran on its connection.
 */
export function pgliteChangeFeed(schema: string): ChangeFeed & {
  receive(channel: string, payload: string): void;
  listening(): void;
} {
  const subscribers = new Subscribers();
  return {
    get live() {
      return subscribers.live;
    },
    subscribe: (listener) => subscribers.subscribe(listener),
    publishLocal: (projectId) => subscribers.emit({ type: 'change', projectId }),
    announce: (event) => subscribers.emit(event),
    receive(channel, payload) {
      const event = channel === changeChannel ? feedEventOf(payload, schema) : null;
      if (event !== null) subscribers.emit(event);
    },
    listening: () => subscribers.emit({ type: 'live' }),
    async close() {
      subscribers.emit({ type: 'lost' });
      subscribers.clear();
    },
  };
}

/** Delays between attempts to listen again after the connection dropped. */
const retryDelaysMs = [100, 500, 1000, 2000, 5000];

/**
 * The part of the `pg` module the feed uses, passed in by the storage that
 * loaded it. Spelled out here so the package's declarations do not need pg's
 * types (an app that installs the package has no `@types/pg`).
 */
export interface ListenDriver {
  Client: new (config: { connectionString: string; connectionTimeoutMillis: number }) => ListenClient;
}

/** A connection that listens (`pg.Client`, as far as the feed uses one). */
interface ListenClient {
  connect(): Promise<unknown>;
  query(text: string): Promise<unknown>;
  end(): Promise<void>;
  on(event: 'notification', listener: (message: { channel: string; payload?: string | undefined }) => void): unknown;
  on(event: 'error' | 'end', listener: () => void): unknown;
}

/**
 * The feed of a PostgreSQL storage: one connection of its own that listens,
 * opened when the first subscriber arrives and opened again whenever it drops.
 */
export function postgresChangeFeed(driver: ListenDriver, databaseUrl: string, schema: string): ChangeFeed {
  const subscribers = new Subscribers();
  let client: ListenClient | null = null;
  let started = false;
  let closed = false;
  let attempt = 0;
  let retry: ReturnType<typeof setTimeout> | undefined;

  const connect = async () => {
    if (closed) return;
    const next = new driver.Client({ connectionString: databaseUrl, connectionTimeoutMillis: 5000 });
    let dropped = false;
    const drop = () => {
      if (dropped) return;
      dropped = true;
      if (client === next) client = null;
      next.end().catch(() => {});
      if (subscribers.live) subscribers.emit({ type: 'lost' });
      if (!closed) {
        retry = setTimeout(connect, retryDelaysMs[Math.min(attempt++, retryDelaysMs.length - 1)]);
        retry.unref?.();
      }
    };
    next.on('error', drop);
    next.on('end', drop);
    next.on('notification', (message) => {
      const event = message.channel === changeChannel && message.payload ? feedEventOf(message.payload, schema) : null;
      if (event !== null) subscribers.emit(event);
    });
    try {
      await next.connect();
      await next.query(`listen ${changeChannel}`);
    } catch {
      drop();
      return;
    }
    if (closed) {
      await next.end().catch(() => {});
      return;
    }
    client = next;
    attempt = 0;
    subscribers.emit({ type: 'live' });
  };

  return {
    get live() {
      return subscribers.live;
    },
    subscribe(listener) {
      const stop = subscribers.subscribe(listener);
      if (!started && !closed) {
        started = true;
        void connect();
      }
      return stop;
    },
    publishLocal: (projectId) => subscribers.emit({ type: 'change', projectId }),
    announce: (event) => subscribers.emit(event),
    async close() {
      closed = true;
      clearTimeout(retry);
      const open = client;
      client = null;
      if (subscribers.live) subscribers.emit({ type: 'lost' });
      subscribers.clear();
      await open?.end().catch(() => {});
    },
  };
}

const feeds = new WeakMap<object, ChangeFeed>();

/** Internal: attaches the feed of an open storage. */
export function attachChangeFeed(storage: object, feed: ChangeFeed): void {
  feeds.set(storage, feed);
}

/** Internal: the change feed of an open storage. */
export function changeFeedOf(storage: object): ChangeFeed {
  const feed = feeds.get(storage);
  if (!feed) throw new TypeError('not a storage opened by openStorage');
  return feed;
}
