/**
 * Contact channels and e-mail verification (wire-protocol §14.6, §15.5, §12).
 *
 * A client acts on its own user (`me`), server and admin access on any user
 * of the project (`users/user-ref.ts`). Every change runs in one transaction,
 * under a lock on the user's row, with `mirrorPrimaryChannel`, so the user's `primary_email*` fields always
 * show the primary channel.
 *
 * Decisions where the protocol leaves room:
 * - As the original backend, with plain status errors (wire-protocol §4.2): a
 *   channel id that is malformed, of another user or of another project is a
 *   400 `Contact channel not found` (404 when mailing its code); adding an
 *   address the user already has is a 400 `Contact channel already exists`;
 *   a client naming another user is a 403 `Client can only ... for their own user.`
 *   (a 400 `Can only send verification code for your own user` when mailing a
 *   code), and CANNOT_GET_OWN_USER_WITHOUT_USER when signed out; the
 *   deprecated primary-address route answers a signed-out call SCHEMA_ERROR.
 * - Changing a channel to an address the user has on another is
 *   USER_EMAIL_ALREADY_EXISTS (409): the address exists on this user; the
 *   "someone else" error would be false.
 * - A client-created channel is never verified; a changed address is
 *   unverified again unless server access sets `is_verified` in the same call.
 * - An address is a sign-in address only once its mailbox is proven, when a
 *   client asks: a client-added (or client-changed) address with
 *   `used_for_auth: true` answers `used_for_auth: true` as Stack's reference
 *   does, but it signs nobody in and does not take the project's one sign-in
 *   slot for the address until it is verified; verifying it makes it a
 *   sign-in address, or answers CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE
 *   (the code left unused) when someone else signs in with it by then.
 *   Otherwise anybody could put another person's address on his account and
 *   wait for her (pre-hijacking). Server and admin access keep full control.
 * - A client cannot make an unverified address its primary one (asking
 *   `is_primary: true`, or changing the primary's address): the primary is
 *   the face apps show and mail. It is refused with SCHEMA_ERROR and a
 *   message saying to verify the address first, rather than silently left
 *   non-primary: a call that answers success must have done what it asked.
 *   Stack's reference lets a client do it; its own settings page offers
 *   "make primary" only for verified addresses.
 * - Deleting (or demoting) the primary channel leaves the user without a
 *   primary e-mail; no other channel is promoted behind the user's back.
 * - Deleting the last sign-in channel is allowed, even for a user with no
 *   password or other way in: server code must be able to remove any address,
 *   the catalogue has no honest error for "last sign-in method", and the
 *   user's sessions stay, so they can add and verify an address again.
 * - `verify` on a channel verified meanwhile (by another code) uses the code
 *   and succeeds: the address is verified, which is what the link promised.
 */

import { KnownError } from '@latchkey/protocol';
import { z } from 'zod';
import { checkClientCode, checkCodeRoute } from '../codes/code-mail.js';
import { codeErrors, verificationCode } from '../codes/codes.js';
import { callbackUrl, email, successAnswer } from '../common/schemas.js';
import type { Deps } from '../deps.js';
import { type ActionContext, requestContext } from '../events/recorder.js';
import type { RequestAuth } from '../http/env.js';
import { StatusRefusal } from '../http/responses.js';
import { defineRoute, type Route } from '../http/route.js';
import type { ProjectRecord } from '../projects/projects.js';
import { isTrustedUrl } from '../projects/trusted-urls.js';
import { limitMailSend } from '../rate-limit/rate-limit.js';
import type { Db } from '../storage/db.js';
import type { ContactChannelRow } from '../storage/schema.js';
import { resolveUser, userRefErrors } from '../users/user-ref.js';
import { findUser } from '../users/user-store.js';
import {
  type ContactChannelChanges,
  findContactChannel,
  findPrimaryChannel,
  listContactChannels,
} from './contact-channel-store.js';
import { contactChannelSchema, contactChannelView, shownUsedForAuth } from './contact-channel-views.js';
import {
  addChannel,
  channelNotFound,
  checkAddressFree,
  collisionErrors,
  removeChannel,
  sendVerificationCode,
  updateChannel,
  verifyChannel,
} from './contact-channels-actions.js';
import { verificationSubject } from './verification.js';

