/**
 * Reading request bodies: a size limit enforced while streaming, JSON or form
 * parsing, and zod validation. Failures are known errors: BODY_PARSING_ERROR
 * for bytes that are not a readable body, SCHEMA_ERROR for a readable body of
 * the wrong shape (both with a human `details.message`).
 */
import { KnownError } from '@latchkey/protocol';
import { z } from 'zod';
import { validate } from '../common/validate.js';

function bodyError(message: string): KnownError<'BODY_PARSING_ERROR'> {
  return new KnownError('BODY_PARSING_ERROR', { message });
}

/** Reads the body as UTF-8 text, refusing more than `limit` bytes. */
async function readBodyText(request: Request, limit: number): Promise<string> {
  const tooLarge = () => bodyError(`The request body is larger than the limit of ${limit} bytes.`);
  const length = request.headers.get('content-length');
  const declared = Number(length ?? 0);
  if (declared > limit) throw tooLarge();
  let bytes: Uint8Array;
  if (length !== null && Number.isSafeInteger(declared)) {
    // The HTTP server reads no more than the declared length, so the body is read whole: on Node
    // (@hono/node-server) straight from the socket, without the web stream the chunked path needs
    // (8 % of a refresh). The check after covers a host that would not hold to the length.
    bytes = new Uint8Array(await request.arrayBuffer());
    if (bytes.byteLength > limit) throw tooLarge();
  } else {
    // (Reading `request.body` builds @hono/node-server's full Request: only here.)
    if (!request.body) return '';
    bytes = await readLimited(request.body, limit, tooLarge);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw bodyError('The request body is not valid UTF-8.');
  }
}

/** Reads a body of undeclared length chunk by chunk, refusing it as soon as it passes `limit` bytes. */
async function readLimited(
  body: ReadableStream<Uint8Array>,
  limit: number,
  tooLarge: () => Error,
): Promise<Uint8Array> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel().catch(() => {});
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/** True when `text` holds U+0000, which PostgreSQL cannot store in text or jsonb. */
function hasNul(text: string): boolean {
  return text.includes('\u0000');
}

/** In `u` mode this matches only unpaired surrogates; a valid pair is one astral code point. */
const loneSurrogate = /\p{Surrogate}/u;

/**
 * Why a string from a JSON body cannot be stored faithfully, or null. U+0000
 * is refused by PostgreSQL. A lone surrogate is valid JSON but not Unicode:
 * jsonb refuses it (a 500), text columns and argon2 silently turn it into
 * U+FFFD (a changed value; two different passwords that hash alike).
 */
export function textProblem(text: string): string | null {
  if (hasNul(text)) return 'must not contain the NUL character';
  if (loneSurrogate.test(text)) return 'must be valid Unicode (it holds a lone surrogate)';
  return null;
}

/** Deepest nesting a JSON body may have; deeper values are refused before validation walks them. */
const maxJsonDepth = 64;

/**
 * Why a parsed body cannot be stored or validated safely, or null: nesting
 * deeper than `maxJsonDepth`, a string or key `textProblem` refuses, or a key
 * named `__proto__` (zod rebuilds objects by assignment, so such a key would be
 * dropped silently, and clients that merge metadata could be polluted by it).
 * Iterative, so a hostile body cannot exhaust the stack.
 */
function unsafeJson(root: unknown): string | null {
  const stack: [unknown, string, number][] = [[root, 'body', 0]];
  while (stack.length > 0) {
    const [value, path, depth] = stack.pop()!;
    if (typeof value === 'string') {
      const problem = textProblem(value);
      if (problem) return `${path}: ${problem}`;
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= maxJsonDepth) return `${path}: nested deeper than ${maxJsonDepth} levels`;
    for (const [key, item] of Object.entries(value)) {
      if (key === '__proto__') return `${path}: the key "__proto__" is not allowed`;
      const problem = textProblem(key);
      if (problem) return `${path}: keys ${problem}`;
      stack.push([item, `${path}.${key}`, depth + 1]);
    }
  }
  return null;
}

/**
 * Where JSON parsing failed, e.g. ` (at position 12)`, or nothing. V8's own
 * message quotes the body (`Unexpected token 'p', "password=h"...`), which
 * would put a password or token into an error that clients log.
 */
function jsonErrorPosition(error: unknown): string {
  const position = /\bposition (\d+)/.exec((error as Error).message ?? '');
  return position ? ` (at position ${position[1]})` : '';
}

function mediaType(request: Request): string {
  return (request.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase();
}

/**
 * Reads a JSON body and validates it. An empty body reads as `undefined`, so
 * routes that accept no body (decision d) use an optional schema.
 */
export async function readJson<S extends z.ZodType>(request: Request, schema: S, limit: number): Promise<z.infer<S>> {
  const text = await readBodyText(request, limit);
  let value: unknown;
  if (text.trim() !== '') {
    const type = mediaType(request);
    if (type !== 'application/json' && !type.endsWith('+json')) {
      throw bodyError(`Expected content-type application/json, got ${type ? `"${type}"` : 'none'}.`);
    }
    try {
      value = JSON.parse(text);
    } catch (error) {
      throw bodyError(`The request body is not valid JSON${jsonErrorPosition(error)}.`);
    }
    const problem = unsafeJson(value);
    if (problem) throw new KnownError('SCHEMA_ERROR', { message: problem });
  }
  return validate(schema, value);
}

/** The body of a route that declares none: none, or `{}` (decision d). */
export const emptyBody = z.strictObject({}).optional();

/**
 * The body of a DELETE that declares none: none, or any JSON, read (so it must
 * parse) and then ignored, as every DELETE of the original backend ignores it.
 */
export const ignoredBody = z.unknown().transform(() => undefined);

/** Reads an `application/x-www-form-urlencoded` body (the OAuth token endpoint). */
export async function readForm(request: Request, limit: number): Promise<URLSearchParams> {
  const text = await readBodyText(request, limit);
  if (mediaType(request) !== 'application/x-www-form-urlencoded') {
    throw bodyError('Expected content-type application/x-www-form-urlencoded.');
  }
  return new URLSearchParams(text);
}
