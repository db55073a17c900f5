/**
 * Cursors of `GET /users`: opaque to clients, bound to the query they came
 * from. A cursor names the first user of the next page (its sign-up time and
 * id) and a fingerprint of the query's order and filters, so a cursor from
 * one query is refused on another instead of silently skipping users. For
 * the Stack 2.7 SDK's sake a bare user id is accepted too: the page then
 * starts at that user.
 */

import { badCursor, decodeCursor as decodeListCursor, encodeCursor as encodeListCursor } from '../common/cursor.js';
import { isUuid } from '../common/ids.js';
import type { UserPosition } from './user-store.js';

/** What a cursor is bound to: everything that decides which users come in which order. */
export interface CursorScope {
  desc: boolean;
  query: string | null;
  teamId: string | null;
}

function scopeOf(scope: CursorScope): unknown[] {
  return [scope.desc, scope.query, scope.teamId];
}

/** The cursor of a page starting at `position`. */
export function encodeCursor(position: UserPosition, scope: CursorScope): string {
  return encodeListCursor([String(position.signedUpAt.getTime()), position.id], scopeOf(scope));
}

/** What a cursor points at: a position, or (a bare user id) a user whose position is looked up. */
export type DecodedCursor = { position: UserPosition } | { userId: string };

/** Decodes `cursor` for `scope`; SCHEMA_ERROR when it is malformed or belongs to another query. */
export function decodeCursor(cursor: string, scope: CursorScope): DecodedCursor {
  if (isUuid(cursor)) return { userId: cursor.toLowerCase() };
  const [millis, id] = decodeListCursor(cursor, scopeOf(scope), 2) as [string, string];
  const time = Number(millis);
  if (!isUuid(id) || !/^\d+$/.test(millis) || !Number.isSafeInteger(time)) throw badCursor();
  return { position: { signedUpAt: new Date(time), id } };
}
