/**
 * SQL as an operator runs it, past the stores and the actions (so no event is
 * recorded and the recorder announces nothing): for tests of what the
 * database itself announces (the triggers of migration 0009).
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