const userRef = z.string().max(100);
const channelParams = z.object({ userId: userRef, channelId: z.string().max(100) });

const unverifiedPrimary = () =>
  new KnownError('SCHEMA_ERROR', {
    message: 'An unverified e-mail address cannot be made primary: verify it first.',
  });

/** What a client naming another user's channels is told (a plain 403, as the original backend). */
const ownOnly = (verb: string) => `Client can only ${verb} contact channels for their own user.`;
/** What a client mailing a code to another user's channel is told (a plain 400, as the original backend). */
const ownCodeOnly = () => new StatusRefusal(400, 'Can only send verification code for your own user');

/**
 * The channel `params` name, of a user the caller may act on; a channel the
 * user does not have is refused as the original backend does: a plain 400
 * `Contact channel not found` (a plain 404 when mailing its code).
 */
async function namedChannel(
  db: Db,
  auth: RequestAuth,
  params: z.output<typeof channelParams>,
  verb: 'update' | 'delete' | 'verify',
) {
  const user = await resolveUser(db, auth, params.userId, verb === 'verify' ? ownCodeOnly() : ownOnly(verb));
  const channel = await findContactChannel(db, auth.project.id, user.id, params.channelId);
  if (!channel) throw channelNotFound(verb === 'verify' ? 404 : 400);
  return { user, channel };
}

function requireTrusted(url: string, project: ProjectRecord): void {
  if (!isTrustedUrl(url, project.config)) throw new KnownError('REDIRECT_URL_NOT_WHITELISTED');
}

const listChannels = defineRoute({
  method: 'GET',
  path: '/contact-channels',
  tag: 'contact-channels',
  summary: "A user's contact channels, primary first: a client its own (`user_id=me`), server code any user's.",
  access: 'client',
  query: z.object({ user_id: userRef }),
  answer: z
    .object({ items: z.array(contactChannelSchema), is_paginated: z.literal(false) })
    .meta({ id: 'ContactChannelList' }),
  errors: userRefErrors,
  refusals: [403],
  handler: async ({ auth, query, deps }) => {
    const user = await resolveUser(deps.db, auth, query.user_id, ownOnly('list'));
    const rows = await listContactChannels(deps.db, auth.project.id, user.id);
    return { items: rows.map(contactChannelView), is_paginated: false as const };
  },
});

const clientCreate = z.strictObject({
  user_id: userRef,
  value: email,
  type: z.literal('email'),
  used_for_auth: z.boolean(),
  is_primary: z.boolean().optional(),
});

const createChannel = defineRoute({
  method: 'POST',
  path: '/contact-channels',
  tag: 'contact-channels',
  summary:
    'Adds an e-mail address to a user (a primary one demotes the old primary); only server access may add it verified.',
  access: 'client',
  body: { client: clientCreate, server: clientCreate.extend({ is_verified: z.boolean().optional() }) },
  answer: contactChannelSchema,
  status: 201,
  errors: [...userRefErrors, ...collisionErrors],
  refusals: [400, 403],
  handler: async (input) => {
    const { auth, body, deps } = input;
    const user = await resolveUser(deps.db, auth, body.user_id, ownOnly('create'));
    const isVerified = 'is_verified' in body ? (body.is_verified ?? false) : false;
    const isPrimary = body.is_primary ?? false;
    const unproven = auth.accessType === 'client' && !isVerified;
    if (unproven && isPrimary) throw unverifiedPrimary();
    await checkAddressFree(deps.db, auth.project.id, user.id, body.value, body.used_for_auth, null);
    const row = await addChannel(requestContext(input), user.id, {
      value: body.value,
      isVerified,
      isPrimary,
      usedForAuth: body.used_for_auth && !unproven,
      authPending: body.used_for_auth && unproven,
    });
    return contactChannelView(row);
  },
});

