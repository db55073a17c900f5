/**
 * The import's queries: what of a batch the project has already (external
 * ids, ids, sign-in addresses, provider accounts, teams, permissions), and the
 * multi-row inserts that write a batch in one transaction. Each statement
 * takes a whole batch, so a million users cost thousands of statements, not
 * millions.
 */
import { type Insertable, sql } from 'kysely';
import type { Db } from '../storage/db.js';
import type { Database } from '../storage/schema.js';

/** Of `externalIds`, those of users of the project, with the user's id. */
export async function findUsersByExternalId(
  db: Db,
  projectId: string,
  externalIds: readonly string[],
): Promise<Map<string, string>> {
  if (externalIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('users')
    .select(['id', 'external_id'])
    .where('project_id', '=', projectId)
    .where('external_id', 'in', externalIds)
    .execute();
  return new Map(rows.map((row) => [row.external_id!, row.id]));
}

/** Of `externalIds`, those of teams of the project, with the team's id. */
export async function findTeamsByExternalId(
  db: Db,
  projectId: string,
  externalIds: readonly string[],
): Promise<Map<string, string>> {
  if (externalIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('teams')
    .select(['id', 'external_id'])
    .where('project_id', '=', projectId)
    .where('external_id', 'in', externalIds)
    .execute();
  return new Map(rows.map((row) => [row.external_id!, row.id]));
}

/** Of the UUIDs, those some user or team (of any project) has already. */
export async function findTakenIds(db: Db, table: 'users' | 'teams', ids: readonly string[]): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const rows = await db.selectFrom(table).select('id').where('id', 'in', ids).execute();
  return new Set(rows.map((row) => row.id));
}

/** Of the lower-cased addresses, those someone of the project signs in with. */
export async function findTakenAuthAddresses(
  db: Db,
  projectId: string,
  lowered: readonly string[],
): Promise<Set<string>> {
  if (lowered.length === 0) return new Set();
  const rows = await db
    .selectFrom('contact_channels')
    .select(sql<string>`lower(value)`.as('address'))
    .where('project_id', '=', projectId)
    .where('type', '=', 'email')
    .where('used_for_auth', '=', true)
    .where(sql<string>`lower(value)`, 'in', lowered)
    .execute();
  return new Set(rows.map((row) => row.address));
}

/** Of the accounts (`provider\naccount`), those connected to someone of the project. */
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

/** The permission ids the project defines. */
export async function listPermissionIds(db: Db, projectId: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('team_permission_definitions')
    .select('id')
    .where('project_id', '=', projectId)
    .execute();
  return new Set(rows.map((row) => row.id));
}

/** The rows of one batch, by table. */
export interface BatchRows {
  teams: Insertable<Database['teams']>[];
  users: Insertable<Database['users']>[];
  channels: Insertable<Database['contact_channels']>[];
  accounts: Insertable<Database['oauth_accounts']>[];
  mfa: Insertable<Database['user_mfa']>[];
  members: Insertable<Database['team_members']>[];
  permissions: Insertable<Database['team_member_permissions']>[];
}

/**
 * Inserts a batch (in the caller's transaction), teams first and the users'
 * rows before what refers to them. Chunks keep each statement under the
 * 65,535 parameters PostgreSQL takes.
 */
export async function insertBatch(db: Db, rows: BatchRows): Promise<void> {
  const order = ['teams', 'users', 'channels', 'accounts', 'mfa', 'members', 'permissions'] as const;
  const tables = {
    teams: 'teams',
    users: 'users',
    channels: 'contact_channels',
    accounts: 'oauth_accounts',
    mfa: 'user_mfa',
    members: 'team_members',
    permissions: 'team_member_permissions',
  } as const;
  for (const key of order) {
    const list = rows[key];
    if (list.length === 0) continue;
    const columns = Object.keys(list[0]!).length;
    const chunk = Math.max(1, Math.floor(60_000 / columns));
    for (let start = 0; start < list.length; start += chunk) {
      await db
        .insertInto(tables[key])
        .values(list.slice(start, start + chunk) as never)
        .execute();
    }
  }
}
