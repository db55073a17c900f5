/**
 * Connected provider accounts (`oauth_accounts`), and only them. The user's
 * `oauth_providers` summary (what the user view shows) is rewritten from
 * `listProviderLinks` by the action that changed the accounts, in the same
 * transaction (`noteProviderLinks`, `connected-accounts-actions.ts`), so the
 * two cannot disagree. Provider tokens are sealed, bound to the project,
 * provider and account, before they are stored.
 */
import type { Insertable } from 'kysely';
import type { Sealer } from '../crypto/encryption.js';
import { type Db, insertChunks } from '../storage/db.js';
import type { Database, OAuthAccountRow } from '../storage/schema.js';
import type { ProviderTokens } from './providers.js';

/** The account a provider's subject is connected as, or null. */
export async function findAccount(
  db: Db,
  projectId: string,
  providerId: string,
  accountId: string,
): Promise<OAuthAccountRow | null> {
  const row = await db
    .selectFrom('oauth_accounts')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('provider_id', '=', providerId)
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return row ?? null;
}

/** The user's account at a provider, or null. */
export async function findUserAccount(
  db: Db,
  projectId: string,
  userId: string,
  providerId: string,
): Promise<OAuthAccountRow | null> {
  const row = await db
    .selectFrom('oauth_accounts')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('provider_id', '=', providerId)
    .executeTakeFirst();
  return row ?? null;
}

/** How many provider accounts the user has. */
export async function countUserAccounts(db: Db, projectId: string, userId: string): Promise<number> {
  const row = await db
    .selectFrom('oauth_accounts')
    .select((eb) => eb.fn.countAll<string>().as('count'))
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

function field(row: { project_id: string; provider_id: string; account_id: string }, kind: 'access' | 'refresh') {
  return `oauth-account:${row.project_id}:${row.provider_id}:${row.account_id}:${kind}_token`;
}

/** The account's tokens in clear. */
export function openTokens(
  row: OAuthAccountRow,
  sealer: Sealer,
): { accessToken: string | null; refreshToken: string | null } {
  return {
    accessToken: row.access_token_sealed && sealer.open(row.access_token_sealed, field(row, 'access')),
    refreshToken: row.refresh_token_sealed && sealer.open(row.refresh_token_sealed, field(row, 'refresh')),
  };
}

/** A provider account to connect, or whose tokens to store. */
export interface AccountWrite {
  projectId: string;
  providerId: string;
  accountId: string;
  userId: string;
  email: string | null;
  tokens: ProviderTokens;
  now: number;
}

/**
 * Connects the account to the user, or stores its new tokens and e-mail when
 * it is connected already. The user's other account at the provider (the
 * unique key on user and provider) makes this fail: callers check first.
 * The user's summary is the caller's to write afterwards (`noteProviderLinks`).
 */
export async function saveAccount(db: Db, sealer: Sealer, write: AccountWrite): Promise<void> {
  const key = { project_id: write.projectId, provider_id: write.providerId, account_id: write.accountId };
  const now = new Date(write.now);
  const tokens = {
    access_token_sealed: sealer.seal(write.tokens.accessToken, field(key, 'access')),
    refresh_token_sealed: write.tokens.refreshToken && sealer.seal(write.tokens.refreshToken, field(key, 'refresh')),
    access_token_expires_at: write.tokens.expiresAt === null ? null : new Date(write.tokens.expiresAt),
    scopes: write.tokens.scopes.join(' '),
    email: write.email,
    updated_at: now,
  };
  await db
    .insertInto('oauth_accounts')
    .values({ ...key, user_id: write.userId, created_at: now, ...tokens })
    .onConflict((conflict) => conflict.columns(['project_id', 'provider_id', 'account_id']).doUpdateSet(tokens))
    .execute();
}

/** Stores refreshed tokens of an account. */
export async function updateAccountTokens(
  db: Db,
  sealer: Sealer,
  row: OAuthAccountRow,
  tokens: ProviderTokens,
  now: number,
): Promise<void> {
  await db
    .updateTable('oauth_accounts')
    .set({
      access_token_sealed: sealer.seal(tokens.accessToken, field(row, 'access')),
      refresh_token_sealed: tokens.refreshToken && sealer.seal(tokens.refreshToken, field(row, 'refresh')),
      access_token_expires_at: tokens.expiresAt === null ? null : new Date(tokens.expiresAt),
      scopes: tokens.scopes.join(' '),
      updated_at: new Date(now),
    })
    .where('project_id', '=', row.project_id)
    .where('provider_id', '=', row.provider_id)
    .where('account_id', '=', row.account_id)
    .execute();
}

/** Disconnects the user's account at a provider; false when there was none. The summary as for `saveAccount`. */
export async function deleteUserAccount(
  db: Db,
  projectId: string,
  userId: string,
  providerId: string,
): Promise<boolean> {
  const result = await db
    .deleteFrom('oauth_accounts')
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .where('provider_id', '=', providerId)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** The user's accounts as the user view lists them (`oauth_providers`): oldest first. */
export async function listProviderLinks(
  db: Db,
  projectId: string,
  userId: string,
): Promise<{ id: string; account_id: string; email: string | null }[]> {
  const accounts = await db
    .selectFrom('oauth_accounts')
    .select(['provider_id', 'account_id', 'email'])
    .where('project_id', '=', projectId)
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('provider_id')
    .execute();
  return accounts.map((a) => ({ id: a.provider_id, account_id: a.account_id, email: a.email }));
}

/** Re-seals every account's tokens from `from` to `to` (a new master secret); returns how many accounts. */
export async function resealAccountTokens(db: Db, from: Sealer, to: Sealer): Promise<number> {
  const rows = await db.selectFrom('oauth_accounts').selectAll().execute();
  for (const row of rows) {
    const { accessToken, refreshToken } = openTokens(row, from);
    await db
      .updateTable('oauth_accounts')
      .set({
        access_token_sealed: accessToken && to.seal(accessToken, field(row, 'access')),
        refresh_token_sealed: refreshToken && to.seal(refreshToken, field(row, 'refresh')),
      })
      .where('project_id', '=', row.project_id)
      .where('provider_id', '=', row.provider_id)
      .where('account_id', '=', row.account_id)
      .execute();
  }
  return rows.length;
}

/** Imported users' provider accounts (no tokens), many a statement (`import/`). */
export async function insertAccountRows(
  db: Db,
  rows: readonly Insertable<Database['oauth_accounts']>[],
): Promise<void> {
  for (const chunk of insertChunks(rows)) await db.insertInto('oauth_accounts').values(chunk).execute();
}

/** Of the provider account ids, the accounts (`provider\naccount`) connected to someone of the project. */
export async function findTakenAccounts(
  db: Db,
  projectId: string,
  accountIds: readonly string[],
): Promise<Set<string>> {
  if (accountIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('oauth_accounts')
    .select(['provider_id', 'account_id'])
    .where('project_id', '=', projectId)
    .where('account_id', 'in', accountIds)
    .execute();
  return new Set(rows.map((row) => `${row.provider_id}\n${row.account_id}`));
}

/** The users' accounts, oldest first (the export). */
export function listAccountsOfUsers(
  db: Db,
  projectId: string,
  userIds: readonly string[],
): Promise<{ user_id: string; provider_id: string; account_id: string; email: string | null }[]> {
  if (userIds.length === 0) return Promise.resolve([]);
  return db
    .selectFrom('oauth_accounts')
    .select(['user_id', 'provider_id', 'account_id', 'email'])
    .where('project_id', '=', projectId)
    .where('user_id', 'in', userIds)
    .orderBy('created_at')
    .execute();
}
