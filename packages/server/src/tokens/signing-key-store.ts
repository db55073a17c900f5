/** Signing keys: every query on the `signing_keys` table. */
import type { JWK } from 'jose';
import type { Db } from '../storage/db.js';
import { json } from '../storage/schema.js';

/** The project owning `kid` and its public JWK, or null. */
export async function findPublicKey(db: Db, kid: string): Promise<{ projectId: string; publicJwk: JWK } | null> {
  const row = await db
    .selectFrom('signing_keys')
    .select(['project_id', 'public_jwk'])
    .where('kid', '=', kid)
    .executeTakeFirst();
  return row ? { projectId: row.project_id, publicJwk: row.public_jwk as JWK } : null;
}

/** The project's public keys, oldest first. */
export async function listPublicKeys(db: Db, projectId: string): Promise<{ kid: string; publicJwk: JWK }[]> {
  const rows = await db
    .selectFrom('signing_keys')
    .select(['kid', 'public_jwk'])
    .where('project_id', '=', projectId)
    .orderBy('created_at')
    .execute();
  return rows.map((row) => ({ kid: row.kid, publicJwk: row.public_jwk as JWK }));
}

/** The project's active key, its private JWK still sealed, or null. */
export async function findActiveKey(
  db: Db,
  projectId: string,
): Promise<{ kid: string; sealedPrivateJwk: string } | null> {
  const row = await db
    .selectFrom('signing_keys')
    .select(['kid', 'private_jwk_encrypted'])
    .where('project_id', '=', projectId)
    .where('active', '=', true)
    .executeTakeFirst();
  return row ? { kid: row.kid, sealedPrivateJwk: row.private_jwk_encrypted } : null;
}

/** Stores a new active key unless the project already has one (two instances may race; one wins). */
export async function insertActiveKeyIfNone(
  db: Db,
  key: { projectId: string; kid: string; publicJwk: JWK; sealedPrivateJwk: string; createdAt: Date },
): Promise<void> {
  await db
    .insertInto('signing_keys')
    .values({
      kid: key.kid,
      project_id: key.projectId,
      public_jwk: json(key.publicJwk),
      private_jwk_encrypted: key.sealedPrivateJwk,
      active: true,
      created_at: key.createdAt,
    })
    .onConflict((oc) => oc.column('project_id').where('active', '=', true).doNothing())
    .execute();
}

/** The most recently created active key of any project, its private JWK still sealed, or null when none exists yet. */
export async function findNewestActiveKey(
  db: Db,
): Promise<{ projectId: string; kid: string; sealedPrivateJwk: string } | null> {
  const row = await db
    .selectFrom('signing_keys')
    .select(['project_id', 'kid', 'private_jwk_encrypted'])
    .where('active', '=', true)
    .orderBy('created_at', 'desc')
    .orderBy('kid')
    .executeTakeFirst();
  return row ? { projectId: row.project_id, kid: row.kid, sealedPrivateJwk: row.private_jwk_encrypted } : null;
}

/** Every stored key's sealed private JWK (for re-sealing under a new master secret). */
export function listSealedKeys(db: Db): Promise<{ project_id: string; kid: string; private_jwk_encrypted: string }[]> {
  return db.selectFrom('signing_keys').select(['project_id', 'kid', 'private_jwk_encrypted']).execute();
}

/** Replaces a key's sealed private JWK. */
export async function updateSealedKey(db: Db, kid: string, sealed: string): Promise<void> {
  await db.updateTable('signing_keys').set({ private_jwk_encrypted: sealed }).where('kid', '=', kid).execute();
}
