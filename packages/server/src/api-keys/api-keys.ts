/**
 * API key sets (wire-protocol §6): up to three random keys, stored as SHA-256
 * hashes plus their last four characters; the full keys exist only in the
 * answer to their creation.
 */
import { randomUUID } from 'node:crypto';
import { apiKeyPrefixes } from '@latchkey/protocol';
import type { Kysely } from 'kysely';
import { constantTimeEqual, sha256Hex } from '../crypto/hash.js';
import { randomToken } from '../crypto/random.js';
import type { Storage } from '../storage/open-storage.js';
import type { Database } from '../storage/schema.js';

/** The three kinds of API key. */
export type ApiKeyKind = keyof typeof apiKeyPrefixes;

const columns = {
  publishableClientKey: { hash: 'publishable_client_key_hash', lastFour: 'publishable_client_key_last_four' },
  secretServerKey: { hash: 'secret_server_key_hash', lastFour: 'secret_server_key_last_four' },
  superSecretAdminKey: { hash: 'super_secret_admin_key_hash', lastFour: 'super_secret_admin_key_last_four' },
} as const;

/** A new key of `kind`: its prefix and 45 random lowercase Crockford base32 characters. */
export function generateApiKey(kind: ApiKeyKind): string {
  return apiKeyPrefixes[kind] + randomToken();
}

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
 * const { publishableClientKey, secretServerKey } = await createApiKeySet(storage, projectId, { description: 'CI' });
 */
export async function createApiKeySet(
  storage: Pick<Storage, 'db'>,
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
    expiresAtMillis: options.expiresAtMillis ?? now + 100 * 365 * 24 * 3600 * 1000,
  };
  const stored: Record<string, string | null> = {};
  for (const kind of Object.keys(columns) as ApiKeyKind[]) {
    const key = wanted[kind] ? generateApiKey(kind) : undefined;
    if (key) created[kind] = key;
    stored[columns[kind].hash] = key ? sha256Hex(key) : null;
    stored[columns[kind].lastFour] = key ? key.slice(-4) : null;
  }
  await storage.db
    .insertInto('api_key_sets')
    .values({
      id: created.id,
      project_id: projectId,
      description: created.description,
      created_at: new Date(created.createdAtMillis),
      expires_at: new Date(created.expiresAtMillis),
      manually_revoked_at: null,
      ...stored,
    })
    .execute();
  return created;
}

/**
 * Revokes a key set; its keys stop working at once. Returns false when the
 * project has no such key set or it is already revoked.
 *
 * @example
 * const keys = await createApiKeySet(storage, projectId);
 * await revokeApiKeySet(storage, projectId, keys.id); // true
 */
export async function revokeApiKeySet(
  storage: Pick<Storage, 'db'>,
  projectId: string,
  keySetId: string,
  options: { now?: number } = {},
): Promise<boolean> {
  const result = await storage.db
    .updateTable('api_key_sets')
    .set({ manually_revoked_at: new Date(options.now ?? Date.now()) })
    .where('project_id', '=', projectId)
    .where('id', '=', keySetId)
    .where('manually_revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/**
 * True when `key` is a `kind` key of a valid (not revoked, not expired) key
 * set of the project. Hashes are compared in constant time.
 */
export async function isValidApiKey(
  db: Kysely<Database>,
  projectId: string,
  kind: ApiKeyKind,
  key: string,
  now: number,
): Promise<boolean> {
  const column = columns[kind].hash;
  const rows = await db
    .selectFrom('api_key_sets')
    .select(`${column} as hash`)
    .where('project_id', '=', projectId)
    .where('manually_revoked_at', 'is', null)
    .where('expires_at', '>', new Date(now))
    .where(column, 'is not', null)
    .execute();
  const hash = sha256Hex(key);
  let valid = false;
  for (const row of rows) if (constantTimeEqual(row.hash ?? '', hash)) valid = true;
  return valid;
}
