/**
 * Encryption at rest (signing keys now; OAuth client secrets and SMTP passwords
 * later): AES-256-GCM under a key derived from the master secret with HKDF.
 * The associated data binds a ciphertext to the row it belongs to, so a value
 * copied to another row does not decrypt.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const version = 'v1';

/** Encrypts and decrypts small values under one derived key. */
export interface Sealer {
  seal(plaintext: string, associatedData: string): string;
  open(sealed: string, associatedData: string): string;
}

/** A sealer whose key is HKDF-SHA256(secret) for `purpose`; different purposes get unrelated keys. */
export function createSealer(secret: string, purpose: string): Sealer {
  const key = Buffer.from(hkdfSync('sha256', secret, 'latchkey', `latchkey ${purpose} ${version}`, 32));
  return {
    seal(plaintext, associatedData) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      cipher.setAAD(Buffer.from(associatedData, 'utf8'));
      const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
      return `${version}.${iv.toString('base64url')}.${body.toString('base64url')}`;
    },
    open(sealed, associatedData) {
      const [tag, ivText, bodyText] = sealed.split('.');
      if (tag !== version || !ivText || !bodyText) throw new Error('unknown encrypted value format');
      const body = Buffer.from(bodyText, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(ivText, 'base64url'));
      decipher.setAAD(Buffer.from(associatedData, 'utf8'));
      decipher.setAuthTag(body.subarray(body.length - 16));
      return Buffer.concat([decipher.update(body.subarray(0, body.length - 16)), decipher.final()]).toString('utf8');
    },
  };
}
