/**
 * Recovery codes: ten random codes shown once when TOTP is turned on (or the
 * set is replaced), each of which stands in for a TOTP code once. A code is
 * four groups of four lowercase Crockford base32 characters (80 bits),
 * `k3m9-x2p7-...`; only its hash is stored, salted with the user's id, and it
 * is found by that hash, so no stored code is compared character by character.
 */
import { z } from 'zod';
import { sha256Hex } from '../crypto/hash.js';
import { randomCrockford } from '../crypto/random.js';

/** How many codes a set holds. */
const recoveryCodeCount = 10;

const groups = 4;
const groupLength = 4;

/** A recovery code in a request: as shown, in any case, with or without its dashes. */
export const recoveryCode = z
  .string()
  .max(64)
  .meta({ description: 'One of the recovery codes shown when TOTP was turned on (`xxxx-xxxx-xxxx-xxxx`).' });

/** A new set of codes, as shown to the user. */
export function newRecoveryCodes(): string[] {
  return Array.from({ length: recoveryCodeCount }, () => {
    const body = randomCrockford(groups * groupLength);
    return body.match(new RegExp(`.{${groupLength}}`, 'g'))!.join('-');
  });
}

/**
 * The stored hash of a code of the user, whatever its case, dashes and
 * spaces; null for text that cannot be a code (no lookup needed).
 */
export function recoveryCodeHash(userId: string, code: string): string | null {
  const body = code.toLowerCase().replace(/[\s-]/g, '');
  if (!/^[0-9a-hjkmnp-tv-z]{16}$/.test(body)) return null;
  return sha256Hex(`recovery-code:${userId.toLowerCase()}:${body}`);
}
