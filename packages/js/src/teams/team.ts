/**
 * `Team`: a team of the signed-in user, with what a member may do to it. The
 * service checks every action against the user's permissions in the team
 * (`TEAM_PERMISSION_REQUIRED` otherwise). Changes re-read the user's teams.
 */
import type { Send } from '../internal/core.js';
import type { TeamData } from './team-decoder.js';
import {
  deleteTeam,
  inviteToTeam,
  listTeamInvitations,
  listTeamMembers,
  removeTeamMember,
  revokeTeamInvitation,
  type TeamInvitationData,
  type TeamMemberProfile,
  type TeamUpdate,
  updateTeam,
} from './teams-api.js';

/**
 * A member of a team as other members see them.
 *
 * @example
 * ```ts
 * for (const member of await team.listUsers()) console.log(member.id, member.teamProfile.displayName);
 * ```
 */
export interface TeamUser {
  id: string;
  teamProfile: TeamMemberProfile;
}

/**
 * A pending invitation, which a member with `$remove_members` may revoke.
 *
 * @example
 * ```ts
 * const [invitation] = await team.listInvitations();
 * await invitation?.revoke();
 * ```
 */
export interface TeamInvitation extends TeamInvitationData {
  /** Revokes the invitation: its link stops working. */
  revoke(): Promise<void>;
}

/**
 * A team of the signed-in user.
 *
 * @example
 * ```ts
 * const team = await user.createTeam({ displayName: 'Acme' });
 * await team.inviteUser({ email: 'grace@example.com' });
 * ```
 */
export interface Team extends TeamData {
  /** Renames it, changes its picture or client metadata (needs `$update_team`). */
  update(update: Pick<TeamUpdate, 'displayName' | 'profileImageUrl' | 'clientMetadata'>): Promise<void>;
  /** Deletes it with its memberships and invitations (needs `$delete_team`). */
  delete(): Promise<void>;
  /**
   * Mails an invitation link to `email` (needs `$invite_members`). `callbackUrl`
   * (your team-invitation page) defaults to `<origin><handler>/team-invitation` in browsers.
   */
  inviteUser(options: { email: string; callbackUrl?: string }): Promise<void>;
  /** The members with their team profiles (needs `$read_members`). */
  listUsers(): Promise<TeamUser[]>;
  /** Removes another member (needs `$remove_members`; to leave, use `user.leaveTeam`). */
  removeUser(userId: string): Promise<void>;
  /** The pending invitations (needs `$read_members` and `$invite_members`). */
  listInvitations(): Promise<TeamInvitation[]>;
}

/** What a client team works with: the user's `send`, the default invitation page, the re-read after a change. */
export interface TeamScope {
  send: Send;
  /** The team-invitation page as an absolute URL, or the developer error of `call`. */
  invitationUrl(call: string, given: string | undefined): string;
  afterChange(): Promise<void>;
}

/** The `Team` of `data`, acting as the signed-in user. */
export function createTeamObject(data: TeamData, scope: TeamScope): Team {
  const { send, afterChange } = scope;
  return {
    ...data,
    async update(update) {
      await updateTeam(send, data.id, update);
      await afterChange();
    },
    async delete() {
      await deleteTeam(send, data.id);
      await afterChange();
    },
    async inviteUser(options) {
      const url = scope.invitationUrl('Team.inviteUser', options.callbackUrl);
      await inviteToTeam(send, data.id, options.email, url);
    },
    async listUsers() {
      const members = await listTeamMembers(send, data.id, () => undefined);
      return members.map((member) => ({ id: member.userId, teamProfile: member.teamProfile }));
    },
    removeUser: (userId) => removeTeamMember(send, data.id, userId),
    async listInvitations() {
      return (await listTeamInvitations(send, data.id)).map((invitation) => invitationObject(send, invitation));
    },
  };
}

/** A pending invitation with its `revoke`, for either audience. */
export function invitationObject(send: Send, data: TeamInvitationData): TeamInvitation {
  return { ...data, revoke: () => revokeTeamInvitation(send, data.teamId, data.id) };
}
