/**
 * `KnownError`: the one error class for every code of the catalogue, and its
 * wire decoder. The English wording is not needed here: an error decoded from
 * the service carries the service's message, the SDK gives its own, and
 * `encodeKnownError` (the service side) words the rest from `errorMessages`.
 * So the SDK's bundle holds no wording table.
 *
 * @example
 * ```ts
 * try { await app.signInWithCredential({ email, password }); }
 * catch (e) {
 *   if (isKnownError(e, 'PASSWORD_REQUIREMENTS_NOT_MET')) console.log(e.code); // narrowed
 * }
 * ```
 */
import {
  type CodesIn,
  catalogueRow,
  type DetailFieldType,
  type KnownErrorCode,
  type KnownErrorDetails,
  type KnownErrorFamily,
} from './catalogue.js';
import { codeTraits, familiesOf, isKnownErrorCode } from './code-index.js';

/** Constructor arguments after the code: details (only for codes that have them), then an optional message. */
type ErrorArgs<C extends KnownErrorCode> =
  KnownErrorDetails<C> extends undefined
    ? [details?: undefined, message?: string]
    : [details: KnownErrorDetails<C>, message?: string];

/**
 * An error the protocol knows by code. `status` is the HTTP status the service
 * answers with. Built without a `message`, its message is its code, which
 * `messageFor(code, details)` words and `encodeKnownError` sends worded.
 *
 * @example
 * ```ts
 * throw new KnownError('PASSWORD_TOO_SHORT', { min_length: 8 }, 'Use at least 8 characters.');
 * ```
 */
export class KnownError<C extends KnownErrorCode = KnownErrorCode> extends Error {
  override readonly name = 'KnownError';
  readonly code: C;
  readonly status: number;
  readonly details: KnownErrorDetails<C>;

  constructor(code: C, ...[details, message]: ErrorArgs<C>) {
    super(message ?? code);
    this.code = code;
    this.status = codeTraits(code).status;
    this.details = details as KnownErrorDetails<C>;
  }

  /** True when this error is `codeOrFamily` or belongs to that family; narrows `code`. */
  is<F extends KnownErrorCode | KnownErrorFamily>(codeOrFamily: F): this is KnownError<CodesIn<F> & C> {
    return (this.code as string) === codeOrFamily || familiesOf(this.code).includes(codeOrFamily as KnownErrorFamily);
  }

  /** The JSON body of this error, with its message as it is (see `encodeKnownError` for the worded one). */
  toJSON(): KnownErrorBody {
    const body: KnownErrorBody = { code: this.code, error: this.message };
    const nulls = codeTraits(this.code).nullDetails;
    if (nulls) body.details = { ...nullDefaults(nulls), ...((this.details as object | undefined) ?? {}) };
    return body;
  }
}

/**
 * The body of a known-error answer (wire-protocol.md §4.1).
 *
 * @example
 * ```ts
 * const body: KnownErrorBody = { code: 'USER_EMAIL_ALREADY_EXISTS', error: 'User email already exists.' };
 * ```
 */
export interface KnownErrorBody {
  code: string;
  error: string;
  details?: Record<string, unknown>;
}

/**
 * Raised by the SDK when the service answers with a code it does not know
 * ("Unknown KnownError code"), so callers can still see the code and body.
 *
 * @example
 * ```ts
 * catch (e) { if (e instanceof UnknownKnownErrorCode) console.warn(e.code, e.status, e.body); }
 * ```
 */
export class UnknownKnownErrorCode extends Error {
  override readonly name = 'UnknownKnownErrorCode';
  constructor(
    readonly code: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(unknownCodeMessage(code));
  }
}

/** The message of `UnknownKnownErrorCode` (spec §7: 'Unknown KnownError code'). */
export const unknownCodeMessage = (code: string): string => `Unknown KnownError code: ${code}`;

/**
 * True when `value` is a `KnownError`, optionally of the given code or family (narrows).
 *
 * @example
 * ```ts
 * if (isKnownError(e, 'PASSWORD_REQUIREMENTS_NOT_MET')) showPasswordHint(e.code);
 * ```
 */
export function isKnownError<F extends KnownErrorCode | KnownErrorFamily = KnownErrorCode>(
  value: unknown,
  codeOrFamily?: F,
): value is KnownError<CodesIn<F>> {
  if (!(value instanceof KnownError)) return false;
  return codeOrFamily === undefined || value.is(codeOrFamily);
}

/**
 * Rebuild a known error from an answer's `x-stack-known-error` header and JSON
 * body. Returns `UnknownKnownErrorCode` for a code outside the catalogue or a
 * body that does not match the header. The message is the body's `error`.
 *
 * @example
 * ```ts
 * const code = response.headers.get('x-stack-known-error');
 * if (code) throw decodeKnownError(code, status, await response.json());
 * ```
 */
export function decodeKnownError(
  headerCode: string,
  status: number,
  body: unknown,
): KnownError | UnknownKnownErrorCode {
  const parsed = body as Partial<KnownErrorBody> | null;
  if (!isKnownErrorCode(headerCode) || !parsed || typeof parsed !== 'object' || parsed.code !== headerCode) {
    return new UnknownKnownErrorCode(headerCode, status, body);
  }
  const nulls = codeTraits(headerCode).nullDetails;
  const raw = parsed.details && typeof parsed.details === 'object' ? parsed.details : undefined;
  const details = nulls ? { ...nullDefaults(nulls), ...raw } : undefined;
  const message = typeof parsed.error === 'string' && parsed.error ? parsed.error : undefined;
  return new KnownError(headerCode, details as never, message);
}

/**
 * Why `details` does not match the catalogue's shape for `code`, or `null`
 * when it does. The service's own tests use it to check every answer.
 *
 * @example
 * ```ts
 * detailsProblem('PASSWORD_TOO_SHORT', { min_length: '8' }); // 'details.min_length must be number'
 * ```
 */
export function detailsProblem(code: KnownErrorCode, details: unknown): string | null {
  const wanted = catalogueRow(code).details;
  if (!wanted) return null;
  if (!details || typeof details !== 'object' || Array.isArray(details)) return 'details must be an object';
  for (const [key, type] of Object.entries(wanted)) {
    const value = (details as Record<string, unknown>)[key];
    if (!matches(type, value)) return `details.${key} must be ${type}`;
  }
  return null;
}

function matches(type: DetailFieldType, value: unknown): boolean {
  switch (type) {
    case 'string':
      return typeof value === 'string' && value.length > 0;
    case 'number':
      return typeof value === 'number';
    case 'string[]':
      return Array.isArray(value) && value.every((v) => typeof v === 'string');
    case 'null':
      return value === null || value === undefined;
    case 'string?':
      return value == null || typeof value === 'string';
    case 'number?':
      return value == null || typeof value === 'number';
    case 'json':
      return value !== undefined;
  }
}

/** The details a code fills with `null` when they are left out (`expired_at_millis`). */
function nullDefaults(fields: readonly string[]): Record<string, null> {
  return Object.fromEntries(fields.map((field) => [field, null]));
}
