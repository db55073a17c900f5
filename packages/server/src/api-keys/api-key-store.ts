/** API key sets: every query on the `api_key_sets` table. Keys are stored as SHA-256 hashes and last four characters. */
import type { Db } from '../storage/db.js';

/** The three kinds of API key, as the store names their columns. */
export const keyColumns = {
  publishableClientKey: { hash: 'publishable_client_key_hash', lastFour: 'publishable_client_key_last_four' },
  secretServerKey: { hash: 'secret_server_key_hash', lastFour: 'secret_server_key_last_four' },
  superSecretAdminKey: { hash: 'super_secret_admin_key_hash', lastFour: 'super_secret_admin_key_last_four' },
} as const;

export type ApiKeyKind = keyof typeof keyColumns;

/** A key set row to insert: each kind's hash and last four, or null when the set has no key of that kind. */
export interface NewKeySetRow {
  id: string;
  projectId: string;
  description: string;
  createdAt: Date;
  expiresAt: Date;
  keys: Record<ApiKeyKind, { hash: string; lastFour: string } | null>;
}

export async function insertKeySet(db: Db, set: NewKeySetRow): Promise<void> {
  const stored: Record<string, string | null> = {};
  for (const kind of Object.keys(keyColumns) as ApiKeyKind[]) {
    stored[keyColumns[kind].hash] = set.keys[kind]?.hash ?? null;
    stored[keyColumns[kind].lastFour] = set.keys[kind]?.lastFour ?? null;
  }
  await db
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
    .execute();
}

/** Marks a key set revoked at `at`; false when the project has no such unrevoked set. */
export async function revokeKeySet(db: Db, projectId: string, keySetId: string, at: Date): Promise<boolean> {
  const result = await db
    .updateTable('api_key_sets')
    .set({ manually_revoked_at: at })
    .where('project_id', '=', projectId)
    .where('id', '=', keySetId)
    .where('manually_revoked_at', 'is', null)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
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
