/**
 * Actions and the one recorder: what happens when data changes.
 *
 * An action is a function `(ctx, ...) => result` in `<feature>/<feature>-actions.ts`
 * that makes one change: it runs its writes in `act(ctx, async (tx) => ...)`
 * (one transaction) and names what happened with `record(tx, type, facts)`,
 * a type of the event catalogue (`events/catalogue.ts`). The recorder then,
 * from the catalogue row alone:
 * - writes the audit row, in the same transaction (when the row is audited);
 * - collects the caches the event makes stale, notifies the other instances
 *   through the database in the same transaction (PostgreSQL delivers a
 *   `NOTIFY` on commit, never after a rollback), and tells this instance's
 *   change feed once the transaction has committed (read-your-writes: the
 *   next request on this instance never reads the cached old row);
 * - for an event offered to webhooks (`webhooks/webhook-events.ts`), writes
 *   one outbox message per endpoint of the project subscribed to its type,
 *   in the same statement as the audit row (so in the same transaction):
 *   none for a change that rolled back, none lost for one that committed.
 * A rolled-back action leaves no audit row and sends no notice. An action
 * called inside another joins its transaction and its notices. Sessions are
 * the one change whose statement notifies the other instances itself (the
 * session store's deletions): the action passes their ids to `sessionsEnded`
 * and the recorder tells this instance after the commit.
 *
 * This is the one way the service's own writes reach the caches: there is no
 * watching of statements. An action that writes a cached table (`users`,
 * `teams`, projects, key sets) records an event whose row names the cache.
 *
 * Route handlers and the operations of `operations.ts` (the CLI) call the same
 * actions; they differ only in the context they build: `requestContext(input)`
 * for a route, `operatorContext(...)` for the operator. In strict mode (tests)
 * the database handle of a route refuses to write outside `act`
 * (`events/action-guard.ts`).
 *
 * Converting a feature:
 * 1. Move each change (its store calls, its `audit(...)`, any
 *    `deps.changes.publishLocal`) from the route into an action of
 *    `<feature>/<feature>-actions.ts`, taking `ctx: ActionContext` plus its
 *    inputs, and wrap the writes in `act(ctx, async (tx) => ...)`, passing `tx.db`
 *    to the stores.
 * 2. Replace `audit(trx, source, type, facts)` with `record(tx, type, facts)`;
 *    drop the `publishLocal` call: the catalogue row's `invalidates` says it.
 *    Check the row's data shape and caches (add a row at the end of its
 *    feature's group if the change has no event yet; `audited: false` if the
 *    audit log must not show it).
 * 3. The handler becomes: check the request, `await action(requestContext(input), ...)`,
 *    answer. Remove the feature's routes from `routesNotYetActions`
 *    (`events/action-guard.ts`), give each writing route a request in
 *    `events/route-actions.test.ts`, and take the feature's events off
 *    `writtenByHand` in `events/catalogue.test.ts`.
 *
 * @example
 * export function deleteTeam(ctx: ActionContext, teamId: string): Promise<boolean> {
 *   return act(ctx, async (tx) => {
 *     const gone = await deleteTeamRow(tx.db, ctx.projectId, teamId);
 *     if (gone) await record(tx, 'team.deleted', { data: { team_id: teamId } });
 *     return gone;
 *   });
 * }
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { AccessType } from '@latchkey/protocol';
import { auditEventInsert, auditedUserAgentLength } from '../audit/audit-store.js';
import type { Clock } from '../common/clock.js';
import type { ClientInfo, RequestAuth } from '../http/env.js';
import { type ChangeFeed, type FeedEvent, notifyChanges } from '../storage/change-feed.js';
import { type Db, inTransaction, type Write, writeTogether } from '../storage/db.js';
import type { JsonValue } from '../storage/schema.js';
import { webhookEventOf } from '../webhooks/webhook-events.js';
import { webhookMessagesInsert } from '../webhooks/webhook-message-store.js';
import { type CacheName, type EventData, type EventType, eventCatalogue } from './catalogue.js';

/**
 * Who acted, as the audit log names them: a signed-in user (client access), a
 * server or admin key set (`id`: the set), a dashboard owner's admin token
 * (`admin`, `id`: the owner), nobody yet (a sign-in), or the operator with
 * the database itself (the CLI, through `operations.ts`).
 */
