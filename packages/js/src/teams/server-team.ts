/**
 * `ServerTeam`: a team as server code holds it, with what server code may do
 * to it, and the teams module of the audiences with server access
 * (`ServerApp`, `AdminApp`). Built once here.
 */
import { isKnownError, type ServerTeamMemberProfileWire } from '@latchkey/protocol';
import { requiredCallback } from '../contact-channels/server-contact-channel.js';
import type { AudienceScope, ServerScope } from '../internal/audience.js';
import type { Send } from '../internal/core.js';
import type { Fields } from '../internal/decode/fields.js';
import type { Query } from '../query.js';
import { createServerUser, type ServerUser } from '../users/server-user.js';
import { readServerUser } from '../users/user-decoder.js';
import { invitationObject, type TeamInvitation } from './team.js';
import { readServerTeam, type ServerTeamData } from './team-decoder.js';
import {
  addTeamMember,
  createTeam,
  deleteTeam,
  fetchTeam,
  inviteToTeam,
  listTeamInvitations,
  listTeamMembers,
  listTeams,
  removeTeamMember,
  type TeamCreate,
  type TeamMemberProfile,
  type TeamUpdate,
  updateTeam,
} from './teams-api.js';

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

async function teamMembers(send: Send, teamId: string): Promise<ServerTeamUser[]> {
  const members = await listTeamMembers(send, teamId, (profile) =>
    (profile as unknown as Fields<ServerTeamMemberProfileWire>).object('user', readServerUser),
  );
  return members.map((member) => ({ ...createServerUser(member.user, send), teamProfile: member.teamProfile }));
}

async function teamInvitations(send: Send, teamId: string): Promise<TeamInvitation[]> {
  return (await listTeamInvitations(send, teamId)).map((invitation) => invitationObject(send, invitation));
}

async function allTeams(send: Send): Promise<ServerTeam[]> {
  return (await listTeams(send, null, readServerTeam)).map((team) => createServerTeam(team, send));
}

async function teamById(send: Send, teamId: string): Promise<ServerTeam | null> {
  try {
    return createServerTeam(await fetchTeam(send, teamId, readServerTeam), send);
  } catch (error) {
    if (isKnownError(error, 'TEAM_NOT_FOUND')) return null;
    throw error;
  }
}

/**
 * The project's teams, for server code.
 *
 * @example
 * ```ts
 * const teams = await serverApp.listTeams();
 * ```
 */
export interface ServerTeams {
  /** Creates a team; with `creatorUserId`, that user is its first member with the creator permissions. */
  createTeam(options: TeamCreate): Promise<ServerTeam>;
  /** Every team of the project, oldest first. */
  listTeams(): Promise<ServerTeam[]>;
  /** The team with this id; `null` when the project has none. */
  getTeam(teamId: string): Promise<ServerTeam | null>;
}

/** The teams module of an audience with server access. */
export function serverTeams(scope: AudienceScope): ServerTeams {
  const { send } = scope;
  return {
    createTeam: async (options) => createServerTeam(await createTeam(send, options, readServerTeam), send),
    listTeams: () => allTeams(send),
    getTeam: (teamId) => teamById(send, teamId),
  };
}

/**
 * Every team of the project, as a query of `ServerApp` and `AdminApp`.
 *
 * @example
 * ```ts
 * const teams = await serverApp.load(serverTeamsQuery);
 * ```
 */
export const serverTeamsQuery: Query<ServerTeam[], ServerScope> = {
  key: ['teams'],
  load: ({ send }) => allTeams(send),
};

/**
 * The team with this id (`null` when the project has none), as a query of `ServerApp` and `AdminApp`.
 *
 * @example
 * ```ts
 * const team = await serverApp.load(serverTeamQuery(teamId));
 * ```
 */
export function serverTeamQuery(teamId: string): Query<ServerTeam | null, ServerScope> {
  return { key: ['team', teamId], load: ({ send }) => teamById(send, teamId) };
}

/**
 * A team's members with their team profiles, as a query of `ServerApp` and `AdminApp`.
 *
 * @example
 * ```ts
 * const members = await serverApp.load(serverTeamMembersQuery(teamId));
 * ```
 */
export function serverTeamMembersQuery(teamId: string): Query<ServerTeamUser[], ServerScope> {
  return { key: ['team', teamId, 'members'], load: ({ send }) => teamMembers(send, teamId) };
}

/**
 * A team's pending invitations, as a query of `ServerApp` and `AdminApp`.
 *
 * @example
 * ```ts
 * const invitations = await serverApp.load(serverTeamInvitationsQuery(teamId));
 * ```
 */
export function serverTeamInvitationsQuery(teamId: string): Query<TeamInvitation[], ServerScope> {
  return { key: ['team', teamId, 'invitations'], load: ({ send }) => teamInvitations(send, teamId) };
}
