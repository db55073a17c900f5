/**
 * The dashboard's publishable key: the key its page signs owners in to the
 * `internal` project with, which `/dashboard/config.json` hands out (a
 * publishable key is public by design). It is derived from the master secret
 * with HKDF, so every instance of a deployment and every restart arrive at
 * the same key without storing it anywhere in the clear, and its key set is
 * inserted (as a hash, like every key) under an id derived the same way, so
 * instances starting together insert it once. A rotated secret derives a new
 * key (and key set); the old one stays valid until revoked.
 */
import { hkdfSync } from 'node:crypto';
import { apiKeyPrefixes, internalProjectId } from '@latchkey/protocol';
import { sha256Hex } from '../crypto/hash.js';
import { crockfordAlphabet } from '../crypto/random.js';
import type { Db } from '../storage/db.js';

/** Bytes derived from the secret for `purpose`. */
function derived(secret: string, purpose: string, length: number): Buffer {
  return Buffer.from(hkdfSync('sha256', secret, 'latchkey', `latchkey dashboard ${purpose} v1`, length));
}

/** The dashboard's publishable key under `secret`: `pck_` and 45 Crockford base32 characters, like every key. */
export function dashboardPublishableKey(secret: string): string {
  let body = '';
  for (const byte of derived(secret, 'publishable key', 45)) body += crockfordAlphabet[byte & 31];
  return apiKeyPrefixes.publishableClientKey + body;
}

/** The id of its key set: a UUID (version 4 layout) from the secret. */
function dashboardKeySetId(secret: string): string {
  const bytes = derived(secret, 'key set id', 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x40;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/**
 * Makes sure the internal project has the dashboard's key set under `secret`
 * and returns the key. Idempotent; safe for instances starting at once.
 *
 * @example
 * const internalPublishableClientKey = await ensureDashboardKey(db, secret);
 */
export async function ensureDashboardKey(db: Db, secret: string, now = Date.now()): Promise<string> {
  const key = dashboardPublishableKey(secret);
  await db
    .insertInto('api_key_sets')
    .values({
      id: dashboardKeySetId(secret),
      project_id: internalProjectId,
      description: 'Dashboard sign-in (derived from the master secret)',
      created_at: new Date(now),
      expires_at: new Date(now + 100 * 365 * 24 * 3600 * 1000),
      manually_revoked_at: null,
      publishable_client_key_hash: sha256Hex(key),
      publishable_client_key_last_four: key.slice(-4),
      secret_server_key_hash: null,
      secret_server_key_last_four: null,
      super_secret_admin_key_hash: null,
      super_secret_admin_key_last_four: null,
    })
    .onConflict((conflict) => conflict.column('id').doNothing())
    .execute();
  return key;
}
