/**
 * Team invitations: verification codes of purpose `team_invitation` bound to
 * a team (`verification_codes.team_id`), the invited address in their data.
 * Pending means unused, unexpired and still bound to a team.
 */
import { sql } from 'kysely';
import type { Db } from '../storage/db.js';

/** A pending invitation as the routes answer it (wire-protocol §15.10). */
export interface PendingInvitation {
  id: string;
  team_id: string;
  recipient_email: string;
  expires_at_millis: number;
}

const purpose = 'team_invitation';

/** The team's pending invitations, oldest first. */
export async function listPendingInvitations(
  db: Db,
  projectId: string,
  teamId: string,
  now: number,
): Promise<PendingInvitation[]> {
  const rows = await db
    .selectFrom('verification_codes')
    .select(['id', 'team_id', 'expires_at', sql<string>`data->>'email'`.as('email')])
    .where('project_id', '=', projectId)
    .where('purpose', '=', purpose)
    .where('team_id', '=', teamId)
    .where('used_at', 'is', null)
    .where('expires_at', '>', new Date(now))
    .orderBy('created_at')
    .orderBy('id')
    .limit(1000)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    team_id: row.team_id!,
    recipient_email: row.email,
    expires_at_millis: row.expires_at.getTime(),
  }));
}

/** Deletes a pending invitation of the team (its link stops working); false when there is none. */
export async function revokeInvitation(db: Db, projectId: string, teamId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('verification_codes')
    .where('project_id', '=', projectId)
    .where('purpose', '=', purpose)
    .where('team_id', '=', teamId)
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/** Deletes the team's unused invitations of an address (a new invitation replaces them). */
export async function revokeInvitationsTo(trx: Db, projectId: string, teamId: string, email: string): Promise<void> {
  await trx
    .deleteFrom('verification_codes')
    .where('project_id', '=', projectId)
    .where('purpose', '=', purpose)
    .where('team_id', '=', teamId)
    .where('used_at', 'is', null)
    .where(sql<string>`lower(data->>'email')`, '=', email.toLowerCase())
    .execute();
}