export type ActorType = 'user' | 'server' | 'admin' | 'anonymous' | 'operator';

export const actorTypes = ['user', 'server', 'admin', 'anonymous', 'operator'] as const satisfies readonly ActorType[];

export interface Actor {
  type: ActorType;
  id: string | null;
}

/** What an action needs besides its inputs: where to write, the time, who acts, and from where. */
export interface ActionContext {
  /** The database, or a transaction the action joins. */
  readonly db: Db;
  readonly clock: Clock;
  readonly actor: Actor;
  /** The project the action works in, and whose audit log gets its events. */
  readonly projectId: string;
  /** The signed-in user of the request, if any: the user an event is about unless it names another. */
  readonly userId: string | null;
  /** Where the request came from (the audit row's address and user agent). */
  readonly client: ClientInfo;
  /** This instance's change feed, told of the stale caches after commit; null for none. */
  readonly feed: ChangeFeed | null;
}

const pending = Symbol('pending');

/** What an action collected so far, while its transaction is open. */
interface Pending {
  db: Db;
  open: boolean;
  /** An action of one statement (`actInOneStatement`): how many writing statements it has sent. */
  statements?: number;
  /** For every instance: sent through the database in the transaction, and told to this one after the commit. */
  notices: FeedEvent[];
  /** For this instance only, after the commit: the statement that made the change notified the others. */
  localNotices: FeedEvent[];
}

/** The context inside `act`: `db` is the action's transaction. Only `act` makes one. */
export interface ActionTx extends ActionContext {
  readonly [pending]: Pending;
}

/** The action running in the current async context, if any (the write guard reads it). */
const running = new AsyncLocalStorage<Pending>();

/** Whether the caller runs inside an open action. */
export function inAction(): boolean {
  return running.getStore()?.open === true;
}

/**
 * Runs `work` as one action: in one transaction (the caller's, when
 * `ctx.db` is one, or the enclosing action's), with `record` available.
 * After the commit, this instance's change feed hears of every cache the
 * recorded events made stale.
 */
export async function act<T>(ctx: ActionContext, work: (tx: ActionTx) => Promise<T>): Promise<T> {
  const outer = running.getStore();
  if (outer?.open) return work({ ...ctx, db: outer.db, [pending]: outer });
  const state: Pending = { db: ctx.db, open: true, notices: [], localNotices: [] };
  let result: T;
  try {
    result = await running.run(state, () =>
      inTransaction(ctx.db, async (trx) => {
        state.db = trx;
        const value = await work({ ...ctx, db: trx, [pending]: state });
        await notifyChanges(trx, state.notices);
        return value;
      }),
    );
  } finally {
    state.open = false;
  }
  for (const notice of state.notices) ctx.feed?.announce(notice);
  for (const notice of state.localNotices) {
    if (!state.notices.some((told) => sameNotice(told, notice))) ctx.feed?.announce(notice);
  }
  return result;
}

/**
 * `act` for an action whose whole change is one statement (its event written
 * in the same statement, `recordWrites`): a statement is atomic on its own, so
 * no transaction is opened, and the change costs one round trip instead of
 * four (begin, the statement, the notices, commit). Notices for the other
 * instances, if any, follow in a statement of their own once the change has
 * succeeded; this instance is told after that, as `act` does. Inside another
 * action it joins that one. In strict mode (tests) a second writing statement
 * is refused (`oneStatementRefusal`).
 *
 * @example
 * await actInOneStatement(ctx, (tx) => deleteSessionById(tx.db, ..., (deleted) => recordWrites(tx, ...)));
 */
