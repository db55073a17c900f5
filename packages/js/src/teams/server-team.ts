/**
 * The teams module of the audiences with server access (`ServerApp`,
 * `AdminApp`) and their team queries. The `ServerTeam` objects it hands out
 * are built beside `ServerUser` (`users/server-user.ts`), since each hands
 * out the other.
 */
import { isKnownError } from '@latchkey/protocol';
import type { AudienceScope, ServerScope } from '../internal/audience.js';
import type { Send } from '../internal/core.js';
import type { Query } from '../query.js';
import {
  createServerTeam,
  type ServerTeam,
  type ServerTeamUser,
  teamInvitations,
  teamMembers,
} from '../users/server-user.js';
import type { TeamInvitation } from './team.js';
import { readServerTeam } from './team-decoder.js';
import { createTeam, fetchTeam, listTeams, type TeamCreate } from './teams-api.js';

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
