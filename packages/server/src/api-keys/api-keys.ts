/**
 * API key sets (wire-protocol §6): up to three random keys, stored as SHA-256
 * hashes plus their last four characters; the full keys exist only in the
 * answer to their creation.
 */
import { randomUUID } from 'node:crypto';
import { apiKeyPrefixes } from '@latchkey/protocol';
import { constantTimeEqual, sha256Hex } from '../crypto/hash.js';
import { randomToken } from '../crypto/random.js';
import type { Db } from '../storage/db.js';
import { type ActiveKey, type ApiKeyKind, apiKeyKinds, findValidKeyHashes, insertKeySet } from './api-key-store.js';

export type { ApiKeyKind } from './api-key-store.js';

/** A new key of `kind`: its prefix and 45 random lowercase Crockford base32 characters. */
function generateApiKey(kind: ApiKeyKind): string {
  return apiKeyPrefixes[kind] + randomToken();
}

/** How long a key set lives when its creator gives no expiry: 100 years. */
const defaultKeySetLifetimeMs = 100 * 365 * 24 * 3600 * 1000;

/** Options of `createApiKeySet`; by default all three keys, valid for 100 years. */
export interface CreateApiKeySetOptions {
  description?: string;
  expiresAtMillis?: number;
  hasPublishableClientKey?: boolean;
  hasSecretServerKey?: boolean;
  hasSuperSecretAdminKey?: boolean;
  /** Creation time in epoch ms; default now. */
  now?: number;
}

/** A key set as created: the only time its keys are visible in full. */
export interface CreatedApiKeySet {
  id: string;
  description: string;
  createdAtMillis: number;
  expiresAtMillis: number;
  publishableClientKey?: string;
  secretServerKey?: string;
  superSecretAdminKey?: string;
}

/**
 * Creates a key set for a project and returns its plaintext keys (shown once).
 *
 * @example
 * const { publishableClientKey, secretServerKey } = await createKeySet(trx, projectId, { description: 'CI' });
 */
export async function createKeySet(
  db: Db,
  projectId: string,
  options: CreateApiKeySetOptions = {},
): Promise<CreatedApiKeySet> {
  const now = options.now ?? Date.now();
  const wanted: Record<ApiKeyKind, boolean> = {
    publishableClientKey: options.hasPublishableClientKey ?? true,
    secretServerKey: options.hasSecretServerKey ?? true,
    superSecretAdminKey: options.hasSuperSecretAdminKey ?? true,
  };
  const created: CreatedApiKeySet = {
    id: randomUUID(),
    description: options.description ?? '',
    createdAtMillis: now,
    expiresAtMillis: options.expiresAtMillis ?? now + defaultKeySetLifetimeMs,
  };
  const keys = {} as Record<ApiKeyKind, { hash: string; lastFour: string } | null>;
  for (const kind of apiKeyKinds) {
    const key = wanted[kind] ? generateApiKey(kind) : undefined;
    if (key) created[kind] = key;
    keys[kind] = key ? { hash: sha256Hex(key), lastFour: key.slice(-4) } : null;
  }
  await insertKeySet(db, {
    id: created.id,
    projectId,
    description: created.description,
    createdAt: new Date(created.createdAtMillis),
    expiresAt: new Date(created.expiresAtMillis),
    keys,
  });
  return created;
}

/**
 * True when `key` is one of `keys` not expired at `now`. Hashes are compared
 * in constant time, and all of them, so the time taken says nothing of which matched.
 */
export function matchesValidKey(keys: readonly ActiveKey[], key: string, now: number): string | null {
  const hash = sha256Hex(key);
  let keySetId: string | null = null;
  for (const stored of keys) {
    if (constantTimeEqual(stored.hash, hash) && stored.expiresAtMillis > now) keySetId = stored.keySetId;
  }
  return keySetId;
}

/**
 * True when `key` is a `kind` key of a valid (not revoked, not expired) key
 * set of the project, read from the database. Hashes are compared in constant time.
 */
export async function isValidApiKey(
  db: Db,
  projectId: string,
  kind: ApiKeyKind,
  key: string,
  now: number,
): Promise<boolean> {
  // PostgreSQL cannot hold U+0000 in text: such an id names no project.
  if (projectId.includes('\u0000')) return false;
  const hash = sha256Hex(key);
  let valid = false;
  for (const stored of await findValidKeyHashes(db, projectId, kind, now)) {
    if (constantTimeEqual(stored, hash)) valid = true;
  }
  return valid;
}
