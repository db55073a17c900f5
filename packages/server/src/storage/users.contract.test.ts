/**
 * The storage contract of what belongs to a user: the user rows' lists and
 * activity, contact channels, verification codes, connected OAuth accounts
 * and the metrics read from them, on every backend.
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { expect, it } from 'vitest';
import {
  countFailedAttempt,
  deleteCodesExpiredBefore,
  deleteUnusedCodes,
  expireOutstandingCodes,
  findCodeByLookup,
  insertCode,
  markCodeUsed,
} from '../codes/code-store.js';
import {
  countOtherChannels,
  deleteContactChannel,
  findAuthChannel,
  findContactChannel,
  findPrimaryChannel,
  findUserChannelByValue,
  insertContactChannel,
  listContactChannels,
  updateContactChannel,
} from '../contact-channels/contact-channel-store.js';
import { createSealer } from '../crypto/encryption.js';
import { importRecords } from '../import/import-users.js';
import {
  activityDayInsert,
  countActiveUsersByDay,
  countSignUpsByDay,
  countUsersByCountry,
  findRecentlyActive,
  findRecentlyRegistered,
} from '../metrics/metrics-store.js';
import {
  countUserAccounts,
  deleteUserAccount,
  findAccount,
  findUserAccount,
  listProviderLinks,
  openTokens,
  resealAccountTokens,
  saveAccount,
  updateAccountTokens,
} from '../oauth/oauth-account-store.js';
import { describeEachBackend, useBackendStorage } from '../test-support/backends.js';
import { address, projectRow, rowsOf, userRow } from '../test-support/contract-rows.js';
import {
  countUsers,
  findUser,
  listUserPage,
  markUserActive,
  mirrorPrimaryEmail,
  setBulkUserWrites,
  userSeenUpdate,
  writeProviderLinks,
} from '../users/user-store.js';
import { writeTogether } from './db.js';
import { dbOf } from './open-storage.js';
import { authEmailIndex, isUniqueViolation, userEmailIndex } from './schema.js';

describeEachBackend('user storage contract', (backend) => {
  const storage = useBackendStorage(backend);
  const db = () => dbOf(storage());
  const now = Date.UTC(2026, 0, 2, 3, 4, 5, 678);
  const day = 24 * 60 * 60_000;

  const channel = (projectId: string, userId: string, value: string, more: { primary?: boolean; at?: number } = {}) =>
    insertContactChannel(db(), {
      projectId,
      userId,
      value,
      isVerified: false,
      isPrimary: more.primary ?? false,
      usedForAuth: false,
      now: more.at ?? now,
    });

  it('pages users by sign-up time and id in both directions, from a cursor, and counts them', async () => {
    const projectId = await projectRow(db());
    const users = [];
    for (let i = 0; i < 5; i++) users.push(await userRow(db(), projectId, { signedUpAt: now + i * 1000 }));
    const page = (from: { signedUpAt: Date; id: string } | null, desc = false) =>
      listUserPage(db(), projectId, { limit: 2, desc, search: null, from, teamId: null });
    const first = await page(null);
    expect(first.map((u) => u.id)).toEqual([users[0]!.id, users[1]!.id]);
    const next = await page({ signedUpAt: users[2]!.signed_up_at, id: users[2]!.id });
    expect(next.map((u) => u.id)).toEqual([users[2]!.id, users[3]!.id]);
    const back = await page({ signedUpAt: users[2]!.signed_up_at, id: users[2]!.id }, true);
    expect(back.map((u) => u.id)).toEqual([users[2]!.id, users[1]!.id]);
    expect(await countUsers(db(), projectId)).toBe(5);
    expect(await countUsers(db(), await projectRow(db()))).toBe(0);
  });

  it('searches e-mails and names case-insensitively, with LIKE characters taken literally, or by exact id', async () => {
    const projectId = await projectRow(db());
    const ann = await userRow(db(), projectId, { email: 'Ann.Smith@Example.com', displayName: 'Ann' });
    const percent = await userRow(db(), projectId, { displayName: '100% Bob' });
    await userRow(db(), projectId, { displayName: '1000 Bobs' });
    const search = async (contains: string, id: string | null = null) =>
      (
        await listUserPage(db(), projectId, {
          limit: 10,
          desc: false,
          search: { contains, id },
          from: null,
          teamId: null,
        })
      ).map((u) => u.id);
    expect(await search('ann.smith@')).toEqual([ann.id]);
    expect(await search('0% b')).toEqual([percent.id]);
    expect(await search('zzz', ann.id)).toEqual([ann.id]);
  });

  it('finds users written in bulk mode at once and after it ends, which leaves the search indexes as they were', async () => {
    const projectId = await projectRow(db());
    const searchIndexOptions = async () =>
      (
        await sql<{ options: string[] | null }>`select reloptions as options from pg_class
          where relname in ('users_email_search_idx', 'users_display_name_search_idx')
          and relnamespace = current_schema()::regnamespace order by relname`.execute(db())
      ).rows.map((row) => row.options);
    const off = [['fastupdate=off'], ['fastupdate=off']];
    expect(await searchIndexOptions()).toEqual(off);
    expect(await setBulkUserWrites(db(), true)).toBe(true);
    expect(await searchIndexOptions()).toEqual([['fastupdate=on'], ['fastupdate=on']]);
    const bulk = await userRow(db(), projectId, { email: 'bulk.written@example.com', displayName: 'Bulk Written' });
    const search = async (contains: string) =>
      (
        await listUserPage(db(), projectId, {
          limit: 10,
          desc: false,
          search: { contains, id: null },
          from: null,
          teamId: null,
        })
      ).map((u) => u.id);
    expect(await search('k.written@')).toEqual([bulk.id]);
    expect(await setBulkUserWrites(db(), false)).toBe(true);
    expect(await searchIndexOptions()).toEqual(off);
    expect(await search('bulk written')).toEqual([bulk.id]);

    // An import whose input breaks midway ends bulk mode all the same.
    async function* breaking() {
      yield {
        line: 1,
        record: { type: 'permission' as const, id: 'bulk_test', description: null, contained_permission_ids: [] },
      };
      throw new Error('the input broke');
    }
    await expect(importRecords(db(), breaking(), { projectId, totpSealer: null })).rejects.toThrow('the input broke');
    expect(await searchIndexOptions()).toEqual(off);
  });

  it('marks a user active and notes a changed country only; false for a user who is gone', async () => {
    const projectId = await projectRow(db());
    const user = await userRow(db(), projectId, { signedUpAt: now });
    expect(await markUserActive(db(), projectId, user.id, now + 5)).toBe(true);
    expect((await findUser(db(), projectId, user.id))?.last_active_at.getTime()).toBe(now + 5);
    expect(await markUserActive(db(), projectId, randomUUID(), now)).toBe(false);
    expect(userSeenUpdate(db(), projectId, user.id, { at: null, country: null })).toBeNull();
    const country = (code: string) =>
      userSeenUpdate(db(), projectId, user.id, { at: null, country: code })!.executeTakeFirst();
    expect((await country('DE')).numUpdatedRows).toBe(1n);
    expect((await country('DE')).numUpdatedRows).toBe(0n);
    expect((await findUser(db(), projectId, user.id))?.country_code).toBe('DE');
  });

  it('keeps one primary channel per user, primary listed first; finds by id and by address in any case', async () => {
    const projectId = await projectRow(db());
    const user = await userRow(db(), projectId);
    const first = await channel(projectId, user.id, 'First@Example.com', { primary: true });
    const second = await channel(projectId, user.id, 'second@example.com', { at: now + 1 });
    expect(first.created_at.getTime()).toBe(now);
    const third = await channel(projectId, user.id, 'third@example.com', { primary: true, at: now + 2 });
    expect((await listContactChannels(db(), projectId, user.id)).map((c) => [c.id, c.is_primary])).toEqual([
      [third.id, true],
      [first.id, false],
      [second.id, false],
    ]);
    expect((await findPrimaryChannel(db(), projectId, user.id))?.id).toBe(third.id);
    expect((await findContactChannel(db(), projectId, user.id, first.id.toUpperCase()))?.value).toBe(
      'First@Example.com',
    );
    expect(await findContactChannel(db(), projectId, user.id, 'nope')).toBeNull();
    expect((await findUserChannelByValue(db(), projectId, user.id, 'FIRST@example.COM'))?.id).toBe(first.id);
    const promoted = await updateContactChannel(db(), projectId, user.id, first.id, { is_primary: true });
    expect(promoted?.is_primary).toBe(true);
    expect((await findContactChannel(db(), projectId, user.id, third.id))?.is_primary).toBe(false);
    expect(await countOtherChannels(db(), projectId, user.id, first.id)).toBe(2);
  });

  it('refuses an address twice for one user, and for sign-in twice in a project, in any case', async () => {
    const projectId = await projectRow(db());
    const [alice, bob] = [await userRow(db(), projectId), await userRow(db(), projectId)];
    await channel(projectId, alice.id, 'same@example.com');
    await expect(channel(projectId, alice.id, 'SAME@example.com')).rejects.toSatisfy((error) =>
      isUniqueViolation(error, userEmailIndex),
    );
    const auth = (userId: string, value: string) =>
      insertContactChannel(db(), {
        projectId,
        userId,
        value,
        isVerified: true,
        isPrimary: false,
        usedForAuth: true,
        now,
      });
    await auth(alice.id, 'login@example.com');
    await expect(auth(bob.id, 'Login@Example.com')).rejects.toSatisfy((error) =>
      isUniqueViolation(error, authEmailIndex),
    );
    // Not for sign-in, another user may list the address too.
    await channel(projectId, bob.id, 'LOGIN@example.com');
    expect((await findAuthChannel(db(), projectId, 'LOGIN@EXAMPLE.COM'))?.user_id).toBe(alice.id);
    expect(await findAuthChannel(db(), await projectRow(db()), 'login@example.com')).toBeNull();
  });

  it('turns a pending sign-in address into a sign-in one when verified; mirrors the primary into the user', async () => {
    const projectId = await projectRow(db());
    const user = await userRow(db(), projectId);
    const pending = await insertContactChannel(db(), {
      projectId,
      userId: user.id,
      value: 'Pending@Example.com',
      isVerified: false,
      isPrimary: true,
      usedForAuth: false,
      authPending: true,
      now,
    });
    const verified = await updateContactChannel(db(), projectId, user.id, pending.id, { is_verified: true });
    expect(verified).toMatchObject({ is_verified: true, used_for_auth: true, auth_pending: false });
    await mirrorPrimaryEmail(db(), projectId, user.id, await findPrimaryChannel(db(), projectId, user.id));
    expect(await findUser(db(), projectId, user.id)).toMatchObject({
      primary_email: 'Pending@Example.com',
      primary_email_verified: true,
      primary_email_auth_enabled: true,
    });
    expect(await deleteContactChannel(db(), projectId, user.id, pending.id)).toBe(true);
    expect(await deleteContactChannel(db(), projectId, user.id, pending.id)).toBe(false);
    expect(await findPrimaryChannel(db(), projectId, user.id)).toBeNull();
    await mirrorPrimaryEmail(db(), projectId, user.id, null);
    expect((await findUser(db(), projectId, user.id))?.primary_email).toBeNull();
  });

  it('removes a user’s channels and accounts with the user', async () => {
    const projectId = await projectRow(db());
    const user = await userRow(db(), projectId);
    await channel(projectId, user.id, address(), { primary: true });
    await saveAccount(db(), createSealer('s'.repeat(32), 'contract'), {
      projectId,
      providerId: 'github',
      accountId: '1',
      userId: user.id,
      email: null,
      tokens: { accessToken: 'a', refreshToken: null, expiresAt: null, scopes: [] },
      now,
    });
    await db().deleteFrom('users').where('project_id', '=', projectId).where('id', '=', user.id).execute();
    expect(await rowsOf(db(), 'contact_channels', projectId)).toBe(0);
    expect(await rowsOf(db(), 'oauth_accounts', projectId)).toBe(0);
  });

  it('stores codes by lookup hash, once, with their data; counts guesses and uses a code once', async () => {
    const projectId = await projectRow(db());
    const lookupHash = randomUUID();
    const data = { user_id: randomUUID(), email: 'Code@Example.com', nested: { list: [1, 'two'] } };
    const code = await insertCode(db(), {
      projectId,
      purpose: 'otp',
      lookupHash,
      codeHash: 'h',
      data,
      now,
      expiresAt: now + 60_000,
      teamId: null,
    });
    expect(code).toMatchObject({ data, attempts: 0, used_at: null, team_id: null });
    expect(code.expires_at.getTime()).toBe(now + 60_000);
    expect((await findCodeByLookup(db(), projectId, 'otp', lookupHash))?.id).toBe(code.id);
    expect((await findCodeByLookup(db(), null, 'otp', lookupHash))?.id).toBe(code.id);
    expect(await findCodeByLookup(db(), projectId, 'password_reset', lookupHash)).toBeNull();
    expect(await findCodeByLookup(db(), await projectRow(db()), 'otp', lookupHash)).toBeNull();
    await expect(
      insertCode(db(), {
        projectId,
        purpose: 'x',
        lookupHash,
        codeHash: 'h',
        data: {},
        now,
        expiresAt: now,
        teamId: null,
      }),
    ).rejects.toSatisfy((error) => isUniqueViolation(error));
    expect(await countFailedAttempt(db(), code.id)).toBe(1);
    expect(await countFailedAttempt(db(), code.id)).toBe(2);
    const uses = await Promise.all([markCodeUsed(db(), code.id, now), markCodeUsed(db(), code.id, now)]);
    expect(uses.filter(Boolean)).toHaveLength(1);
  });

  it('expires a user’s outstanding codes by purpose and address in any case, sparing one; deletes old and unused ones', async () => {
    const projectId = await projectRow(db());
    const userId = randomUUID();
    const issue = (purpose: string, email: string, expiresAt = now + 60_000) =>
      insertCode(db(), {
        projectId,
        purpose,
        lookupHash: randomUUID(),
        codeHash: 'h',
        data: { user_id: userId, email },
        now,
        expiresAt,
        teamId: null,
      });
    const kept = await issue('password_reset', 'a@example.com');
    await issue('password_reset', 'A@Example.com');
    await issue('password_reset', 'b@example.com');
    await issue('otp', 'a@example.com');
    const which = { projectId, purposes: ['password_reset'], userId, email: 'a@EXAMPLE.com', exceptId: kept.id };
    expect(await expireOutstandingCodes(db(), which, now + 1)).toBe(1);
    expect(await expireOutstandingCodes(db(), which, now + 1)).toBe(0);
    expect(
      await expireOutstandingCodes(db(), { projectId, purposes: ['password_reset', 'otp'], userId }, now + 2),
    ).toBe(3);
    const purpose = `contract_${randomUUID()}`;
    await issue(purpose, 'c@example.com');
    const used = await issue(purpose, 'd@example.com');
    await markCodeUsed(db(), used.id, now);
    expect(await deleteUnusedCodes(db(), purpose)).toBe(1);
    const old = await issue('otp', 'old@example.com', Date.UTC(2000, 0, 1));
    expect(await deleteCodesExpiredBefore(db(), Date.UTC(2000, 0, 2))).toBeGreaterThanOrEqual(1);
    expect(await findCodeByLookup(db(), projectId, 'otp', old.lookup_hash)).toBeNull();
  });

  it('connects OAuth accounts with sealed tokens, one per user and provider, and lists them for the user’s summary', async () => {
    const projectId = await projectRow(db());
    const user = await userRow(db(), projectId);
    const sealer = createSealer('k'.repeat(32), 'contract');
    const tokens = {
      accessToken: 'access-1',
      refreshToken: 'refresh-1',
      expiresAt: now + 3600_000,
      scopes: ['a', 'b'],
    };
    const write = {
      projectId,
      providerId: 'github',
      accountId: '42',
      userId: user.id,
      email: 'Gh@Example.com',
      tokens,
      now,
    };
    await saveAccount(db(), sealer, write);
    const row = await findAccount(db(), projectId, 'github', '42');
    expect(row).toMatchObject({ user_id: user.id, email: 'Gh@Example.com', scopes: 'a b' });
    expect(row?.access_token_sealed).not.toContain('access-1');
    expect(row?.access_token_expires_at?.getTime()).toBe(now + 3600_000);
    expect(openTokens(row!, sealer)).toEqual({ accessToken: 'access-1', refreshToken: 'refresh-1' });
    const links = [{ id: 'github', account_id: '42', email: 'Gh@Example.com' }];
    expect(await listProviderLinks(db(), projectId, user.id)).toEqual(links);
    await writeProviderLinks(db(), projectId, user.id, links);
    expect((await findUser(db(), projectId, user.id))?.oauth_providers).toEqual(links);
    // Saved again: the tokens change, the connection stays one row.
    await saveAccount(db(), sealer, { ...write, tokens: { ...tokens, accessToken: 'access-2' }, now: now + 1 });
    expect(await countUserAccounts(db(), projectId, user.id)).toBe(1);
    await expect(saveAccount(db(), sealer, { ...write, accountId: '43' })).rejects.toSatisfy((error) =>
      isUniqueViolation(error),
    );
    const current = (await findUserAccount(db(), projectId, user.id, 'github'))!;
    await updateAccountTokens(db(), sealer, current, { ...tokens, accessToken: 'access-3', refreshToken: null }, now);
    const refreshed = (await findAccount(db(), projectId, 'github', '42'))!;
    expect(openTokens(refreshed, sealer)).toEqual({ accessToken: 'access-3', refreshToken: null });

    const next = createSealer('n'.repeat(32), 'contract');
    expect(await resealAccountTokens(db(), sealer, next)).toBeGreaterThanOrEqual(1);
    const resealed = (await findAccount(db(), projectId, 'github', '42'))!;
    expect(openTokens(resealed, next).accessToken).toBe('access-3');

    expect(await deleteUserAccount(db(), projectId, user.id, 'github')).toBe(true);
    expect(await deleteUserAccount(db(), projectId, user.id, 'github')).toBe(false);
    expect(await listProviderLinks(db(), projectId, user.id)).toEqual([]);
    await writeProviderLinks(db(), projectId, user.id, []);
    expect((await findUser(db(), projectId, user.id))?.oauth_providers).toEqual([]);
  });

  it('counts sign-ups and active users per UTC day, users per country, and lists the newest and latest active', async () => {
    const projectId = await projectRow(db());
    const dayStart = Date.UTC(2026, 2, 10);
    const early = await userRow(db(), projectId, { signedUpAt: dayStart + 1000 });
    const late = await userRow(db(), projectId, { signedUpAt: dayStart + day - 1 });
    const next = await userRow(db(), projectId, { signedUpAt: dayStart + day });
    await userRow(db(), projectId, { signedUpAt: dayStart - day });
    const byDate = (rows: { date: string; count: number }[]) => rows.sort((a, b) => (a.date < b.date ? -1 : 1));
    expect(byDate(await countSignUpsByDay(db(), projectId, '2026-03-10'))).toEqual([
      { date: '2026-03-10', count: 2 },
      { date: '2026-03-11', count: 1 },
    ]);
    const active = (userId: string, date: string) => activityDayInsert(db(), { projectId, userId, day: date });
    await writeTogether(db(), [active(early.id, '2026-03-10'), active(late.id, '2026-03-10')]);
    await writeTogether(db(), [active(early.id, '2026-03-10'), active(early.id, '2026-03-11')]);
    expect(byDate(await countActiveUsersByDay(db(), projectId, '2026-03-10'))).toEqual([
      { date: '2026-03-10', count: 2 },
      { date: '2026-03-11', count: 1 },
    ]);
    await userSeenUpdate(db(), projectId, early.id, { at: null, country: 'FR' })!.execute();
    await userSeenUpdate(db(), projectId, late.id, { at: dayStart + 5 * day, country: 'FR' })!.execute();
    expect(await countUsersByCountry(db(), projectId)).toEqual({ FR: 2 });
    expect((await findRecentlyRegistered(db(), projectId, 2)).map((u) => u.id)).toEqual([next.id, late.id]);
    expect((await findRecentlyActive(db(), projectId, 1)).map((u) => u.id)).toEqual([late.id]);
  });
});
