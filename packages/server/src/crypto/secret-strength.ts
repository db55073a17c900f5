/**
 * Whether a master secret is strong enough. The length alone let
 * `xxxxxxxx…` (32 characters, no secret at all) through; this also refuses a
 * repeated unit, too few different characters, and a low entropy estimated
 * from the secret's own characters (Shannon entropy of their frequencies,
 * times the length). It is a floor against obvious mistakes, not a proof of
 * randomness: generate the secret (`openssl rand -base64 32`). A random
 * 32-character hex or any base64 secret of 32+ characters passes.
 */

/** Fewest characters a master secret may have. */
const minimumSecretLength = 32;
/** Least entropy estimate, in bits (a random 32-character hex secret estimates about 115). */
const minimumSecretBits = 80;

/** What is wrong with `secret` as a master secret, as a phrase ("it …"), or null. */
export function secretWeakness(secret: string): string | null {
  if (secret.length < minimumSecretLength) return `it is shorter than ${minimumSecretLength} characters`;
  if (/^(.{1,8}?)\1+$/s.test(secret)) return 'it repeats a few characters';
  const counts = new Map<string, number>();
  for (const char of secret) counts.set(char, (counts.get(char) ?? 0) + 1);
  if (counts.size < 8) return 'it uses fewer than 8 different characters';
  let bitsPerChar = 0;
  for (const count of counts.values()) {
    const share = count / secret.length;
    bitsPerChar -= share * Math.log2(share);
  }
  if (bitsPerChar * secret.length < minimumSecretBits) return 'it is too predictable';
  return null;
}