export async function actInOneStatement<T>(ctx: ActionContext, work: (tx: ActionTx) => Promise<T>): Promise<T> {
  const outer = running.getStore();
  if (outer?.open) return work({ ...ctx, db: outer.db, [pending]: outer });
  const state: Pending = { db: ctx.db, open: true, notices: [], localNotices: [], statements: 0 };
  let result: T;
  try {
    result = await running.run(state, () => work({ ...ctx, [pending]: state }));
  } finally {
    state.open = false;
  }
  await notifyChanges(ctx.db, state.notices);
  for (const notice of [...state.notices, ...state.localNotices]) ctx.feed?.announce(notice);
  return result;
}

/**
 * For the write guard of strict mode, as a writing statement comes back: a
 * refusal when the running action is one of one statement and this is its
 * second, else null (and the statement is counted).
 */
export function oneStatementRefusal(): string | null {
  const state = running.getStore();
  if (!state?.open || state.statements === undefined) return null;
  state.statements += 1;
  return state.statements > 1 ? 'an action of one statement (actInOneStatement) sent a second writing statement' : null;
}

/**
 * Notes, inside the action `tx`, that the sessions of `sessionIds` were
 * deleted, so that this instance refuses their access tokens as soon as the
 * action commits. Only this instance is told: the statement that deleted them
 * notified the others (`sessions/session-store.ts`). Every action that ends
 * sessions calls it with the ids the session store returned.
 *
 * @example
 * sessionsEnded(tx, await deleteUserSessions(tx.db, ctx.projectId, userId));
 */
export function sessionsEnded(tx: ActionTx, sessionIds: readonly string[]): void {
  const state = tx[pending];
  if (!state?.open) throw new Error('sessionsEnded: outside an open action');
  if (sessionIds.length > 0) state.localNotices.push({ type: 'revoked', sessionIds: [...sessionIds] });
}

/** The facts of an event besides who and where; `data` as its catalogue row says. */
type EventFacts<T extends EventType> = {
  /** The user the event is about (absent: the request's signed-in user, if any). */
  userId?: string | null;
  /** The project whose log gets it (absent: the action's). */
  projectId?: string;
} & (Record<string, never> extends EventData<T> ? { data?: EventData<T> } : { data: EventData<T> });

/**
 * Records that `type` happened, inside the action `tx`: its audit row (when
 * audited) is written in the action's transaction, and the caches it makes
 * stale are noted for `act` to announce.
 *
 * @example
 * await record(tx, 'user.deleted', { userId });
 */
export async function record<T extends EventType>(tx: ActionTx, type: T, ...[facts]: FactsArgument<T>): Promise<void> {
  await writeTogether(tx.db, recordWrites(tx, type, facts as EventFacts<T>));
}

/**
 * `record`, with its rows returned unsent (the audit row, when the event is
 * audited, and the webhook messages, when webhooks are offered it; none
 * else), for the action to send in one statement with the change it
 * describes (`writeTogether`, a store's `also`): a sign-in's session, its
 * activity and its event are one round trip. With `onlyWith`, the rows are
 * written only when that part of the statement has rows (a deletion that
 * found its row); an action whose change found nothing must not commit.
 *
 * @example
 * await createSession(tx.db, { ...session, also: (id) => recordWrites(tx, 'session.created', { userId, data: { session_id: id } }) });
 */
