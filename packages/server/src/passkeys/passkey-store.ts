/** Passkeys: every query on `passkeys`. Each is scoped to its project; most to the user too. */
import { randomUUID } from 'node:crypto';
import type { Db } from '../storage/db.js';
import { json, type PasskeyRow } from '../storage/schema.js';

/** A stored passkey, its counter a number (PostgreSQL reads a bigint as text). */
export type Passkey = Omit<PasskeyRow, 'counter'> & { counter: number };

function passkeyOf(row: PasskeyRow): Passkey {
  return { ...row, counter: Number(row.counter) };
}

/** A verified credential to keep for a user. */
export interface NewPasskey {
  projectId: string;
  userId: string;
  credentialId: string;
  publicKey: string;
  counter: number;
  transports: string[];
  name: string;
  aaguid: string;
  backedUp: boolean;
  now: number;
}

/** Stores the passkey; a credential id the project has already is a unique violation (`passkeyCredentialIndex`). */
export async function insertPasskey(db: Db, passkey: NewPasskey): Promise<Passkey> {
  const row = await db
    .insertInto('passkeys')
    .values({
      id: randomUUID(),
      project_id: passkey.projectId,
      user_id: passkey.userId,
      credential_id: passkey.credentialId,
      public_key: passkey.publicKey,
      counter: passkey.counter,
      transports: json(passkey.transports),
      name: passkey.name,
      aaguid: passkey.aaguid,
      backed_up: passkey.backedUp,
      created_at: new Date(passkey.now),
      last_used_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  return passkeyOf(row);
}

/** The unique constraint that keeps a credential id once per project. */
export const passkeyCredentialIndex = 'passkeys_project_id_credential_id_key';

/** The user's passkeys, oldest first. */
export async function listUserPasskeys(db: Db, projectId: string, userId: string): Promise<Passkey[]> {
  const rows = await db
    .selectFrom('passkeys')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map(passkeyOf);
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The user's passkey `id`, or null (also for a malformed id). */
export async function findUserPasskey(db: Db, projectId: string, userId: string, id: string): Promise<Passkey | null> {
  if (!uuidPattern.test(id)) return null;
  const row = await db
    .selectFrom('passkeys')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('id', '=', id.toLowerCase())
    .executeTakeFirst();
  return row ? passkeyOf(row) : null;
}

/** The project's passkey with this credential id (what a sign-in names), or null. */
export async function findPasskeyByCredential(
  db: Db,
  projectId: string,
  credentialId: string,
): Promise<Passkey | null> {
  const row = await db
    .selectFrom('passkeys')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('credential_id', '=', credentialId)
    .executeTakeFirst();
  return row ? passkeyOf(row) : null;
}

/** Renames the user's passkey; the renamed row, or null when it is gone. */
export async function renamePasskeyRow(
  db: Db,
  projectId: string,
  userId: string,
  id: string,
  name: string,
): Promise<Passkey | null> {
  if (!uuidPattern.test(id)) return null;
  const row = await db
    .updateTable('passkeys')
    .set({ name })
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('id', '=', id.toLowerCase())
    .returningAll()
    .executeTakeFirst();
  return row ? passkeyOf(row) : null;
}

/** Deletes the user's passkey; false when there was none. */
export async function deletePasskeyRow(db: Db, projectId: string, userId: string, id: string): Promise<boolean> {
  if (!uuidPattern.test(id)) return false;
  const result = await db
    .deleteFrom('passkeys')
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('id', '=', id.toLowerCase())
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** How many passkeys the user has. */
export async function countUserPasskeys(db: Db, projectId: string, userId: string): Promise<number> {
  const row = await db
    .selectFrom('passkeys')
    .select((eb) => eb.fn.countAll<string | number>().as('count'))
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/**
 * Records a sign-in with the passkey: its new signature counter and the time.
 * Only when the counter went up (or both it and the stored one are 0, an
 * authenticator that keeps none): of two sign-ins with one counter value, one
 * wins. True when this call recorded it.
 */
export async function recordPasskeyUse(db: Db, passkey: Passkey, counter: number, now: number): Promise<boolean> {
  const result = await db
    .updateTable('passkeys')
    .set({ counter, last_used_at: new Date(now) })
    .where('project_id', '=', passkey.project_id)
    .where('id', '=', passkey.id)
    .where((eb) => (counter === 0 ? eb('counter', '=', 0) : eb('counter', '<', counter)))
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