const clientPatch = z.strictObject({
  value: email.optional(),
  used_for_auth: z.boolean().optional(),
  is_primary: z.boolean().optional(),
});

const updateChannelRoute = defineRoute({
  method: 'PATCH',
  path: '/contact-channels/:userId/:channelId',
  tag: 'contact-channels',
  summary:
    'Changes a channel: a new address is unverified again (unless server access verifies it), a new primary demotes the old one.',
  access: 'client',
  params: channelParams,
  body: { client: clientPatch, server: clientPatch.extend({ is_verified: z.boolean().optional() }) },
  answer: contactChannelSchema,
  errors: [...userRefErrors, ...collisionErrors],
  refusals: [400, 403],
  handler: async (input) => {
    const { auth, params, body, deps } = input;
    const { user, channel } = await namedChannel(deps.db, auth, params, 'update');
    const changes = channelChanges(auth, channel, body);
    const value = body.value ?? channel.value;
    const wantsAuth = body.used_for_auth ?? shownUsedForAuth(channel);
    await checkAddressFree(deps.db, auth.project.id, user.id, value, wantsAuth, channel.id);
    return contactChannelView(await updateChannel(requestContext(input), channel, changes));
  },
});

/**
 * The stored changes a PATCH asks for. A new address is unverified again
 * (unless server access verifies it); a client's unverified address cannot
 * become primary, and its sign-in use waits for verification.
 */
function channelChanges(
  auth: RequestAuth,
  channel: ContactChannelRow,
  body: z.output<typeof clientPatch> & { is_verified?: boolean },
): ContactChannelChanges {
  const { used_for_auth: usedForAuth, ...changes }: ContactChannelChanges = { ...body };
  const newAddress = body.value !== undefined && body.value.toLowerCase() !== channel.value.toLowerCase();
  // Another address: what was verified was the old one.
  if (newAddress) changes.is_verified = body.is_verified ?? false;
  if (auth.accessType !== 'client')
    return usedForAuth === undefined ? changes : { ...changes, used_for_auth: usedForAuth };
  const verified = changes.is_verified ?? channel.is_verified;
  const primary = body.is_primary ?? channel.is_primary;
  if (!verified && primary && (!channel.is_primary || newAddress)) throw unverifiedPrimary();
  const wantsAuth = usedForAuth ?? shownUsedForAuth(channel);
  if (!wantsAuth)
    return usedForAuth === undefined ? changes : { ...changes, used_for_auth: false, auth_pending: false };
  // An unverified sign-in address the account already had (its sign-up address) stays one.
  if (verified || (channel.used_for_auth && !newAddress))
    return { ...changes, used_for_auth: true, auth_pending: false };
  return { ...changes, used_for_auth: false, auth_pending: true };
}

const deleteChannel = defineRoute({
  method: 'DELETE',
  path: '/contact-channels/:userId/:channelId',
  tag: 'contact-channels',
  summary: 'Removes a channel; removing the primary one leaves the user without a primary e-mail.',
  access: 'client',
  params: channelParams,
  answer: successAnswer,
  errors: [...userRefErrors],
  refusals: [400, 403],
  handler: async (input) => {
    const { user, channel } = await namedChannel(input.deps.db, input.auth, input.params, 'delete');
    await removeChannel(requestContext(input), user.id, channel.id);
    return { success: true as const };
  },
});

/** Limits, then issues the code and queues its mail in one action. */
async function sendVerification(
  ctx: ActionContext,
  deps: Deps,
  project: ProjectRecord,
  channel: ContactChannelRow,
  displayName: string | null,
  callback: string,
): Promise<void> {
  const now = deps.clock.now();
  const ip = ctx.client.ip;
  await limitMailSend(deps.counters, project, { kind: 'email_verification', email: channel.value, ip, now });
  await sendVerificationCode(ctx, { project, channel, userDisplayName: displayName, callbackUrl: callback, now });
}

