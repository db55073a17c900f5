/**
 * Accepting a team invitation (wire-protocol.md §14.5): the code from the
 * invitation link, checked, described (which team, which address) and used.
 * The first two work signed out.
 */
import type { TeamInvitationDetailsWire } from '@latchkey/protocol';
import { trimmed } from '../auth/email-codes.js';
import type { Send } from '../internal/core.js';
import { optionalString, readFields } from '../internal/decode/fields.js';
import { ignoreAnswer } from '../users/users-api.js';

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
export function checkTeamInvitationCode(send: Send, code: string): Promise<void> {
  const body = { code: trimmed(code) };
  return send({ method: 'POST', path: '/team-invitations/accept/check-code', body }, ignoreAnswer);
}

/** `POST /team-invitations/accept/details`. */
export function fetchTeamInvitationDetails(send: Send, code: string): Promise<TeamInvitationDetails> {
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
export function acceptTeamInvitationCode(send: Send, code: string): Promise<void> {
  return send({ method: 'POST', path: '/team-invitations/accept', body: { code: trimmed(code) } }, ignoreAnswer);
}
