/**
 * Contact channels (spec §3; wire-protocol.md §14.6, §15.5): a user's e-mail
 * addresses, one of them primary, some used for sign-in. The calls take the
 * user as `me` (client) or an id (server); the client and server channel
 * objects are both built on them.
 */
import { type ContactChannelWire, isKnownError } from '@latchkey/protocol';
import type { Send } from '../internal/core.js';
import { type Decoder, type Fields, itemsOf, readFields } from '../internal/decode/fields.js';
import { definedFields } from '../internal/defined-fields.js';
import { ignoreAnswer } from '../users/users-api.js';

/**
 * One e-mail address of a user, as the service shows it.
 *
 * @example
 * ```ts
 * const channels: ContactChannelData[] = await user.listContactChannels();
 * const unverified = channels.filter((channel) => !channel.isVerified).map((channel) => channel.value);
 * ```
 */
export interface ContactChannelData {
  id: string;
  userId: string;
  value: string;
  type: 'email';
  isVerified: boolean;
  /** The user's primary e-mail (`user.primaryEmail`); one per user at most. */
  isPrimary: boolean;
  /** Whether the address signs in (password, magic link); an address does so for one user of the project at most. */
  usedForAuth: boolean;
}

/**
 * A new address. `isVerified` is for server code only (a client's new address starts unverified).
 *
 * @example
 * ```ts
 * await user.createContactChannel({ value: 'ada@work.example', type: 'email', usedForAuth: false });
 * ```
 */
export interface ContactChannelCreate {
  value: string;
  type: 'email';
  usedForAuth: boolean;
  isPrimary?: boolean;
  isVerified?: boolean;
}

/**
 * Changes to an address; fields left out stay. `isVerified` is for server code only.
 *
 * @example
 * ```ts
 * await channel.update({ isPrimary: true, usedForAuth: true });
 * ```
 */
export interface ContactChannelUpdate {
  value?: string;
  usedForAuth?: boolean;
  isPrimary?: boolean;
  isVerified?: boolean;
}

/** `GET /contact-channels?user_id=<me|id>`. */
export function listContactChannels(send: Send, userRef: string): Promise<ContactChannelData[]> {
  return send({ method: 'GET', path: '/contact-channels', query: { user_id: userRef } }, decodeContactChannelList);
}

/** `POST /contact-channels`: the new channel. */
export function createContactChannel(
  send: Send,
  userRef: string,
  options: ContactChannelCreate,
): Promise<ContactChannelData> {
  const body = definedFields({
    user_id: userRef,
    value: options.value,
    type: options.type,
    used_for_auth: options.usedForAuth,
    is_primary: options.isPrimary,
    is_verified: options.isVerified,
  });
  return send({ method: 'POST', path: '/contact-channels', body }, decodeContactChannel);
}

/** `PATCH /contact-channels/{user}/{id}`; the caller re-reads what it shows (as the 2.7 SDK does). */
export function updateContactChannel(
  send: Send,
  userRef: string,
  id: string,
  update: ContactChannelUpdate,
): Promise<void> {
  const body = definedFields({
    value: update.value,
    used_for_auth: update.usedForAuth,
    is_primary: update.isPrimary,
    is_verified: update.isVerified,
  });
  return send({ method: 'PATCH', path: channelPath(userRef, id), body }, ignoreAnswer);
}

/** `DELETE /contact-channels/{user}/{id}`. */
export function deleteContactChannel(send: Send, userRef: string, id: string): Promise<void> {
  return send({ method: 'DELETE', path: channelPath(userRef, id) }, ignoreAnswer);
}

/**
 * `POST /contact-channels/{user}/{id}/send-verification-code`. An address
 * already verified is no failure (`EMAIL_ALREADY_VERIFIED`, as the 2.7 SDK
 * treats it): what the caller wanted is already true.
 */
export async function sendChannelVerificationCode(
  send: Send,
  userRef: string,
  id: string,
  callbackUrl: string,
): Promise<void> {
  const request = { method: 'POST', path: `${channelPath(userRef, id)}/send-verification-code` } as const;
  await alreadyVerifiedIsDone(send({ ...request, body: { callback_url: callbackUrl } }, ignoreAnswer));
}

/** `POST /contact-channels/send-verification-code`: the signed-in user's primary e-mail. */
export async function sendPrimaryVerificationCode(send: Send, email: string, callbackUrl: string): Promise<void> {
  const body = { email, callback_url: callbackUrl };
  await alreadyVerifiedIsDone(
    send({ method: 'POST', path: '/contact-channels/send-verification-code', body }, ignoreAnswer),
  );
}

/** Reads one channel of an answer. */
function readContactChannel(channel: Fields<ContactChannelWire>): ContactChannelData {
  return {
    id: channel.string('id'),
    userId: channel.string('user_id'),
    value: channel.string('value'),
    type: channel.value('type', (type) => type === 'email', '"email"'),
    isVerified: channel.boolean('is_verified'),
    isPrimary: channel.boolean('is_primary'),
    usedForAuth: channel.boolean('used_for_auth'),
  };
}

/** Decodes a channel answer (`POST /contact-channels`). */
export function decodeContactChannel(body: unknown): ContactChannelData {
  return readFields(body, readContactChannel);
}

/** Decodes a list of channels (`GET /contact-channels`). */
export const decodeContactChannelList: Decoder<ContactChannelData[]> = itemsOf(readContactChannel);

async function alreadyVerifiedIsDone(sending: Promise<void>): Promise<void> {
  try {
    await sending;
  } catch (error) {
    if (!isKnownError(error, 'EMAIL_ALREADY_VERIFIED')) throw error;
  }
}

function channelPath(userRef: string, id: string): string {
  return `/contact-channels/${encodeURIComponent(userRef)}/${encodeURIComponent(id)}`;
}
