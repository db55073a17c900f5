/**
 * `Team`: a team of the signed-in user, with what a member may do to it. The
 * service checks every action against the user's permissions in the team
 * (`TEAM_PERMISSION_REQUIRED` otherwise). Changes re-read the user's teams,
 * or mark out of date what they changed. The user's teams, a team's members
 * and its invitations are queries of `ClientApp`; the teams slice of
 * `CurrentUser` lists, creates, leaves and selects them.
 */

import { callbackUrl } from '../internal/callback-url.js';
import type { Send } from '../internal/core.js';
import { accountKey, accountQuery, type ClientQuery, type ClientScope } from '../users/account-data.js';
import { updateCurrentUser } from '../users/users-api.js';
import { readClientTeam, type TeamData } from './team-decoder.js';
import { type TeamPermissionQueries, type TeamRef, teamIdOf, teamPermissionQueries } from './team-permissions.js';
import {
  createTeam,
  deleteTeam,
  fetchTeamProfile,
  inviteToTeam,
  listTeamInvitations,
  listTeamMembers,
  listTeams,
  removeTeamMember,
  revokeTeamInvitation,
  setTeamPermission,
  type TeamInvitationData,
  type TeamMemberProfile,
  type TeamUpdate,
  updateTeam,
  updateTeamProfile,
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
  /** Latchkey extension: their primary e-mail address (`null` when they have none). */
  primaryEmail: string | null;
  /** Latchkey extension: the permissions granted to them in the team directly, their roles (`admin`, `member`…). */
  permissionIds: string[];
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
  /**
   * Latchkey extension: grants a member a permission (a role such as `admin`);
   * needs `$remove_members` and the permission itself. Then re-reads the members.
   */
  grantPermission(userId: string, permissionId: string): Promise<void>;
  /** Latchkey extension: revokes a permission granted to a member directly (needs what `grantPermission` needs). */
  revokePermission(userId: string, permissionId: string): Promise<void>;
  /** The pending invitations (needs `$read_members` and `$invite_members`). */
  listInvitations(): Promise<TeamInvitation[]>;
}

/** The key of what the signed-in user sees of one team (`part`: its `members`, `invitations`, `permissions`). */
const teamKey = (teamId: string, ...part: string[]) => accountKey('team', teamId, ...part);

/**
 * The `Team` of `data`, acting as the signed-in user. A change of its
 * members or invitations marks what the user sees of the team out of date.
 */
function createTeamObject(data: TeamData, scope: ClientScope): Team {
  const { send } = scope;
  const { id } = data;
  const afterChange = () => scope.reloadWithUser(teamsQuery);
  const changed = () => scope.data.invalidate(teamKey(id));
  const setPermission = (granted: boolean) => (userId: string, permissionId: string) =>
    setTeamPermission(send, granted, id, userId, permissionId).then(changed);
  return {
    ...data,
    async update(update) {
      await updateTeam(send, id, update);
      await afterChange();
    },
    async delete() {
      await deleteTeam(send, id);
      await Promise.all([afterChange(), changed()]);
    },
    async inviteUser(options) {
      await inviteToTeam(
        send,
        id,
        options.email,
        callbackUrl('Team.inviteUser', scope.core.urls.teamInvitation, options.callbackUrl),
      );
      await changed();
    },
    listUsers: () => loadMembers(send, id),
    async removeUser(userId) {
      await removeTeamMember(send, id, userId);
      await changed();
    },
    grantPermission: setPermission(true),
    revokePermission: setPermission(false),
    listInvitations: () => loadInvitations(send, id, changed),
  };
}

async function loadMembers(send: Send, teamId: string): Promise<TeamUser[]> {
  const members = await listTeamMembers(send, teamId, () => undefined);
  return members.map(({ userId, user: _, ...member }) => ({ id: userId, ...member }));
}

async function loadInvitations(send: Send, teamId: string, afterRevoke?: () => Promise<void>) {
  return (await listTeamInvitations(send, teamId)).map((invitation) => invitationObject(send, invitation, afterRevoke));
}

/** A pending invitation with its `revoke` (then `afterRevoke`), for either audience. */
export function invitationObject(
  send: Send,
  data: TeamInvitationData,
  afterRevoke?: () => Promise<void>,
): TeamInvitation {
  return { ...data, revoke: () => revokeTeamInvitation(send, data.teamId, data.id).then(afterRevoke) };
}

