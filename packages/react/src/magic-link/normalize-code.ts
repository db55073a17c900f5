/**
 * How a typed or pasted code is read, apart from `CodeInput` (a client
 * component) so that server code can use it too.
 */

/** Characters a code is made of (Crockford's base32: no I, L, O, U). */
const codeAlphabet = /[^0-9A-HJKMNP-TV-Z]/g;

/**
 * A typed or pasted code as the service reads it: upper-cased, spaces and
 * dashes dropped, the look-alikes O, I and L read as 0, 1 and 1, at most
 * `length` characters.
 *
 * @example
 * ```ts
 * normalizeCode(' ab-c1o2 '); // 'ABC102'
 * ```
 */
export function normalizeCode(typed: string, length = 6): string {
  return typed.toUpperCase().replace(/O/g, '0').replace(/[IL]/g, '1').replace(codeAlphabet, '').slice(0, length);
}

/**
 * The digits of a typed or pasted authenticator code (`123 456`, `123-456`), at most `length`.
 *
 * @example
 * ```ts
 * digitsOnly(' 123 456 '); // '123456'
 * ```
 */
export function digitsOnly(typed: string, length = 6): string {
  return typed.replace(/\D/g, '').slice(0, length);
}
