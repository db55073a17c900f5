/**
 * SQL as an operator runs it, past the stores (and past `storage/write-watch.ts`,
 * which sees only statements the stores build): for tests of what the
 * database itself announces.
 */
import { sql } from 'kysely';
import { dbOf, type Storage } from '../storage/open-storage.js';

/**
 * A tagged template that runs its statement on `storage`, values as parameters.
 *
 * @example
 * await operatorSql(storage)`update users set display_name = ${name} where id = ${id}`;
 */
export function operatorSql(storage: Storage) {
  return (strings: TemplateStringsArray, ...values: unknown[]) => sql(strings, ...values).execute(dbOf(storage));
}
