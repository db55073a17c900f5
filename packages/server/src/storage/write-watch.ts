/**
 * Read-your-writes for the in-memory caches: this process's own writes to
 * `users` and `teams` are announced to its change-feed subscribers as the
 * statement is sent, before the database's trigger notification (migration
 * 0009) comes back through the listening connection, and so are the sessions
 * it deletes (by the ids the statement returns, whether the `DELETE` is the
 * statement or a part of it), before their revocation notification comes back. So a request that follows a change on the same
 * instance never reads the cached old row or uses a session just ended, even
 * on PostgreSQL, where the notification arrives a moment after the commit.
 *
 * A Kysely plugin sees every statement the service builds. An `UPDATE` or
 * `DELETE` of those tables whose `WHERE` pins `id` (`id = …` or `id in (…)`
 * among its `AND`ed conditions, as every store writes them) names its rows;
 * any other names none, which drops every cached user. The parts of a
 * `writeTogether` statement pass through here one by one as it is built, so
 * they are seen too. Writes made with raw SQL are not seen here; the trigger
 * still announces them.
 *
 * The announcement comes before the commit, so it errs on the safe side: a
 * change rolled back afterwards has only dropped cached rows for nothing, and
 * sessions whose deletion rolled back stay refused on this instance (their
 * user signs in again) — never the other way round.
 */
import {
  AliasNode,
  AndNode,
  BinaryOperationNode,
  ColumnNode,
  DeleteQueryNode,
  type KyselyPlugin,
  type OperationNode,
  OperatorNode,
  ParensNode,
  PrimitiveValueListNode,
  RawNode,
  ReferenceNode,
  type RootOperationNode,
  TableNode,
  UpdateQueryNode,
  ValueListNode,
  ValueNode,
} from 'kysely';
import type { FeedEvent } from './change-feed.js';

/** The tables whose rows the caches hold, and the event that drops them. */
const watched = {
  users: (ids: string[] | null): FeedEvent => ({ type: 'users', userIds: ids }),
  teams: (ids: string[] | null): FeedEvent => ({ type: 'teams', teamIds: ids }),
} as const;

type Watched = keyof typeof watched;

/** The plugin that tells `announce` of each write to a watched table, and of each session deleted. */
export function writeWatch(announce: (event: FeedEvent) => void): KyselyPlugin {
  /** Statements that delete sessions, whose ids their result will name. */
  const sessionDeletes = new WeakSet<object>();
  return {
    transformQuery({ node, queryId }) {
      const written = writtenTable(node);
      if (written) announce(watched[written.table](written.where ? idsIn(written.where) : null));
      else if (deletesFrom(node, 'sessions')) sessionDeletes.add(queryId);
      return node;
    },
    async transformResult({ result, queryId }) {
      if (sessionDeletes.has(queryId)) {
        // The session store deletes sessions `returning` their ids (and notifies the other instances of them).
        const ids = result.rows.flatMap((row) => (typeof row.id === 'string' ? [row.id] : []));
        if (ids.length > 0) announce({ type: 'revoked', sessionIds: ids });
      }
      return result;
    },
  };
}

/** Whether the statement deletes from `table`: a `DELETE`, or SQL built around one (`sessions/session-store.ts`). */
function deletesFrom(node: OperationNode, table: string): boolean {
  if (RawNode.is(node)) return node.parameters.some((part) => deletesFrom(part, table));
  if (!DeleteQueryNode.is(node) || node.from.froms.length !== 1) return false;
  const target = node.from.froms[0]!;
  return TableNode.is(target) && target.table.identifier.name === table;
}

/** The watched table an `UPDATE` or `DELETE` writes, with its `WHERE` condition; null for any other statement. */
function writtenTable(node: RootOperationNode): { table: Watched; where: OperationNode | undefined } | null {
  let target: OperationNode | undefined;
  if (UpdateQueryNode.is(node)) target = node.table;
  else if (DeleteQueryNode.is(node) && node.from.froms.length === 1) target = node.from.froms[0];
  else return null;
  if (target && AliasNode.is(target)) target = target.node;
  if (!target || !TableNode.is(target)) return null;
  const name = target.table.identifier.name;
  if (!Object.hasOwn(watched, name)) return null;
  return { table: name as Watched, where: (node as UpdateQueryNode | DeleteQueryNode).where?.where };
}

/** The ids a `WHERE` condition pins, lower-cased; null when it pins none. */
function idsIn(node: OperationNode): string[] | null {
  if (ParensNode.is(node)) return idsIn(node.node);
  if (AndNode.is(node)) return idsIn(node.left) ?? idsIn(node.right);
  if (!BinaryOperationNode.is(node) || !isIdColumn(node.leftOperand) || !OperatorNode.is(node.operator)) return null;
  const { operator } = node.operator;
  const right = node.rightOperand;
  if (operator === '=' && ValueNode.is(right)) return stringIds([right.value]);
  if (operator !== 'in') return null;
  if (PrimitiveValueListNode.is(right)) return stringIds(right.values);
  if (ValueListNode.is(right) && right.values.every((value) => ValueNode.is(value))) {
    return stringIds(right.values.map((value) => (value as ValueNode).value));
  }
  return null;
}

function isIdColumn(node: OperationNode): boolean {
  const column = ReferenceNode.is(node) ? node.column : node;
  return ColumnNode.is(column) && column.column.name === 'id';
}

function stringIds(values: readonly unknown[]): string[] | null {
  return values.every((value) => typeof value === 'string') ? values.map((id) => id.toLowerCase()) : null;
}
