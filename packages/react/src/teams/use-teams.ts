'use client';
/**
 * `useTeams()` and `useTeam(id)`: the signed-in user's teams (`[]` signed
 * out), kept current as they change anywhere in the app: `teamsQuery` (by
 * its name `'teams'`) on the provider's `ClientApp`. Both suspend until the
 * teams are loaded.
 */
import type { Team, TeamActions } from '@latchkey/js';
import { useAppData } from '../internal/use-app-data.js';

/**
 * The signed-in user's teams.
 *
 * @example
 * ```tsx
 * const teams = useTeams();
 * return <ul>{teams.map((team) => <li key={team.id}>{team.displayName}</li>)}</ul>;
 * ```
 */
export function useTeams(): Team[] {
  return useAppData('teams', { suspend: true });
}

/**
 * One of the signed-in user's teams, or `null`.
 *
 * @example
 * ```tsx
 * const team = useTeam(teamId);
 * if (!team) return <p>Not a member.</p>;
 * ```
 */
export function useTeam(teamId: string): Team | null {
  return useTeams().find((team) => team.id === teamId) ?? null;
}

/**
 * Creates a team the user is the first member of, and makes it their
 * selected team: what they create is what they go on to work in (the Teams
 * section and the switcher both create this way).
 */
export async function createSelectedTeam(user: TeamActions, displayName: string): Promise<Team> {
  const team = await user.createTeam({ displayName });
  await user.setSelectedTeam(team);
  return team;
}
