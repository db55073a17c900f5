/**
 * `ServerUser`: a user as server code holds it, with what server code may do
 * to it: change any field, delete it, start a session for it, list and end
 * its sessions. Written once; every audience with server access hands these
 * out.
 */
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
import {
  type CreateSessionOptions,
  createSession,
  listSessions,
  revokeSession,
  type SessionTokens,
  type UserSessionData,
} from '../sessions/sessions-api.js';
import { createServerTeam, type ServerTeam } from '../teams/server-team.js';
import { readServerTeam } from '../teams/team-decoder.js';
import {
  type TeamPermissionQueries,
  type TeamRef,
  teamIdOf,
  teamPermissionQueries,
} from '../teams/team-permissions.js';
import {
  fetchTeamProfile,
  listTeams,
  setTeamPermission,
  type TeamMemberProfile,
  updateTeamProfile,
} from '../teams/teams-api.js';
import { type ConnectedAccountQueries, connectedAccountQueries } from './connected-accounts.js';
import { deleteUser, type ServerUserUpdate, updateUser } from './server-users-api.js';
import type { ServerUserData } from './user-decoder.js';

/**
 * One of a user's sessions, which server code may end.
 *
 * @example
 * ```ts
 * const sessions = await user.listSessions();
 * await Promise.all(sessions.filter((s) => !s.isCurrent).map((s) => s.revoke()));
 * ```
 */
export interface UserSession extends UserSessionData {
  /** Ends the session: its refresh token stops working (its access token lasts until it expires). */
  revoke(): Promise<void>;
}

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
    async listSessions() {
      const sessions = await listSessions(send, id);
      return sessions.map((session) => ({ ...session, revoke: () => revokeSession(send, session.id) }));
    },
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
    listTeams: async () => (await listTeams(send, id, readServerTeam)).map((team) => createServerTeam(team, send)),
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
