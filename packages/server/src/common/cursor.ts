/**
 * Paging cursors: opaque to clients and bound to the query they came from. A
 * cursor carries a few position fields and a fingerprint of the list's order
 * and filters, so a cursor from one list is refused on another instead of
 * silently skipping or repeating rows. Lists (`GET /users`, `GET
 * /audit-events`) decide what the fields are and check their values.
 */
import { createHash } from 'node:crypto';
import { KnownError } from '@latchkey/protocol';

function fingerprint(scope: unknown): string {
  return createHash('sha256').update(JSON.stringify(scope)).digest('base64url').slice(0, 10);
}

/** The cursor naming `fields` (no `.` in them) in the list described by `scope`. */
export function encodeCursor(fields: readonly string[], scope: unknown): string {
  return Buffer.from([...fields, fingerprint(scope)].join('.'), 'utf8').toString('base64url');
}

/** SCHEMA_ERROR on `query.cursor`, saying `why`. */
export function badCursor(why = 'is not a cursor this service issued'): KnownError<'SCHEMA_ERROR'> {
  return new KnownError('SCHEMA_ERROR', { message: `query.cursor: ${why}` });
}

/**
 * The `count` fields of `cursor`, issued for the list `scope`; SCHEMA_ERROR
 * when it is malformed or belongs to another list.
 */
export function decodeCursor(cursor: string, scope: unknown, count: number): string[] {
  if (!/^[A-Za-z0-9_-]{1,200}$/.test(cursor)) throw badCursor();
  const parts = Buffer.from(cursor, 'base64url').toString('utf8').split('.');
  if (parts.length !== count + 1) throw badCursor();
  if (parts[count] !== fingerprint(scope)) throw badCursor('belongs to a list with another order or filter');
  return parts.slice(0, count);
}
