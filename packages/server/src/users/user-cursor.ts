/**
 * Cursors of `GET /users`: opaque to clients, bound to the query they came
 * from. A cursor names the first user of the next page (its sign-up time and
 * id) and a fingerprint of the query's order and filters, so a cursor from
 * one query is refused on another instead of silently skipping users. For
 * the Stack 2.7 SDK's sake a bare user id is accepted too: the page then
 * starts at that user.
 */
import { createHash } from 'node:crypto';
import { KnownError } from '@latchkey/protocol';
import { isUuid } from '../common/ids.js';
import type { UserPosition } from './user-store.js';

/** What a cursor is bound to: everything that decides which users come in which order. */
export interface CursorScope {
  desc: boolean;
  query: string | null;
  teamId: string | null;
}

function fingerprint(scope: CursorScope): string {
  const text = JSON.stringify([scope.desc, scope.query, scope.teamId]);
  return createHash('sha256').update(text).digest('base64url').slice(0, 10);
}

/** The cursor of a page starting at `position`. */
export function encodeCursor(position: UserPosition, scope: CursorScope): string {
  const payload = `${position.signedUpAt.getTime()}.${position.id}.${fingerprint(scope)}`;
  return Buffer.from(payload, 'utf8').toString('base64url');
}

/** What a cursor points at: a position, or (a bare user id) a user whose position is looked up. */
export type DecodedCursor = { position: UserPosition } | { userId: string };

function badCursor(why: string): KnownError<'SCHEMA_ERROR'> {
  return new KnownError('SCHEMA_ERROR', { message: `query.cursor: ${why}` });
}

/** Decodes `cursor` for `scope`; SCHEMA_ERROR when it is malformed or belongs to another query. */
export function decodeCursor(cursor: string, scope: CursorScope): DecodedCursor {
  if (isUuid(cursor)) return { userId: cursor.toLowerCase() };
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) throw badCursor('is not a cursor this service issued');
  const [millis, id, print, ...rest] = Buffer.from(cursor, 'base64url').toString('utf8').split('.');
  const time = Number(millis);
  if (rest.length > 0 || !id || !isUuid(id) || !Number.isSafeInteger(time) || time < 0) {
    throw badCursor('is not a cursor this service issued');
  }
  if (print !== fingerprint(scope)) throw badCursor('belongs to a list with another order or filter');
  return { position: { signedUpAt: new Date(time), id } };
}
