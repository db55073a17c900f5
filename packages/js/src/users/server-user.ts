/**
 * `ServerUser` and `ServerTeam`: a user and a team as server code holds them,
 * with what server code may do to them (change any field, delete, start and
 * end a user's sessions, a team's members and invitations). They hand out
 * each other (a user's teams, a team's members), so they are built in one
 * module; every audience with server access hands them out.
 */

import type { ServerTeamMemberProfileWire } from '@latchkey/protocol';
import {
  type ContactChannelCreate,
  createContactChannel,
  listContactChannels,
  sendChannelVerificationCode,
} from '../contact-channels/contact-channels-api.js';
import {
  createServerContactChannel,
  requiredCallback,
  type ServerContactChannel,
} from '../contact-channels/server-contact-channel.js';
import type { Send } from '../internal/core.js';
import type { Fields } from '../internal/decode/fields.js';
import {
  type CreateSessionOptions,
  createSession,
  listSessions,
  revokeSession,
  type SessionTokens,
  type UserSession,
} from '../sessions/sessions-api.js';
import { invitationObject, type TeamInvitation } from '../teams/team.js';
import { readServerTeam, type ServerTeamData } from '../teams/team-decoder.js';
import {
  type TeamPermissionQueries,
  type TeamRef,
  teamIdOf,
  teamPermissionQueries,
} from '../teams/team-permissions.js';
import {
  addTeamMember,
  deleteTeam,
  fetchTeam,
  fetchTeamProfile,
  inviteToTeam,
  listTeamInvitations,
  listTeamMembers,
  listTeams,
  removeTeamMember,
  setTeamPermission,
  type TeamMemberProfile,
  type TeamUpdate,
  updateTeam,
  updateTeamProfile,
} from '../teams/teams-api.js';
import { type ConnectedAccountQueries, connectedAccountQueries } from './connected-accounts.js';
import { deleteUser, type ServerUserUpdate, updateUser } from './server-users-api.js';
import { readServerUser, type ServerUserData } from './user-decoder.js';

/**
 * A user as server code sees it, and what server code may do to it.
 *
 * @example
 * ```ts
 * const user = await serverApp.getUser(userId);
 * const updated = await user?.update({ serverMetadata: { plan: 'pro' }, primaryEmailVerified: true });
 * const { accessToken, refreshToken } = await user!.createSession({ isImpersonation: true });
 * ```
 */
export interface ServerUser extends ServerUserData, TeamPermissionQueries, ConnectedAccountQueries {
  /** Changes any field server code may set; resolves with the user as it is afterwards. */
  update(update: ServerUserUpdate): Promise<ServerUser>;
  /** Deletes the user and ends their sessions. */
  delete(): Promise<void>;
  /** Starts a session for the user (impersonation, or tokens for your own sign-in flow). */
  createSession(options?: CreateSessionOptions): Promise<SessionTokens>;
  /** The user's active sessions, most recently used first. */
  listSessions(): Promise<UserSession[]>;
  /** The user's e-mail addresses. */
  listContactChannels(): Promise<ServerContactChannel[]>;
  /** Adds an e-mail address (server code may add it verified, and make it primary). */
  createContactChannel(options: ContactChannelCreate): Promise<ServerContactChannel>;
  /** Mails a verification link for the primary e-mail to `callbackUrl?code=...` (required on the server). */
  sendVerificationEmail(options: { callbackUrl: string }): Promise<void>;
  /** The teams the user is a member of. */
  listTeams(): Promise<ServerTeam[]>;
  /** Makes `team` (one of theirs) the user's selected team, or none; resolves with the user afterwards. */
  setSelectedTeam(team: TeamRef | null): Promise<ServerUser>;
  /** The user's profile in a team, which server code may change. */
  getTeamProfile(
    team: TeamRef,
  ): Promise<TeamMemberProfile & { update(profile: Partial<TeamMemberProfile>): Promise<void> }>;
  /** Grants a permission in a team the user is a member of (`PERMISSION_NOT_FOUND` for an unknown id). */
  grantPermission(team: TeamRef, permissionId: string): Promise<void>;
  /** Revokes a permission granted directly (`TEAM_PERMISSION_NOT_FOUND` otherwise). */
  revokePermission(team: TeamRef, permissionId: string): Promise<void>;
}

