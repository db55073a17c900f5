/** Random identifiers and secrets: lowercase Crockford base32 from the system CSPRNG. */
import { randomBytes } from 'node:crypto';

/** Lowercase Crockford base32: digits and letters without i, l, o, u. */
export const crockfordAlphabet = '0123456789abcdefghjkmnpqrstvwxyz';

/**
 * `length` random lowercase Crockford base32 characters (5 bits each). Each
 * byte is reduced modulo 32, which is unbiased because 256 is a multiple of 32.
 */
export function randomCrockford(length: number): string {
  const bytes = randomBytes(length);
  let out = '';
  for (const byte of bytes) out += crockfordAlphabet[byte & 31];
  return out;
}

/** A refresh token, verification code or key body: 45 characters, 225 bits. */
export function randomToken(): string {
  return randomCrockford(45);
}

/** The random half of this process's request ids, drawn once. */
const requestIdPrefix = randomCrockford(8);
let requestCount = 0;

/**
 * A request id: 16 characters, unique in this process's life and, by its
 * random first half, across processes. Not a secret, so not drawn from the
 * CSPRNG per request (a system call on every request).
 */
export function randomRequestId(): string {
  requestCount = (requestCount + 1) % 32 ** 8;
  let counter = '';
  for (let rest = requestCount, i = 0; i < 8; i++, rest = Math.floor(rest / 32)) {
    counter = crockfordAlphabet[rest % 32] + counter;
  }
  return requestIdPrefix + counter;
}
