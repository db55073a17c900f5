/**
 * A batch of the import as rows by table, and its writing through each
 * table's store, permission definitions and teams first and each user's row before what refers to it,
 * in the caller's transaction.
 */
import { insertChannelRows } from '../contact-channels/contact-channel-store.js';
import { insertMfaRows } from '../mfa/mfa-store.js';
import { insertAccountRows } from '../oauth/oauth-account-store.js';
import { insertDefinitionRows } from '../permissions/definition-store.js';
import { insertGrantRows } from '../permissions/permission-store.js';
import type { Db } from '../storage/db.js';
import type { NewRow } from '../storage/schema.js';
import { insertMemberRows, insertTeamRows } from '../teams/team-store.js';
import { insertUserRows } from '../users/user-store.js';

/** The rows of one batch, by table. */
export interface BatchRows {
  definitions: NewRow<'team_permission_definitions'>[];
  inclusions: NewRow<'team_permission_inclusions'>[];
  teams: NewRow<'teams'>[];
  users: NewRow<'users'>[];
  channels: NewRow<'contact_channels'>[];
  accounts: NewRow<'oauth_accounts'>[];
  mfa: NewRow<'user_mfa'>[];
  members: NewRow<'team_members'>[];
  permissions: NewRow<'team_member_permissions'>[];
}

/** Writes the batch (in the caller's transaction). */
export async function insertBatch(db: Db, rows: BatchRows): Promise<void> {
  await insertDefinitionRows(db, rows.definitions, rows.inclusions);
  await insertTeamRows(db, rows.teams);
  await insertUserRows(db, rows.users);
  await insertChannelRows(db, rows.channels);
  await insertAccountRows(db, rows.accounts);
  await insertMfaRows(db, rows.mfa);
  await insertMemberRows(db, rows.members);
  await insertGrantRows(db, rows.permissions);
}
