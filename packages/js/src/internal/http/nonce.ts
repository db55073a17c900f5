/** The per-request cache buster `x-stack-random-nonce` (wire-protocol.md §2). */

const crockfordAlphabet = '0123456789abcdefghjkmnpqrstvwxyz';
const nonceLength = 45;

/** 45 random lowercase Crockford base32 characters. */
export function randomNonce(): string {
  const bytes = new Uint8Array(nonceLength);
  globalThis.crypto.getRandomValues(bytes);
  let out = '';
  for (const byte of bytes) out += crockfordAlphabet[byte & 31];
  return out;
}
