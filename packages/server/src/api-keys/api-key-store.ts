/**
 * API key sets: every query on the `api_key_sets` table. Keys are stored as
 * SHA-256 hashes and last four characters. The actions that write them
 * (`api-keys-actions.ts`) record events that drop the key sets every
 * instance cached (`access/auth-cache.ts`).
 */
import { isUuid } from '../common/ids.js';
import type { Db } from '../storage/db.js';
import type { ApiKeySetRow } from '../storage/schema.js';

/** The three kinds of API key, as the store names their columns. */
export const keyColumns = {
  publishableClientKey: { hash: 'publishable_client_key_hash', lastFour: 'publishable_client_key_last_four' },
  secretServerKey: { hash: 'secret_server_key_hash', lastFour: 'secret_server_key_last_four' },
  superSecretAdminKey: { hash: 'super_secret_admin_key_hash', lastFour: 'super_secret_admin_key_last_four' },
} as const;

export type ApiKeyKind = keyof typeof keyColumns;

export const apiKeyKinds = Object.keys(keyColumns) as ApiKeyKind[];

/** A key set row to insert: each kind's hash and last four, or null when the set has no key of that kind. */
export interface NewKeySetRow {
  id: string;
  projectId: string;
  description: string;
  createdAt: Date;
  expiresAt: Date;
  keys: Record<ApiKeyKind, { hash: string; lastFour: string } | null>;
}

export async function insertKeySet(db: Db, set: NewKeySetRow): Promise<ApiKeySetRow> {
  const stored: Record<string, string | null> = {};
  for (const kind of apiKeyKinds) {
    stored[keyColumns[kind].hash] = set.keys[kind]?.hash ?? null;
    stored[keyColumns[kind].lastFour] = set.keys[kind]?.lastFour ?? null;
  }
  return db
    .insertInto('api_key_sets')
    .values({
      id: set.id,
      project_id: set.projectId,
      description: set.description,
      created_at: set.createdAt,
      expires_at: set.expiresAt,
      manually_revoked_at: null,
      ...stored,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The project's key set, or null (also for an id that is not a UUID). */
export async function findKeySet(db: Db, projectId: string, keySetId: string): Promise<ApiKeySetRow | null> {
  if (!isUuid(keySetId)) return null;
  const row = await db
    .selectFrom('api_key_sets')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', keySetId.toLowerCase())
    .executeTakeFirst();
  return row ?? null;
}

/** The project's key sets, newest first (Stack's order), ties by id descending. */
export function listKeySets(db: Db, projectId: string): Promise<ApiKeySetRow[]> {
  return db
    .selectFrom('api_key_sets')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}

/** What an update of a key set may change. */
export interface KeySetChanges {
  description?: string;
  /** Revoke at this time; a set already revoked keeps its first revocation time. */
  revokedAt?: Date;
}

/** Applies `changes` and returns the row, or null when the project has no such set. */
export async function updateKeySet(
  db: Db,
  projectId: string,
  keySetId: string,
  changes: KeySetChanges,
): Promise<ApiKeySetRow | null> {
  if (!isUuid(keySetId)) return null;
  if (changes.description === undefined && !changes.revokedAt) return findKeySet(db, projectId, keySetId);
  const row = await db
    .updateTable('api_key_sets')
    .set((eb) => ({
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      ...(changes.revokedAt
        ? { manually_revoked_at: eb.fn.coalesce('manually_revoked_at', eb.val(changes.revokedAt)) }
        : {}),
    }))
    .where('project_id', '=', projectId)
    .where('id', '=', keySetId.toLowerCase())
    .returningAll()
    .executeTakeFirst();
  return row ?? null;
}

/** A key that may authenticate: its kind, SHA-256 hash and expiry (epoch ms). */
export interface ActiveKey {
  /** The key set it belongs to (named as the actor in the audit log). */
  keySetId: string;
  kind: ApiKeyKind;
  hash: string;
  expiresAtMillis: number;
}

/** The keys of the project's unrevoked sets, expired ones included (the caller checks expiry against its clock). */
export async function findUnrevokedKeys(db: Db, projectId: string): Promise<ActiveKey[]> {
  const rows = await db
    .selectFrom('api_key_sets')
    .select([
      'id',
      'expires_at',
      'publishable_client_key_hash',
      'secret_server_key_hash',
      'super_secret_admin_key_hash',
    ])
    .where('project_id', '=', projectId)
    .where('manually_revoked_at', 'is', null)
    .execute();
  return rows.flatMap((row) =>
    apiKeyKinds.flatMap((kind) => {
      const hash = row[keyColumns[kind].hash];
      return hash ? [{ keySetId: row.id, kind, hash, expiresAtMillis: row.expires_at.getTime() }] : [];
    }),
  );
}

/** Hashes of the project's `kind` keys in sets neither revoked nor expired at `now`. */
export async function findValidKeyHashes(db: Db, projectId: string, kind: ApiKeyKind, now: number): Promise<string[]> {
  const column = keyColumns[kind].hash;
  const rows = await db
    .selectFrom('api_key_sets')
    .select(`${column} as hash`)
    .where('project_id', '=', projectId)
    .where('manually_revoked_at', 'is', null)
    .where('expires_at', '>', new Date(now))
    .where(column, 'is not', null)
    .execute();
  return rows.map((row) => row.hash ?? '');
}
