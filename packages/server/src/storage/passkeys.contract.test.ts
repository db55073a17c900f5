/** The storage contract of passkeys (`passkeys/passkey-store.ts`), on every backend. */
import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import {
  countUserPasskeys,
  deletePasskeyRow,
  findPasskeyByCredential,
  findUserPasskey,
  insertPasskey,
  listUserPasskeys,
  type NewPasskey,
  passkeyCredentialIndex,
  recordPasskeyUse,
  renamePasskeyRow,
} from '../passkeys/passkey-store.js';
import { describeEachBackend, useBackendStorage } from '../test-support/backends.js';
import { projectRow, rowsOf, userRow } from '../test-support/contract-rows.js';
import { deleteUserRow } from '../users/user-store.js';
import { dbOf } from './open-storage.js';
import { isUniqueViolation } from './schema.js';

describeEachBackend('passkey storage contract', (backend) => {
  const storage = useBackendStorage(backend);
  const db = () => dbOf(storage());
  const now = Date.UTC(2026, 0, 2, 3, 4, 5, 678);

  const passkey = (projectId: string, userId: string, more: Partial<NewPasskey> = {}): NewPasskey => ({
    projectId,
    userId,
    credentialId: randomUUID(),
    publicKey: 'pQECAyYgASFYIA',
    counter: 0,
    transports: ['internal', 'hybrid'],
    name: 'Passkey',
    aaguid: '00000000-0000-0000-0000-000000000000',
    backedUp: true,
    now,
    ...more,
  });

  it('keeps a passkey as given, its transports as JSON and a uint32 counter, found by credential in its project only', async () => {
    const projectId = await projectRow(db());
    const user = await userRow(db(), projectId);
    const stored = await insertPasskey(db(), passkey(projectId, user.id, { counter: 4_294_967_295 }));
    expect(stored).toMatchObject({
      user_id: user.id,
      counter: 4_294_967_295,
      transports: ['internal', 'hybrid'],
      backed_up: true,
      created_at: new Date(now),
      last_used_at: null,
    });
    expect(await findPasskeyByCredential(db(), projectId, stored.credential_id)).toEqual(stored);
    expect(await findPasskeyByCredential(db(), await projectRow(db()), stored.credential_id)).toBeNull();
    expect(await findUserPasskey(db(), projectId, user.id, stored.id.toUpperCase())).toEqual(stored);
    expect(await findUserPasskey(db(), projectId, user.id, 'not-an-id')).toBeNull();
  });

  it('allows a credential id once per project, in any number of projects', async () => {
    const [first, second] = [await projectRow(db()), await projectRow(db())];
    const [a, b] = [await userRow(db(), first), await userRow(db(), second)];
    const credentialId = randomUUID();
    await insertPasskey(db(), passkey(first, a.id, { credentialId }));
    await insertPasskey(db(), passkey(second, b.id, { credentialId }));
    const other = await userRow(db(), first);
    const twice = await insertPasskey(db(), passkey(first, other.id, { credentialId })).catch(
      (error: unknown) => error,
    );
    expect(isUniqueViolation(twice, passkeyCredentialIndex)).toBe(true);
  });

  it('lists, renames and deletes only the user’s own passkeys, oldest first; they go with the user', async () => {
    const projectId = await projectRow(db());
    const [user, stranger] = [await userRow(db(), projectId), await userRow(db(), projectId)];
    const older = await insertPasskey(db(), passkey(projectId, user.id, { now }));
    const newer = await insertPasskey(db(), passkey(projectId, user.id, { now: now + 1000 }));
    expect((await listUserPasskeys(db(), projectId, user.id)).map((each) => each.id)).toEqual([older.id, newer.id]);
    expect(await renamePasskeyRow(db(), projectId, stranger.id, older.id, 'Mine')).toBeNull();
    expect((await renamePasskeyRow(db(), projectId, user.id, older.id, 'Laptop'))?.name).toBe('Laptop');
    expect(await deletePasskeyRow(db(), projectId, stranger.id, older.id)).toBe(false);
    expect(await deletePasskeyRow(db(), projectId, user.id, older.id)).toBe(true);
    expect(await countUserPasskeys(db(), projectId, user.id)).toBe(1);
    await deleteUserRow(db(), projectId, user.id);
    expect(await rowsOf(db(), 'passkeys', projectId)).toBe(0);
  });

  it('records a use only with a counter that went up, or 0 after 0; of two uses with one value, one', async () => {
    const projectId = await projectRow(db());
    const user = await userRow(db(), projectId);
    const counting = await insertPasskey(db(), passkey(projectId, user.id, { counter: 5 }));
    expect(await recordPasskeyUse(db(), counting, 5, now)).toBe(false);
    expect(await recordPasskeyUse(db(), counting, 4, now)).toBe(false);
    const uses = await Promise.all([6, 6].map((value) => recordPasskeyUse(db(), counting, value, now + 1)));
    expect(uses.sort()).toEqual([false, true]);
    const after = await findUserPasskey(db(), projectId, user.id, counting.id);
    expect(after).toMatchObject({ counter: 6, last_used_at: new Date(now + 1) });
    const counterless = await insertPasskey(db(), passkey(projectId, user.id));
    expect(await recordPasskeyUse(db(), counterless, 0, now)).toBe(true);
    expect(await recordPasskeyUse(db(), counterless, 0, now)).toBe(true);
    expect(await recordPasskeyUse(db(), counting, 0, now)).toBe(false);
  });
});
