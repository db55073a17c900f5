/**
 * Team invitations (wire-protocol §14.5, §15.10, §12).
 *
 * An invitation is a verification code (hashed, single use, 7 days,
 * attempt-limited) mailed as a link, bound to its team and to the address it
 * was sent to:
 * - Only a user who has the invited address may accept, and only when it is
 *   verified or all there is to the account: a fresh sign-up with the invited
 *   address accepts at once, and the code mailed to the address proves the
 *   mailbox (the address becomes verified; no separate verification mail is
 *   needed). A forwarded or leaked link does not let another account in, not
 *   even one that adds the invited address unverified beside its own ways in:
 *   it gets EMAIL_NOT_ASSOCIATED_WITH_USER, nothing is verified, and the code
 *   stays usable for the right person.
 * - Accepting uses the code in the transaction that adds the membership: of
 *   two concurrent accepts one wins, the other is VERIFICATION_CODE_ALREADY_USED.
 *   A user already a member uses the code and nothing else changes.
 * - The mail names who invited (display name and primary e-mail) and shows
 *   the team's name, which its creator chose, so that no mail client turns it
 *   into a link, and not in the default subject (`render-email.ts`). A client
 *   invites at most `invitationLimits` per user and per team in ten minutes
 *   (429 with `Retry-After` beyond), on top of the per-address mail limit.
 * - Inviting an address again replaces its pending invitation, so the list
 *   shows one per address; inviting a member is allowed (accepting is then a
 *   no-op).
 * - When the team is deleted its invitations stop being pending at once; their
 *   links answer TEAM_NOT_FOUND (not "no such code") until they expire.
 * - An id that names no pending invitation of the team (revoked, used, of
 *   another team) is VERIFICATION_CODE_NOT_FOUND: an invitation is a code.
 * - `accept/details` also answers `recipient_email`, so the page can say which
 *   address was invited (the holder of the code got it at that address).
 */
import { KnownError, systemTeamPermissions } from '@latchkey/protocol';
import { z } from 'zod';
import { checkClientCode, checkCodeRoute } from '../codes/code-mail.js';
import { codeErrors, verificationCode } from '../codes/codes.js';
import { callbackUrl, email, idRef, successAnswer } from '../common/schemas.js';
import { findAuthChannel } from '../contact-channels/contact-channel-store.js';
import type { Deps } from '../deps.js';
import { type ActionContext, requestContext } from '../events/recorder.js';
import { defineRoute, type Route } from '../http/route.js';
import type { ProjectRecord } from '../projects/projects.js';
import { isTrustedUrl } from '../projects/trusted-urls.js';
import { limitInvitations, limitMailSend } from '../rate-limit/rate-limit.js';
import type { Db } from '../storage/db.js';
import type { VerificationCodeRow } from '../storage/schema.js';
import { requireClientUser, teamAccessErrors, teamFor } from '../teams/team-access.js';
import { findTeam } from '../teams/team-store.js';
import { findUser } from '../users/user-store.js';
import { listPendingInvitations } from './invitation-store.js';
import { acceptInvitation, invitedChannel, revokeInvitation, sendInvitation } from './invitations-actions.js';

const { inviteMembers, readMembers, removeMembers } = systemTeamPermissions;

const invitationSchema = z
  .object({ id: z.uuid(), team_id: z.uuid(), recipient_email: z.string(), expires_at_millis: z.number().int() })
  .strict()
  .meta({ id: 'TeamInvitation' });

const sendInvitationRoute = defineRoute({
  method: 'POST',
  path: '/team-invitations/send-code',
  tag: 'team-invitations',
  summary: 'Mails an invitation link (`<callback_url>?code=<code>`) to join a team (a client needs `$invite_members`).',
  access: 'client',
  body: z.strictObject({ email, team_id: idRef, callback_url: callbackUrl }),
  answer: z.object({ success: z.literal(true), id: z.uuid() }).meta({ id: 'InvitationSent' }),
  errors: [...teamAccessErrors, 'REDIRECT_URL_NOT_WHITELISTED', 'USER_AUTHENTICATION_REQUIRED'],
  handler: async (input) => {
    const { auth, body, client, deps } = input;
    const { project } = auth;
    requireClientUser(auth);
    const team = await teamFor(deps.db, auth, body.team_id, inviteMembers);
    if (!isTrustedUrl(body.callback_url, project.config)) throw new KnownError('REDIRECT_URL_NOT_WHITELISTED');
    const now = deps.clock.now();
    const inviterId = auth.accessType === 'client' ? auth.userId : null;
    await limitInvitations(deps.counters, project, { inviterId, teamId: team.id, now });
    await limitMailSend(deps.counters, project, {
      kind: 'team_invitation',
      email: body.email,
      ip: client.ip,
      now,
    });
    const issued = await sendInvitation(requestContext(input), {
      project,
      team,
      email: body.email,
      callbackUrl: body.callback_url,
      recipientName: await findRecipientName(deps.db, project.id, body.email),
      inviterName: auth.userId === null ? null : await findInviterName(deps.db, project.id, auth.userId),
    });
    return { success: true as const, id: issued.id };
  },
});

/**
 * How the mail names who invited: display name and primary e-mail, or either
 * alone (the address says who it is even when the name pretends otherwise).
 */
async function findInviterName(db: Db, projectId: string, userId: string): Promise<string | null> {
  const user = await findUser(db, projectId, userId);
  const name = user?.display_name?.trim() || null;
  const address = user?.primary_email ?? null;
  return name && address ? `${name} (${address})` : (name ?? address);
}

