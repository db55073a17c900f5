import {
  csvRows,
  jsonArrayElements,
  type Located,
  looksLikeJson,
  parseJsonDocument,
  UnreadableInput,
} from './input.js';

type Row = Located<Record<string, unknown>> | { line: number; problem: string };

/**
 * The rows of a database table exported as CSV (a header row) or JSON (an
 * array of row objects, or an object holding the array under one of `keys`),
 * each with the line it starts on.
 */
export function* tableRows(input: string, keys: string[]): Generator<Row> {
  if (!looksLikeJson(input)) {
    yield* csvRows(input);
    return;
  }
  const document = parseJsonDocument(input);
  let elements: Located<unknown>[];
  if (Array.isArray(document)) elements = jsonArrayElements(input, document);
  else {
    const key = keys.find((k) => Array.isArray((document as Record<string, unknown> | null)?.[k]));
    if (key === undefined) throw new UnreadableInput(`expected a JSON array of rows or an object with "${keys[0]}"`);
    elements = jsonArrayElements(input, document, key);
  }
  for (const { line, value } of elements) {
    if (value && typeof value === 'object' && !Array.isArray(value))
      yield { line, value: value as Record<string, unknown> };
    else yield { line, problem: 'the row is not a JSON object' };
  }
}

/** The rows of a second table that may sit in the main JSON document under one of `keys`. */
export function* sideTable(main: string, side: string | undefined, keys: string[]): Generator<Row> {
  if (side !== undefined) {
    yield* tableRows(side, keys);
    return;
  }
  if (!looksLikeJson(main)) return;
  const document = parseJsonDocument(main);
  if (Array.isArray(document) || !keys.some((k) => Array.isArray((document as Record<string, unknown>)[k]))) return;
  yield* tableRows(main, keys);
}

/** A column by any of its names (`emailVerified` / `email_verified`). */
export function column(row: Record<string, unknown>, ...names: string[]): unknown {
  for (const name of names) if (row[name] !== undefined) return row[name];
  return undefined;
}
