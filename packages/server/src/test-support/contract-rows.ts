/**
 * Rows the storage contract tests stand their store on: a project and users,
 * written with plain SQL so that a store's test depends on no other store
 * than the one it checks (and the project store, whose insert every project
 * needs for its permission definitions).
 */

import { randomUUID } from 'node:crypto';
import { insertInitialDefinitions } from '../permissions/permission-store.js';
import { defaultProjectConfig } from '../projects/project-config.js';
import { insertProject } from '../projects/project-store.js';
import type { Db } from '../storage/db.js';
import { json, type UserRow } from '../storage/schema.js';

/** A new project with the default config; its id. */
export async function projectRow(db: Db, now: number = Date.now()): Promise<string> {
  const id = `contract-${randomUUID()}`;
  await insertProject(db, {
    id,
    displayName: 'Contract',
    description: null,
    createdAt: new Date(now),
    isProductionMode: false,
    config: defaultProjectConfig,
  });
  return id;
}

/** A project row with the system permission definitions (`admin`, `member`) a new project starts with. */
export async function projectWithDefinitions(db: Db, now: number = Date.now()): Promise<string> {
  const id = await projectRow(db, now);
  await insertInitialDefinitions(db, id, new Date(now));
  return id;
}

/** A new user of the project, with no contact channel, team or session. */
export function userRow(
  db: Db,
  projectId: string,
  fields: { email?: string | null; displayName?: string | null; signedUpAt?: number } = {},
): Promise<UserRow> {
  const at = new Date(fields.signedUpAt ?? Date.now());
  return db
    .insertInto('users')
    .values({
      id: randomUUID(),
      project_id: projectId,
      display_name: fields.displayName ?? null,
      primary_email: fields.email ?? null,
      primary_email_verified: false,
      primary_email_auth_enabled: false,
      profile_image_url: null,
      password_hash: null,
      client_metadata: json(null),
      client_read_only_metadata: json(null),
      server_metadata: json(null),
      signed_up_at: at,
      last_active_at: at,
      selected_team_id: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** Counts the rows of `table` in the project. */
export async function rowsOf(
  db: Db,
  table:
    | 'users'
    | 'sessions'
    | 'contact_channels'
    | 'team_members'
    | 'team_member_permissions'
    | 'oauth_accounts'
    | 'passkeys',
  projectId: string,
): Promise<number> {
  const row = await db
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string | number>().as('count'))
    .where('project_id', '=', projectId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** A fresh e-mail address of the contract tests' own domain. */
export const address = (name = 'someone') => `${name}-${randomUUID().slice(0, 8)}@contract.example`;
