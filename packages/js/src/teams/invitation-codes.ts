/**
 * Accepting a team invitation (wire-protocol.md §14.5): the code from the
 * invitation link, checked, described (which team, which address) and used.
 * The first two work signed out. `ClientApp` mounts them as its team
 * invitations module.
 */
import type { TeamInvitationDetailsWire } from '@latchkey/protocol';
import { trimmed } from '../auth/email-codes.js';
import type { Send } from '../internal/core.js';
import { optionalString, readFields } from '../internal/decode/fields.js';
import type { ClientScope } from '../users/account-data.js';
import { ignoreAnswer } from '../users/users-api.js';
import { teamsQuery } from './team.js';

/**
 * What an invitation link is for: the team, and the address it was sent to
 * (when the service says; only a user with that address may accept).
 *
 * @example
 * ```ts
 * const { teamDisplayName, recipientEmail } = await app.getTeamInvitationDetails(code);
 * ```
 */
export interface TeamInvitationDetails {
  teamId: string;
  teamDisplayName: string;
  recipientEmail: string | null;
}

/** `POST /team-invitations/accept/check-code`: throws the code's known error when it would not work. */
function checkTeamInvitationCode(send: Send, code: string): Promise<void> {
  const body = { code: trimmed(code) };
  return send({ method: 'POST', path: '/team-invitations/accept/check-code', body }, ignoreAnswer);
}

/** `POST /team-invitations/accept/details`. */
function fetchTeamInvitationDetails(send: Send, code: string): Promise<TeamInvitationDetails> {
  const body = { code: trimmed(code) };
  return send({ method: 'POST', path: '/team-invitations/accept/details', body }, (answer) =>
    readFields<TeamInvitationDetailsWire & { recipient_email?: string }, TeamInvitationDetails>(answer, (details) => ({
      teamId: details.string('team_id'),
      teamDisplayName: details.string('team_display_name'),
      recipientEmail: optionalString(details, 'recipient_email') ?? null,
    })),
  );
}

/** `POST /team-invitations/accept`: the signed-in user joins the team. */
function acceptTeamInvitationCode(send: Send, code: string): Promise<void> {
  return send({ method: 'POST', path: '/team-invitations/accept', body: { code: trimmed(code) } }, ignoreAnswer);
}

/**
 * What `ClientApp` does with the code of a team invitation link.
 *
 * @example
 * ```ts
 * await app.verifyTeamInvitationCode(code);
 * await app.acceptTeamInvitation(code);
 * ```
 */
export interface TeamInvitationCodes {
  /**
   * Throws the known error of an invitation code that would not work
   * (expired, used, its team deleted...). Sent with the session when there is
   * one, as the 2.7 SDK sends it; works signed out.
   */
  verifyTeamInvitationCode(code: string): Promise<void>;
  /** The team an invitation code is for, and the address it was sent to; works signed out. */
  getTeamInvitationDetails(code: string): Promise<TeamInvitationDetails>;
  /**
   * Joins the team of an invitation as the signed-in user, who must have the
   * invited address (`EMAIL_NOT_ASSOCIATED_WITH_USER` otherwise); then
   * re-reads the user's teams.
   */
  acceptTeamInvitation(code: string): Promise<void>;
}

/** The team invitations module of `ClientApp`. */
export function teamInvitationCodes({ send, data }: ClientScope): TeamInvitationCodes {
  return {
    verifyTeamInvitationCode: (code) => checkTeamInvitationCode(send, code),
    getTeamInvitationDetails: (code) => fetchTeamInvitationDetails(send, code),
    async acceptTeamInvitation(code) {
      await acceptTeamInvitationCode(send, code);
      await data.reload(teamsQuery);
    },
  };
}
