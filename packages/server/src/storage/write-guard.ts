/**
 * A plugin that refuses statements changing rows when `refusal()` says so
 * (the actions' write guard of strict mode, `events/action-guard.ts`). It
 * sees every statement built on the handle it is on, raw SQL included.
 */
import {
  DeleteQueryNode,
  InsertQueryNode,
  type KyselyPlugin,
  MergeQueryNode,
  type OperationNode,
  RawNode,
  UpdateQueryNode,
} from 'kysely';

/** The plugin `writeGuard` makes, to put on a handle with `withPlugin`. */
export type WriteGuard = KyselyPlugin;

/**
 * The plugin: before a statement that changes rows is sent, `refusal()` is
 * asked; a message means refuse (the statement throws it), null means send.
 * Once such a statement has run, `afterWrite()` (when given) is asked the
 * same way, once per statement sent (a builder embedded in another
 * statement passes `transformQuery` too, but only what is sent has a result).
 */
export function writeGuard(refusal: () => string | null, afterWrite?: () => string | null): WriteGuard {
  const sent = new WeakSet<object>();
  return {
    transformQuery({ node, queryId }) {
      if (writes(node)) {
        const message = refusal();
        if (message !== null) throw new Error(`${message} (${node.kind})`);
        if (afterWrite) sent.add(queryId);
      }
      return node;
    },
    async transformResult({ result, queryId }) {
      if (sent.has(queryId)) {
        const message = afterWrite?.() ?? null;
        if (message !== null) throw new Error(message);
      }
      return result;
    },
  };
}

/** A statement keyword that changes rows, in raw SQL (`for update` is a lock, not a write). */
const rawWrite = /\binsert\s+into\b|\bdelete\s+from\b|\bupdate\s+[\w".]+\s+(as\s+\w+\s+)?set\b/i;

/** Whether the statement changes rows: a write node, or raw SQL with one in it. */
function writes(node: OperationNode): boolean {
  if (InsertQueryNode.is(node) || UpdateQueryNode.is(node) || DeleteQueryNode.is(node) || MergeQueryNode.is(node)) {
    return true;
  }
  if (!RawNode.is(node)) return false;
  return node.sqlFragments.some((fragment) => rawWrite.test(fragment)) || node.parameters.some(writes);
}
