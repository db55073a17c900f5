/** TOTP codes as an authenticator app computes them (RFC 6238: HMAC-SHA-1, 6 digits, 30 s steps). */
import { createHmac } from 'node:crypto';

const base32Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** The bytes of a base32 secret (`secret_base32`), padding and case ignored. */
export function base32Bytes(text: string): Uint8Array {
  let bits = '';
  for (const char of text.replace(/=+$/, '').toUpperCase()) {
    const value = base32Alphabet.indexOf(char);
    if (value < 0) throw new Error(`not base32: ${char}`);
    bits += value.toString(2).padStart(5, '0');
  }
  const bytes = bits.match(/.{8}/g) ?? [];
  return Uint8Array.from(bytes.map((byte) => Number.parseInt(byte, 2)));
}

/** The six digits for `secret` at `timestampMs` (RFC 4226 §5.3 dynamic truncation of the 30 s step). */
export function totpAt(secret: Uint8Array, timestampMs: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(timestampMs / 30_000)));
  const mac = createHmac('sha1', secret).update(counter).digest();
  const offset = (mac.at(-1) ?? 0) & 0x0f;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}