/** The greeting's name: the display name of the user who signs in with the address, if any. */
async function findRecipientName(db: Db, projectId: string, address: string): Promise<string | null> {
  const channel = await findAuthChannel(db, projectId, address);
  return channel ? ((await findUser(db, projectId, channel.user_id))?.display_name ?? null) : null;
}

const listInvitations = defineRoute({
  method: 'GET',
  path: '/team-invitations',
  tag: 'team-invitations',
  summary: "A team's pending invitations (a client needs `$read_members` and `$invite_members`).",
  access: 'client',
  query: z.object({ team_id: idRef }),
  answer: z
    .object({ items: z.array(invitationSchema), is_paginated: z.literal(false) })
    .meta({ id: 'TeamInvitationList' }),
  errors: teamAccessErrors,
  handler: async ({ auth, query, deps }) => {
    const team = await teamFor(deps.db, auth, query.team_id, readMembers, inviteMembers);
    const items = await listPendingInvitations(deps.db, auth.project.id, team.id, deps.clock.now());
    return { items, is_paginated: false as const };
  },
});

const revoke = defineRoute({
  method: 'DELETE',
  path: '/team-invitations/:invitationId',
  tag: 'team-invitations',
  summary:
    'Revokes a pending invitation of the team `team_id` names; its link stops working (a client needs `$remove_members`).',
  access: 'client',
  params: z.object({ invitationId: idRef }),
  query: z.object({ team_id: idRef }),
  answer: successAnswer,
  errors: [...teamAccessErrors, 'VERIFICATION_CODE_NOT_FOUND'],
  handler: async (input) => {
    const { auth, params, query, deps } = input;
    const team = await teamFor(deps.db, auth, query.team_id, removeMembers);
    if (!z.uuid().safeParse(params.invitationId).success) throw new KnownError('VERIFICATION_CODE_NOT_FOUND');
    await revokeInvitation(requestContext(input), team.id, params.invitationId.toLowerCase());
    return { success: true as const };
  },
});

const invitationData = z.object({ team_id: z.string(), email: z.string() });

/** The team and address of a checked invitation code; TEAM_NOT_FOUND when its team was deleted. */
async function invitationSubject(db: Db, projectId: string, row: VerificationCodeRow) {
  const data = invitationData.safeParse(row.data);
  if (!data.success) throw new KnownError('VERIFICATION_CODE_NOT_FOUND');
  const team = row.team_id === null ? null : await findTeam(db, projectId, row.team_id);
  if (!team) throw new KnownError('TEAM_NOT_FOUND', { team_id: data.data.team_id });
  return { team, email: data.data.email };
}

const checkInvitation = checkCodeRoute({
  path: '/team-invitations/accept/check-code',
  tag: 'team-invitations',
  summary: 'Says whether an invitation code may be used, without using it.',
  purpose: 'team_invitation',
  subject: invitationSubject,
  errors: ['TEAM_NOT_FOUND'],
});

/**
 * The invitation a client sent the code of, checked under the client's limit
 * on guesses. With `needsUser`, a signed-out caller is refused once the code
 * is found good (USER_AUTHENTICATION_REQUIRED, as the original backend).
 */
async function checkedInvitation(
  ctx: ActionContext,
  deps: Deps,
  project: ProjectRecord,
  code: string,
  needsUser = false,
) {
  const now = deps.clock.now();
  const lookup = { purpose: 'team_invitation' as const, code, now, clientIp: ctx.client.ip };
  const row = await checkClientCode(deps, project, lookup, ctx);
  if (needsUser && ctx.userId === null) throw new KnownError('USER_AUTHENTICATION_REQUIRED');
  return { row, now, ...(await invitationSubject(deps.db, project.id, row)) };
}

const details = defineRoute({
  method: 'POST',
  path: '/team-invitations/accept/details',
  tag: 'team-invitations',
  summary: 'The team an invitation code is for, and the address it was sent to (works signed out).',
  access: 'client',
  body: z.strictObject({ code: verificationCode }),
  answer: z
    .object({ team_id: z.uuid(), team_display_name: z.string(), recipient_email: z.string() })
    .meta({ id: 'TeamInvitationDetails' }),
  errors: [...codeErrors, 'TEAM_NOT_FOUND'],
  handler: async (input) => {
    const { auth, body, deps } = input;
    const { team, email: recipient } = await checkedInvitation(requestContext(input), deps, auth.project, body.code);
    return { team_id: team.id, team_display_name: team.display_name, recipient_email: recipient };
  },
});

const accept = defineRoute({
  method: 'POST',
  path: '/team-invitations/accept',
  tag: 'team-invitations',
  summary:
    "Joins the team with the project's member permissions; the signed-in user must have the invited address, verified or all there is to the account (then the invitation verifies it).",
  access: 'client',
  body: z.strictObject({ code: verificationCode }),
  answer: z.object({}).strict().meta({ id: 'Empty' }),
  errors: [...codeErrors, 'USER_AUTHENTICATION_REQUIRED', 'TEAM_NOT_FOUND', 'EMAIL_NOT_ASSOCIATED_WITH_USER'],
  handler: async (input) => {
    const { auth, body, deps } = input;
    const { project } = auth;
    const ctx = requestContext(input);
    const { row, team, email: invited } = await checkedInvitation(ctx, deps, project, body.code, true);
    const userId = ctx.userId!;
    if (!(await invitedChannel(deps.db, project.id, userId, invited))) {
      throw new KnownError('EMAIL_NOT_ASSOCIATED_WITH_USER');
    }
    await acceptInvitation(ctx, project, row, team, invited);
    return {};
  },
});

export const invitationRoutes: readonly Route[] = [
  sendInvitationRoute,
  listInvitations,
  revoke,
  checkInvitation,
  details,
  accept,
];