/** The `ServerUser` of `data`, acting through `send` (server or admin credentials). */
export function createServerUser(data: ServerUserData, send: Send): ServerUser {
  const { id } = data;
  return {
    ...data,
    update: async (update) => createServerUser(await updateUser(send, id, update), send),
    delete: () => deleteUser(send, id),
    createSession: (options) => createSession(send, id, options),
    listSessions: () => userSessions(send, id),
    async listContactChannels() {
      return (await listContactChannels(send, id)).map((channel) => createServerContactChannel(channel, send));
    },
    createContactChannel: async (options) =>
      createServerContactChannel(await createContactChannel(send, id, options), send),
    async sendVerificationEmail(options) {
      const url = requiredCallback(options, 'ServerUser.sendVerificationEmail');
      const primary = (await listContactChannels(send, id)).find((channel) => channel.isPrimary);
      if (!primary) throw new TypeError('ServerUser.sendVerificationEmail: the user has no primary e-mail.');
      await sendChannelVerificationCode(send, id, primary.id, url);
    },
    ...teamPermissionQueries(send, id),
    listTeams: () => userTeams(send, id),
    setSelectedTeam: async (team) =>
      createServerUser(await updateUser(send, id, { selectedTeamId: team === null ? null : teamIdOf(team) }), send),
    async getTeamProfile(team) {
      const teamId = teamIdOf(team);
      const profile = await fetchTeamProfile(send, teamId, id);
      return { ...profile.teamProfile, update: (changes) => updateTeamProfile(send, teamId, id, changes) };
    },
    ...connectedAccountQueries(send, id, data.oauthProviders),
    grantPermission: (team, permissionId) => setTeamPermission(send, true, teamIdOf(team), id, permissionId),
    revokePermission: (team, permissionId) => setTeamPermission(send, false, teamIdOf(team), id, permissionId),
  };
}

/** The user's active sessions, each able to end itself. */
export async function userSessions(send: Send, userId: string): Promise<UserSession[]> {
  const sessions = await listSessions(send, userId);
  return sessions.map((session) => ({ ...session, revoke: () => revokeSession(send, session.id) }));
}

/** The teams the user is a member of, in their server view. */
export async function userTeams(send: Send, userId: string): Promise<ServerTeam[]> {
  return (await listTeams(send, userId, readServerTeam)).map((team) => createServerTeam(team, send));
}

/**
 * A member of a team as server code sees them: the whole user, and their team profile.
 *
 * @example
 * ```ts
 * for (const member of await team.listUsers()) console.log(member.primaryEmail, member.teamProfile.displayName);
 * ```
 */
export interface ServerTeamUser extends ServerUser {
  teamProfile: TeamMemberProfile;
}

/**
 * A team, and what server code may do to it.
 *
 * @example
 * ```ts
 * const team = await serverApp.createTeam({ displayName: 'Acme', creatorUserId: userId });
 * await team.addUser(otherUserId);
 * ```
 */
export interface ServerTeam extends ServerTeamData {
  /** Changes any field; resolves with the team as it is afterwards. */
  update(update: TeamUpdate): Promise<ServerTeam>;
  /** Deletes it with its memberships, member profiles, permissions and invitations. */
  delete(): Promise<void>;
  /** Adds a user with the project's member permissions (`TEAM_MEMBERSHIP_ALREADY_EXISTS` if a member). */
  addUser(userId: string): Promise<void>;
  /** Removes a member (their permissions in the team go too). */
  removeUser(userId: string): Promise<void>;
  /** The members, each with their team profile. */
  listUsers(): Promise<ServerTeamUser[]>;
  /** Mails an invitation link to `callbackUrl?code=...` (your page, on a trusted domain; required on the server). */
  inviteUser(options: { email: string; callbackUrl: string }): Promise<void>;
  /** The pending invitations. */
  listInvitations(): Promise<TeamInvitation[]>;
}

/** The `ServerTeam` of `data`, acting through `send` (server or admin credentials). */
export function createServerTeam(data: ServerTeamData, send: Send): ServerTeam {
  const { id } = data;
  return {
    ...data,
    async update(update) {
      await updateTeam(send, id, update);
      return createServerTeam(await fetchTeam(send, id, readServerTeam), send);
    },
    delete: () => deleteTeam(send, id),
    addUser: (userId) => addTeamMember(send, id, userId),
    removeUser: (userId) => removeTeamMember(send, id, userId),
    listUsers: () => teamMembers(send, id),
    inviteUser: async (options) =>
      inviteToTeam(send, id, options.email, requiredCallback(options, 'ServerTeam.inviteUser')),
    listInvitations: () => teamInvitations(send, id),
  };
}

export async function teamMembers(send: Send, teamId: string): Promise<ServerTeamUser[]> {
  const members = await listTeamMembers(send, teamId, (profile) =>
    (profile as unknown as Fields<ServerTeamMemberProfileWire>).object('user', readServerUser),
  );
  return members.map((member) => ({ ...createServerUser(member.user, send), teamProfile: member.teamProfile }));
}

export async function teamInvitations(send: Send, teamId: string): Promise<TeamInvitation[]> {
  return (await listTeamInvitations(send, teamId)).map((invitation) => invitationObject(send, invitation));
}
