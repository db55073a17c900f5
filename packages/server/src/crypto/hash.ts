/** Hashing of stored secrets (API keys, refresh tokens) and constant-time comparison. */
import { createHash, timingSafeEqual } from 'node:crypto';

/** Hex SHA-256 of a UTF-8 string. Secrets we issue carry 225 bits, so no salt or stretching is needed. */
export function sha256Hex(value: string): string {
  return createHash('sha256').update(value, 'utf8').digest('hex');
}

/** Compares two strings in time that depends only on their lengths. */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a, 'utf8');
  const right = Buffer.from(b, 'utf8');
  if (left.length !== right.length) return false;
  return timingSafeEqual(left, right);
}
