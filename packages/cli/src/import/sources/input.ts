/**
 * Reading the sources' export files with the line each record starts on, so a
 * bad record is reported where the user finds it: CSV (RFC 4180, a header row,
 * quoted fields may span lines), JSON Lines, and JSON documents (an array of
 * records, or an object of such arrays).
 */
import { CliError } from '../../internal/errors.js';

/** A record of the input and the 1-based line it starts on. */
export interface Located<T> {
  line: number;
  value: T;
}

/** The input as a whole cannot be read: the run is refused (one line, exit code 1). */
export class UnreadableInput extends CliError {
  override name = 'UnreadableInput';
}

/** Leaves out a UTF-8 byte order mark, which spreadsheet exports often start with. */
function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * The rows of a CSV file with a header row, as objects by column name. A row
 * whose field count differs from the header's is yielded as a problem.
 */
export function* csvRows(text: string): Generator<Located<Record<string, string>> | { line: number; problem: string }> {
  let header: string[] | undefined;
  for (const { line, value: fields } of csvRecords(stripBom(text))) {
    if (!header) {
      header = fields.map((name) => name.trim());
      continue;
    }
    if (fields.length === 1 && fields[0] === '') continue;
    if (fields.length !== header.length) {
      yield { line, problem: `the row has ${fields.length} fields where the header has ${header.length}` };
      continue;
    }
    const row: Record<string, string> = {};
    header.forEach((name, i) => {
      row[name] = fields[i]!;
    });
    yield { line, value: row };
  }
  if (!header) throw new UnreadableInput('the CSV file is empty (no header row)');
}

function* csvRecords(text: string): Generator<Located<string[]>> {
  let line = 1;
  let i = 0;
  while (i < text.length) {
    const start = line;
    const fields: string[] = [];
    let field = '';
    let quoted = false;
    let atFieldStart = true;
    for (; i < text.length; i++) {
      const c = text[i]!;
      if (quoted) {
        if (c === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i++;
          } else quoted = false;
        } else {
          if (c === '\n') line++;
          field += c;
        }
        continue;
      }
      if (c === '"' && atFieldStart) {
        quoted = true;
        atFieldStart = false;
      } else if (c === ',') {
        fields.push(field);
        field = '';
        atFieldStart = true;
      } else if (c === '\n' || c === '\r') {
        if (c === '\r' && text[i + 1] === '\n') i++;
        i++;
        line++;
        break;
      } else {
        field += c;
        atFieldStart = false;
      }
    }
    if (quoted) throw new UnreadableInput(`line ${start}: a quoted CSV field is never closed`);
    fields.push(field);
    yield { line: start, value: fields };
  }
}

/** Where each element of a JSON array starts, given the offset of the array's `[`. */
function elementLines(text: string, open: number): number[] {
  const lines: number[] = [];
  let line = 1;
  for (let i = 0; i < open; i++) if (text.charCodeAt(i) === 10) line++;
  let depth = 0;
  let inString = false;
  let expectElement = false;
  for (let i = open; i < text.length; i++) {
    const c = text[i]!;
    if (c === '\n') line++;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r' || c === '\n') continue;
    if (expectElement && depth === 1 && c !== ']') {
      lines.push(line);
      expectElement = false;
    }
    if (c === '"') inString = true;
    else if (c === '[' || c === '{') {
      depth++;
      if (depth === 1) expectElement = true;
    } else if (c === ']' || c === '}') {
      depth--;
      if (depth === 0) break;
    } else if (c === ',' && depth === 1) expectElement = true;
  }
  return lines;
}

/** The offset of the `[` that opens the array at `path` (object keys from the top) of a JSON document. */
function arrayOffset(text: string, path: string[]): number {
  // keys[d] is the key whose value is being read at depth d + 1.
  const keys: (string | undefined)[] = [];
  let depth = 0;
  let inString = false;
  let stringStart = -1;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') {
        inString = false;
        if (keys[depth - 1] === undefined && /^\s*:/.test(text.slice(i + 1, i + 16))) {
          keys[depth - 1] = JSON.parse(text.slice(stringStart, i + 1)) as string;
        }
      }
      continue;
    }
    if (c === '"') {
      inString = true;
      stringStart = i;
    } else if (c === '{' || c === '[') {
      if (c === '[' && depth === path.length && path.every((k, d) => keys[d] === k)) return i;
      depth++;
      keys[depth - 1] = undefined;
    } else if (c === '}' || c === ']') {
      depth--;
      keys.length = depth;
    } else if (c === ',') keys[depth - 1] = undefined;
  }
  return -1;
}

