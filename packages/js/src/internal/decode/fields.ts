/**
 * Field readers for decoding answers (wire-protocol.md §15): each read checks
 * the type and nullability of one field and, on a mismatch, throws a
 * `MalformedAnswerError` naming the field's path (`selected_team.id`,
 * `oauth_providers[0].email`). Keys are typed against the protocol's wire
 * types, so a decoder cannot name a field the wire type does not have, or
 * read it as the wrong type.
 */
import type { Json } from '@latchkey/protocol';
import { MalformedAnswerError } from '../../errors.js';

/** Keys of `W` whose values are assignable to `V`. */
export type KeysOf<W, V> = { [K in keyof W]-?: W[K] extends V ? K : never }[keyof W] & string;
type Item<L> = L extends readonly (infer I)[] ? I : never;

/** Checked reads of one JSON object of an answer whose wire type is `W`. */
export interface Fields<W> {
  string(key: KeysOf<W, string>): string;
  /** A string that may not be empty (tokens, ids). */
  nonEmptyString(key: KeysOf<W, string>): string;
  stringOrNull(key: KeysOf<W, string | null>): string | null;
  number(key: KeysOf<W, number>): number;
  boolean(key: KeysOf<W, boolean>): boolean;
  /** A boolean the answer may leave out. */
  optionalBoolean(key: KeysOf<W, boolean | undefined>): boolean | undefined;
  /** Any JSON value, `null` included; the key must be present. */
  json(key: KeysOf<W, Json>): Json;
  /** Any JSON value; an absent key reads as `null`. */
  optionalJson(key: KeysOf<W, Json | undefined>): Json;
  object<K extends KeysOf<W, object>, T>(key: K, read: (fields: Fields<W[K]>) => T): T;
  objectOrNull<K extends KeysOf<W, object | null>, T>(key: K, read: (fields: Fields<NonNullable<W[K]>>) => T): T | null;
  /**
   * The value of `key` once `accepts` took it; `optional` lets the key be
   * absent (`undefined`). The readers above are this with a fixed check;
   * the rarer ones (`optionalString` below, say) are functions on it, so a
   * bundle holds only those its decoders use.
   */
  value<V>(key: KeysOf<W, V>, accepts: (value: unknown) => boolean, expected: string, optional?: boolean): V;
  list<K extends KeysOf<W, readonly unknown[]>, T>(key: K, read: (fields: Fields<Item<W[K]>>) => T): T[];
}

/** A pure decoder: an answer's body in, checked data out. */
export type Decoder<T> = (body: unknown) => T;

/**
 * Reads `body` as an object of wire type `W` with `read`; the failure names
 * the path from the body (`path` prefixes it for nested objects).
 */
export function readFields<W, T>(body: unknown, read: (fields: Fields<W>) => T, path = ''): T {
  return read(fieldsOf<W>(body, path));
}

/** The decoder of a list answer (`{ items: [...] }`) that reads each item with `read`. */
export const itemsOf =
  <W, T>(read: (fields: Fields<W>) => T): Decoder<T[]> =>
  (body) =>
    readFields<{ items: W[] }, T[]>(body, (list) => list.list('items', read));

/**
 * Runs `decode` on the answer to `call` (`METHOD /path`); a malformed answer
 * is reported as the answer to that call.
 */
export function decodeAnswer<T>(call: string, body: unknown, decode: Decoder<T>): T {
  try {
    return decode(body);
  } catch (error) {
    if (!(error instanceof MalformedAnswerError) || error.call !== null) throw error;
    throw new MalformedAnswerError(call, error.field, error.problem, { cause: error });
  }
}

/**
 * `fields` read as `Base`, a wire type that `W` extends (an entity's client
 * view, which its server view adds to), so the base view's reader can read
 * the extended answer. Sound: every key of `Base` is in `W`, with a type
 * assignable to `Base`'s. (`Fields` itself is invariant in `W`.)
 */
export function asBaseFields<Base, W extends Base>(fields: Fields<W>): Fields<Base> {
  return fields as unknown as Fields<Base>;
}

/** A number the answer may leave out (`undefined` then). */
export function optionalNumber<W>(fields: Fields<W>, key: KeysOf<W, number | undefined>): number | undefined {
  return fields.value(key, Number.isFinite, 'a number', true);
}

/** A string the answer may leave out (`undefined` then). */
export function optionalString<W>(fields: Fields<W>, key: KeysOf<W, string | undefined>): string | undefined {
  return fields.value(key, isString, 'a string', true);
}

/** An object the answer may leave out (`undefined` then), read with `read` and named by its path. */
export function optionalObject<W, K extends KeysOf<W, object | undefined>, T>(
  fields: Fields<W>,
  key: K,
  read: (fields: Fields<NonNullable<W[K]>>) => T,
): T | undefined {
  if (fields.value(key, () => true, '', true) === undefined) return undefined;
  // Present, so the key holds the object type itself; `object` checks that and names the path.
  const present = fields as unknown as Fields<{ [P in K]: NonNullable<W[K]> }>;
  return present.object(key, read);
}

const isString = (value: unknown): value is string => typeof value === 'string';

function fieldsOf<W>(body: unknown, path: string): Fields<W> {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw new MalformedAnswerError(null, path, 'must be a JSON object');
  }
  const record = body as Record<string, unknown>;
  const at = (key: string) => (path ? `${path}.${key}` : key);
  const read = <V>(key: string, accepts: (value: unknown) => boolean, expected: string, optional = false): V => {
    const value = Object.hasOwn(record, key) ? record[key] : undefined;
    if (value === undefined && optional) return value as V;
    if (value === undefined) throw new MalformedAnswerError(null, at(key), 'is missing');
    if (!accepts(value)) throw new MalformedAnswerError(null, at(key), `must be ${expected}`);
    return value as V;
  };
  const orNull = (accepts: (value: unknown) => boolean) => (value: unknown) => value === null || accepts(value);
  return {
    string: (key) => read(key, isString, 'a string'),
    nonEmptyString: (key) => read(key, (v) => isString(v) && v !== '', 'a non-empty string'),
    stringOrNull: (key) => read(key, orNull(isString), 'a string or null'),
    number: (key) => read(key, Number.isFinite, 'a number'),
    boolean: (key) => read(key, (v) => typeof v === 'boolean', 'a boolean'),
    optionalBoolean: (key) => read(key, (v) => typeof v === 'boolean', 'a boolean', true),
    json: (key) => read(key, () => true, 'JSON'),
    optionalJson: (key) => read<Json | undefined>(key, () => true, 'JSON', true) ?? null,
    object: (key, readObject) =>
      readFields(
        read(key, () => true, 'an object'),
        readObject,
        at(key),
      ),
    objectOrNull(key, readObject) {
      const value = read<unknown>(key, () => true, 'an object or null');
      return value === null ? null : readFields(value, readObject, at(key));
    },
    value: read,
    list(key, readItem) {
      const items = read<unknown[]>(key, Array.isArray, 'a list');
      return items.map((item, index) => readFields(item, readItem, `${at(key)}[${index}]`));
    },
  };
}