export function recordWrites<T extends EventType>(
  tx: ActionTx,
  type: T,
  facts: EventFacts<T>,
  options: { onlyWith?: string } = {},
): Write[] {
  const state = tx[pending];
  if (!state?.open) throw new Error(`record(${type}): outside an open action`);
  const spec = eventCatalogue[type];
  const data = spec.data.parse(facts?.data ?? {}) as Record<string, JsonValue>;
  const userId = facts?.userId === undefined ? tx.userId : facts.userId;
  const projectId = facts?.projectId ?? tx.projectId;
  for (const cache of spec.invalidates) {
    const notice = noticeOf(cache, { projectId, userId, data });
    if (notice && !state.notices.some((held) => sameNotice(held, notice))) state.notices.push(notice);
  }
  const writes: Write[] = [];
  const webhookType = spec.webhook ? webhookEventOf(type) : null;
  if (webhookType !== null) {
    const event = { projectId, type: webhookType, facts: { ...data, user_id: userId }, now: tx.clock.now() };
    writes.push(webhookMessagesInsert(tx.db, event, options.onlyWith));
  }
  if (!spec.audited) return writes;
  writes.push(
    auditEventInsert(
      tx.db,
      {
        project_id: projectId,
        type,
        occurred_at: new Date(tx.clock.now()),
        user_id: userId,
        actor_type: tx.actor.type,
        actor_id: tx.actor.id,
        ip: tx.client.ip,
        user_agent: tx.client.userAgent?.slice(0, auditedUserAgentLength) ?? null,
        country: tx.client.country,
        data,
      },
      options.onlyWith,
    ),
  );
  return writes;
}

type FactsArgument<T extends EventType> =
  Record<string, never> extends EventData<T> ? [facts?: EventFacts<T>] : [facts: EventFacts<T>];

/** The feed event that drops `cache` for the ids an event carries (`catalogue.ts` says which). */
function noticeOf(
  cache: CacheName,
  event: { projectId: string; userId: string | null; data: Record<string, JsonValue> },
): FeedEvent | null {
  const text = (value: JsonValue | undefined) => (typeof value === 'string' ? value : null);
  switch (cache) {
    case 'project':
      return { type: 'change', projectId: text(event.data.project_id) ?? event.projectId };
    case 'user':
      return event.userId ? { type: 'users', userIds: [event.userId.toLowerCase()] } : null;
    case 'team': {
      const teamId = text(event.data.team_id);
      return teamId ? { type: 'teams', teamIds: [teamId.toLowerCase()] } : null;
    }
  }
}

function sameNotice(a: FeedEvent, b: FeedEvent): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/** The actor of a request: the access type decides it; a client without a user is anonymous. */
export function actorOf(auth: RequestAuth | null, userId: string | null): Actor {
  const accessType: AccessType | undefined = auth?.accessType;
  if (accessType === 'server') return { type: 'server', id: auth?.actorId ?? null };
  if (accessType === 'admin') return { type: 'admin', id: auth?.actorId ?? null };
  return userId ? { type: 'user', id: userId } : { type: 'anonymous', id: null };
}

/** The parts of a route's input a context is made of. */
export interface RequestParts {
  auth: RequestAuth;
  userId: string | null;
  client: ClientInfo;
  deps: { db: Db; clock: Clock; changes: ChangeFeed };
}

/**
 * The context of an action a route runs for its caller, in the caller's project.
 *
 * @example
 * handler: async (input) => deleteUser(requestContext(input), input.params.userId),
 */
export function requestContext({ auth, userId, client, deps }: RequestParts): ActionContext {
  const user = userId ?? auth.userId ?? null;
  return {
    db: deps.db,
    clock: deps.clock,
    actor: actorOf(auth, user),
    projectId: auth.project.id,
    userId: user,
    client,
    feed: deps.changes,
  };
}

/**
 * The context of an action the operator runs with the database itself (the
 * CLI, scripts): no request, no address.
 *
 * @example
 * await createKeySet(operatorContext(dbOf(storage), changeFeedOf(storage), projectId), options);
 */
export function operatorContext(db: Db, feed: ChangeFeed | null, projectId: string, clock?: Clock): ActionContext {
  return {
    db,
    clock: clock ?? { now: () => Date.now() },
    actor: { type: 'operator', id: null },
    projectId,
    userId: null,
    client: { ip: null, userAgent: 'latchkey operations', country: null },
    feed,
  };
}