/**
 * The signed-in user's teams (`[]` when signed out), as a query of
 * `ClientApp` (also `app.load('teams')`).
 *
 * @example
 * ```ts
 * const teams = await app.load(teamsQuery);
 * ```
 */
export const teamsQuery: ClientQuery<Team[]> = accountQuery(
  ['teams'],
  async (scope) => (await listTeams(scope.send, 'me', readClientTeam)).map((team) => createTeamObject(team, scope)),
  [],
);

/**
 * The members of one of the user's teams (needs `$read_members`), as a query
 * of `ClientApp`; removing a member or changing a team profile re-reads it.
 *
 * @example
 * ```ts
 * const members = await app.load(teamMembersQuery(team));
 * ```
 */
export function teamMembersQuery(team: TeamRef): ClientQuery<TeamUser[]> {
  const teamId = teamIdOf(team);
  return accountQuery(['team', teamId, 'members'], (scope) => loadMembers(scope.send, teamId));
}

/**
 * The pending invitations of one of the user's teams (needs `$read_members`
 * and `$invite_members`), as a query of `ClientApp`; inviting and revoking re-read it.
 *
 * @example
 * ```ts
 * const invitations = await app.load(teamInvitationsQuery(team));
 * ```
 */
export function teamInvitationsQuery(team: TeamRef): ClientQuery<TeamInvitation[]> {
  const teamId = teamIdOf(team);
  return accountQuery(['team', teamId, 'invitations'], (scope) =>
    loadInvitations(scope.send, teamId, () => scope.data.invalidate(teamKey(teamId))),
  );
}

/**
 * The signed-in user's profile in one team, which they may change.
 *
 * @example
 * ```ts
 * const profile = await user.getTeamProfile(team);
 * await profile.update({ displayName: 'Ada (Acme)' });
 * ```
 */
export interface EditableTeamMemberProfile extends TeamMemberProfile {
  update(profile: Partial<TeamMemberProfile>): Promise<void>;
}

/**
 * The teams slice of `CurrentUser`: the user's teams and what they hold in them.
 *
 * @example
 * ```ts
 * const team = await user.createTeam({ displayName: 'Acme' });
 * await user.setSelectedTeam(team);
 * ```
 */
export interface TeamActions extends TeamPermissionQueries {
  /** The user's teams (also app data: `app.load('teams')`). */
  listTeams(): Promise<Team[]>;
  /** One of the user's teams, or `null`. */
  getTeam(teamId: string): Promise<Team | null>;
  /** Creates a team the user is the first member of (the project must allow it); then re-reads the teams. */
  createTeam(options: { displayName: string; profileImageUrl?: string | null }): Promise<Team>;
  /** Leaves a team; then re-reads the teams and the user (whose selected team it may have been). */
  leaveTeam(team: TeamRef): Promise<void>;
  /** Makes `team` the selected team (`null`: none), which follows the user to every device. */
  setSelectedTeam(team: TeamRef | null): Promise<void>;
  /** The user's own profile in a team. */
  getTeamProfile(team: TeamRef): Promise<EditableTeamMemberProfile>;
}

/** The teams slice of the signed-in user of `scope`. */
export function teamActions(scope: ClientScope): TeamActions {
  const afterChange = () => scope.reloadWithUser(teamsQuery);
  return {
    ...teamPermissionQueries(scope.send, 'me'),
    listTeams: () => scope.data.load(teamsQuery),
    getTeam: async (teamId) => (await scope.data.load(teamsQuery)).find((team) => team.id === teamId) ?? null,
    async createTeam(options) {
      const created = await createTeam(scope.send, { ...options, creatorUserId: 'me' }, readClientTeam);
      await afterChange();
      return createTeamObject(created, scope);
    },
    async leaveTeam(team) {
      const teamId = teamIdOf(team);
      await removeTeamMember(scope.send, teamId, 'me');
      await Promise.all([afterChange(), scope.data.invalidate(teamKey(teamId))]);
    },
    async setSelectedTeam(team) {
      await updateCurrentUser(scope.send, { selectedTeamId: team === null ? null : teamIdOf(team) });
      await scope.reloadUser();
    },
    async getTeamProfile(team) {
      const teamId = teamIdOf(team);
      const profile = await fetchTeamProfile(scope.send, teamId, 'me');
      return {
        ...profile.teamProfile,
        async update(changes) {
          await updateTeamProfile(scope.send, teamId, profile.userId, changes);
          await scope.data.invalidate(teamKey(teamId, 'members'));
        },
      };
    },
  };
}