const sendChannelVerification = defineRoute({
  method: 'POST',
  path: '/contact-channels/:userId/:channelId/send-verification-code',
  tag: 'contact-channels',
  summary: 'Mails a verification link (`<callback_url>?code=<code>`) to an unverified channel.',
  access: 'client',
  params: channelParams,
  body: z.strictObject({ callback_url: callbackUrl }),
  answer: successAnswer,
  errors: [...userRefErrors, 'EMAIL_ALREADY_VERIFIED', 'REDIRECT_URL_NOT_WHITELISTED'],
  refusals: [400, 404],
  handler: async (input) => {
    const { auth, params, body, deps } = input;
    const { user, channel } = await namedChannel(deps.db, auth, params, 'verify');
    if (channel.is_verified) throw new KnownError('EMAIL_ALREADY_VERIFIED');
    requireTrusted(body.callback_url, auth.project);
    await sendVerification(requestContext(input), deps, auth.project, channel, user.display_name, body.callback_url);
    return { success: true as const };
  },
});

const sendPrimaryVerification = defineRoute({
  method: 'POST',
  path: '/contact-channels/send-verification-code',
  tag: 'contact-channels',
  summary: "Mails a verification link to the signed-in user's primary e-mail, which `email` must name.",
  access: 'client',
  user: true,
  signedOutError: 'SCHEMA_ERROR',
  body: z.strictObject({ email, callback_url: callbackUrl }),
  answer: successAnswer,
  errors: [
    'CANNOT_GET_OWN_USER_WITHOUT_USER',
    'EMAIL_IS_NOT_PRIMARY_EMAIL',
    'EMAIL_ALREADY_VERIFIED',
    'REDIRECT_URL_NOT_WHITELISTED',
  ],
  handler: async (input) => {
    const { auth, userId, body, deps } = input;
    const user = await findUser(deps.db, auth.project.id, userId);
    if (!user) throw new KnownError('CANNOT_GET_OWN_USER_WITHOUT_USER');
    const primary = await findPrimaryChannel(deps.db, auth.project.id, user.id);
    if (!primary || primary.value.toLowerCase() !== body.email.toLowerCase()) {
      throw new KnownError('EMAIL_IS_NOT_PRIMARY_EMAIL', { email: body.email, primary_email: primary?.value ?? null });
    }
    if (primary.is_verified) throw new KnownError('EMAIL_ALREADY_VERIFIED');
    requireTrusted(body.callback_url, auth.project);
    await sendVerification(requestContext(input), deps, auth.project, primary, user.display_name, body.callback_url);
    return { success: true as const };
  },
});

const checkVerificationCode = checkCodeRoute({
  path: '/contact-channels/verify/check-code',
  tag: 'contact-channels',
  summary: 'Says whether an e-mail verification code may be used, without using it.',
  purpose: 'email_verification',
  subject: verificationSubject,
});

const verify = defineRoute({
  method: 'POST',
  path: '/contact-channels/verify',
  tag: 'contact-channels',
  summary: 'Marks the channel a verification code was mailed to as verified (while it still holds that address).',
  access: 'client',
  body: z.strictObject({ code: verificationCode }),
  answer: successAnswer,
  errors: [...codeErrors, 'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE'],
  handler: async (input) => {
    const { auth, body, client, deps } = input;
    const ctx = requestContext(input);
    const lookup = {
      purpose: 'email_verification' as const,
      code: body.code,
      now: deps.clock.now(),
      clientIp: client.ip,
    };
    const row = await checkClientCode(deps, auth.project, lookup, ctx);
    await verificationSubject(deps.db, auth.project.id, row);
    await verifyChannel(ctx, row);
    return { success: true as const };
  },
});

/**
 * The contact-channel routes, for `routes.ts`. The two-segment POST routes
 * (`send-verification-code`, `verify`) cannot be mistaken for `/:userId/:channelId`,
 * which only PATCH and DELETE use.
 *
 * @example
 * export const apiRoutes = [...userRoutes, ...contactChannelRoutes];
 */
export const contactChannelRoutes: Route[] = [
  listChannels,
  createChannel,
  sendPrimaryVerification,
  checkVerificationCode,
  verify,
  updateChannelRoute,
  deleteChannel,
  sendChannelVerification,
];