/** Parses a whole JSON document; a syntax error refuses the run (with its position). */
export function parseJsonDocument(text: string): unknown {
  try {
    return JSON.parse(stripBom(text));
  } catch (error) {
    throw new UnreadableInput(`the file is not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * The elements of a JSON array: the document itself, or the array at `path`
 * (object keys) in it, each with the line it starts on.
 */
export function jsonArrayElements(text: string, document: unknown, ...path: string[]): Located<unknown>[] {
  const source = stripBom(text);
  let array: unknown = document;
  for (const key of path) array = (array as Record<string, unknown> | null)?.[key];
  const open = path.length === 0 ? source.indexOf('[') : arrayOffset(source, path);
  if (!Array.isArray(array)) return [];
  const lines = elementLines(source, open);
  return array.map((value, i) => ({ line: lines[i] ?? 0, value }));
}

/**
 * The records of a JSON Lines file (blank lines skipped); a line that is not
 * JSON is yielded as a problem.
 */
function* jsonLines(text: string): Generator<Located<unknown> | { line: number; problem: string }> {
  const lines = stripBom(text).split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.trim();
    if (raw === '') continue;
    try {
      yield { line: i + 1, value: JSON.parse(raw) };
    } catch {
      yield { line: i + 1, problem: 'the line is not valid JSON' };
    }
  }
}

/** Whether the text looks like a JSON document or JSON Lines rather than CSV. */
export function looksLikeJson(text: string): boolean {
  const first = stripBom(text).trimStart()[0];
  return first === '{' || first === '[';
}

/**
 * Either JSON Lines (one object a line) or a JSON array document: JSON Lines
 * when the text starts with `{` and its first line is a whole object.
 */
export function jsonRecords(
  text: string,
): Generator<Located<unknown> | { line: number; problem: string }> | Located<unknown>[] {
  const body = stripBom(text).trimStart();
  if (body.startsWith('{')) {
    const firstLine = body.slice(0, body.indexOf('\n') === -1 ? undefined : body.indexOf('\n'));
    try {
      JSON.parse(firstLine);
      return jsonLines(text);
    } catch {
      // A pretty-printed single object: not JSON Lines.
    }
  }
  const document = parseJsonDocument(text);
  if (Array.isArray(document)) return jsonArrayElements(text, document);
  throw new UnreadableInput('expected a JSON array of records or JSON Lines');
}

/** A value of a record as an object (JSON text in CSV cells is parsed), or null. */
export function asObject(value: unknown): Record<string, unknown> | null {
  if (value === null || value === undefined || value === '') return null;
  if (typeof value === 'string') {
    try {
      return asObject(JSON.parse(value));
    } catch {
      return null;
    }
  }
  return typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
}

/** A non-empty string, or null (CSV cells: empty and `\N`/NULL are null). */
export function text(value: unknown): string | null {
  if (typeof value === 'number') return String(value);
  if (typeof value !== 'string') return null;
  const trimmed = value.trim();
  return trimmed === '' || trimmed === '\\N' || trimmed === 'NULL' ? null : trimmed;
}

/** A boolean from JSON or a CSV cell (`true`/`t`/`1`/`yes`). */
export function bool(value: unknown): boolean {
  if (typeof value === 'boolean') return value;
  if (typeof value === 'number') return value !== 0;
  const t = text(value)?.toLowerCase();
  return t === 'true' || t === 't' || t === '1' || t === 'yes';
}

/**
 * Milliseconds since the epoch from an ISO date, a PostgreSQL timestamp
 * (`2024-01-02 03:04:05.123+00`), a number of ms or an `{ "$date": ... }`.
 */
export function millis(value: unknown): number | null {
  if (typeof value === 'number' && Number.isFinite(value)) return Math.trunc(value);
  const obj = value && typeof value === 'object' ? (value as Record<string, unknown>) : null;
  if (obj && '$date' in obj) return millis(obj.$date);
  const t = text(value);
  if (t === null) return null;
  if (/^\d+$/.test(t)) return Number(t);
  let iso = t.replace(' ', 'T');
  if (/[+-]\d\d$/.test(iso)) iso += ':00';
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? null : ms;
}
