/**
 * Encryption at rest (signing keys now; OAuth client secrets and SMTP passwords
 * later): AES-256-GCM under a key derived from the master secret with HKDF.
 * The associated data binds a ciphertext to the row it belongs to, so a value
 * copied to another row does not decrypt.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const version = 'v1';
const ivBytes = 12;
/** GCM tag length, pinned: Node otherwise accepts 4- to 16-byte tags, and a 4-byte tag is forged in 2^32 tries. */
const tagBytes = 16;

/** Encrypts and decrypts small values under one derived key. */
export interface Sealer {
  seal(plaintext: string, associatedData: string): string;
  open(sealed: string, associatedData: string): string;
}

/**
 * A sealer whose key is HKDF-SHA256(secret) for `purpose`; different purposes
 * get unrelated keys. Given several secrets (a rotation under way), it seals
 * with the first and opens what any of them sealed.
 */
export function createSealer(secrets: string | readonly string[], purpose: string): Sealer {
  const [first, ...others] = typeof secrets === 'string' ? [secrets] : secrets;
  if (first === undefined) throw new TypeError('createSealer: no secret');
  const sealer = singleSealer(first, purpose);
  if (others.length === 0) return sealer;
  const openers = [sealer, ...others.map((secret) => singleSealer(secret, purpose))];
  return {
    seal: sealer.seal,
    open(sealed, associatedData) {
      let failure: unknown;
      for (const opener of openers) {
        try {
          return opener.open(sealed, associatedData);
        } catch (error) {
          failure = error;
        }
      }
      throw failure;
    },
  };
}

function singleSealer(secret: string, purpose: string): Sealer {
  const key = Buffer.from(hkdfSync('sha256', secret, 'latchkey', `latchkey ${purpose} ${version}`, 32));
  return {
    seal(plaintext, associatedData) {
      const iv = randomBytes(ivBytes);
      const cipher = createCipheriv('aes-256-gcm', key, iv, { authTagLength: tagBytes });
      cipher.setAAD(Buffer.from(associatedData, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `${version}.${iv.toString('base64url')}.${body.toString('base64url')}`;
    },
    open(sealed, associatedData) {
      const [prefix, ivText, bodyText] = sealed.split('.');
      if (prefix !== version || !ivText || !bodyText) throw new Error('unknown encrypted value format');
      const iv = Buffer.from(ivText, 'base64url');
      const body = Buffer.from(bodyText, 'base64url');
      if (iv.length !== ivBytes || body.length < tagBytes) throw new Error('malformed encrypted value');
      const decipher = createDecipheriv('aes-256-gcm', key, iv, { authTagLength: tagBytes });
      decipher.setAAD(Buffer.from(associatedData, 'utf8'));
      decipher.setAuthTag(body.subarray(body.length - tagBytes));
      return Buffer.concat([decipher.update(body.subarray(0, body.length - tagBytes)), decipher.final()]).toString(
        'utf8',
      );
    },
  };
}
