/**
 * What changes invitations, for the routes: send one (replacing the pending
 * one to the same address), revoke one, and accept one. Each is an action
 * (`events/recorder.ts`): the code, its mail, the membership and the event
 * commit together. The routes check permissions, limits and the code first.
 */
import { KnownError } from '@latchkey/protocol';
import { mailCode } from '../codes/code-mail.js';
import { type IssuedCode, useCode } from '../codes/codes.js';
import {
  countOtherChannels,
  findUserChannelByValue,
  markChannelVerified,
} from '../contact-channels/contact-channel-store.js';
import { mirrorPrimaryChannel } from '../contact-channels/contact-channels-actions.js';
import { type ActionContext, act, record } from '../events/recorder.js';
import { countUserAccounts } from '../oauth/oauth-account-store.js';
import type { ProjectRecord } from '../projects/projects.js';
import type { Db } from '../storage/db.js';
import type { ContactChannelRow, TeamRow, VerificationCodeRow } from '../storage/schema.js';
import { joinTeam } from '../teams/teams-actions.js';
import { lockUser } from '../users/user-store.js';
import { revokeInvitation as deleteInvitation, revokeInvitationsTo } from './invitation-store.js';

/** An invitation to send: to whom, to which team, from whom, and the page its link opens. */
export interface Invitation {
  project: ProjectRecord;
  team: TeamRow;
  email: string;
  callbackUrl: string;
  /** The greeting's name: the invited address's user, if any. */
  recipientName: string | null;
  /** Who invited, as the mail names them. */
  inviterName: string | null;
}

/** Mails an invitation code to join the team; a pending invitation to the same address is replaced. */
export function sendInvitation(ctx: ActionContext, invitation: Invitation): Promise<IssuedCode> {
  const { project, team, email } = invitation;
  return act(ctx, async (tx) => {
    await revokeInvitationsTo(tx.db, project.id, team.id, email);
    const code = await mailCode(tx.db, {
      project,
      type: 'team_invitation',
      to: email,
      data: { team_id: team.id, email },
      teamId: team.id,
      callbackUrl: invitation.callbackUrl,
      now: ctx.clock.now(),
      variables: (link) => ({
        userDisplayName: invitation.recipientName,
        teamDisplayName: team.display_name,
        inviterName: invitation.inviterName,
        teamInvitationLink: link,
      }),
    });
    await record(tx, 'team_invitation.sent', { userId: null, data: { team_id: team.id, invitation_id: code.id } });
    return code;
  });
}

/** Revokes a pending invitation of the team: VERIFICATION_CODE_NOT_FOUND when there is none. */
export function revokeInvitation(ctx: ActionContext, teamId: string, invitationId: string): Promise<void> {
  return act(ctx, async (tx) => {
    if (!(await deleteInvitation(tx.db, ctx.projectId, teamId, invitationId))) {
      throw new KnownError('VERIFICATION_CODE_NOT_FOUND');
    }
    await record(tx, 'team_invitation.revoked', {
      userId: null,
      data: { team_id: teamId, invitation_id: invitationId },
    });
  });
}

/**
 * The user's channel with the invited address when the invitation lets them
 * in: verified, or unverified and all there is to the account (no other
 * address, no provider), which the code mailed to it proves (a fresh sign-up
 * with the invited address: no separate verification mail is needed). Null
 * otherwise: an account that added the address beside its own ways in (a
 * leaked link) proves nothing by holding the code.
 *
 * @example
 * const channel = await invitedChannel(db, projectId, userId, 'grace@example.com');
 */
export async function invitedChannel(
  db: Db,
  projectId: string,
  userId: string,
  invited: string,
): Promise<ContactChannelRow | null> {
  const channel = await findUserChannelByValue(db, projectId, userId, invited);
  if (!channel || channel.is_verified) return channel;
  const otherWaysIn =
    (await countOtherChannels(db, projectId, userId, channel.id)) > 0 ||
    (await countUserAccounts(db, projectId, userId)) > 0;
  return otherWaysIn ? null : channel;
}

/**
 * Uses the checked invitation code and makes the context's user a member of
 * its team, while the invitation still lets them in (`invitedChannel`:
 * EMAIL_NOT_ASSOCIATED_WITH_USER otherwise); an unverified address it lets
 * in becomes verified (`contact_channel.verified`). A member already only
 * uses the code. TEAM_NOT_FOUND when the team was deleted meanwhile.
 */
export async function acceptInvitation(
  ctx: ActionContext,
  project: ProjectRecord,
  code: VerificationCodeRow,
  team: TeamRow,
  invited: string,
): Promise<void> {
  const userId = ctx.userId;
  if (userId === null) throw new KnownError('CANNOT_GET_OWN_USER_WITHOUT_USER');
  try {
    await act(ctx, async (tx) => {
      const now = ctx.clock.now();
      await useCode(tx.db, code, now);
      // The user's row: the lock every change to their channels takes.
      await lockUser(tx.db, project.id, userId);
      // Read again under the lock: the address may have been removed since the check.
      const channel = await invitedChannel(tx.db, project.id, userId, invited);
      if (!channel) throw new KnownError('EMAIL_NOT_ASSOCIATED_WITH_USER');
      if (await markChannelVerified(tx.db, channel)) {
        await mirrorPrimaryChannel(tx.db, project.id, userId);
        await record(tx, 'contact_channel.verified', { userId, data: { channel_id: channel.id } });
      }
      await joinTeam(tx.db, { project, teamId: team.id, userId, role: 'member', now });
      await record(tx, 'team_invitation.accepted', { data: { team_id: team.id, invitation_id: code.id } });
    });
  } catch (error) {
    // The team was deleted between the check and the membership (a foreign key violation).
    if ((error as { code?: unknown } | null)?.code === '23503') {
      throw new KnownError('TEAM_NOT_FOUND', { team_id: team.id });
    }
    throw error;
  }
}
