/**
 * `ServerContactChannel`: a user's e-mail address as server code holds it,
 * with what server code may do to it (including marking it verified). Built
 * once here; every audience with server access hands these out.
 */
import type { Send } from '../internal/core.js';
import {
  type ContactChannelData,
  type ContactChannelUpdate,
  deleteContactChannel,
  sendChannelVerificationCode,
  updateContactChannel,
} from './contact-channels-api.js';

/**
 * A user's e-mail address, and what server code may do to it.
 *
 * @example
 * ```ts
 * const channels = await user.listContactChannels();
 * await channels.find((c) => c.value === 'ada@work.example')?.update({ isVerified: true, usedForAuth: true });
 * ```
 */
export interface ServerContactChannel extends ContactChannelData {
  /** Changes the address, its verification, whether it signs in, or makes it primary. */
  update(options: ContactChannelUpdate): Promise<void>;
  /** Removes the address. */
  delete(): Promise<void>;
  /** Mails a verification link to `callbackUrl?code=...` (your page, on a trusted domain). Already verified is no failure. */
  sendVerificationEmail(options: { callbackUrl: string }): Promise<void>;
}

/** The `ServerContactChannel` of `data`, acting through `send` (server or admin credentials). */
export function createServerContactChannel(data: ContactChannelData, send: Send): ServerContactChannel {
  const { userId, id } = data;
  return {
    ...data,
    update: (options) => updateContactChannel(send, userId, id, options),
    delete: () => deleteContactChannel(send, userId, id),
    sendVerificationEmail: async (options) => sendChannelVerificationCode(send, userId, id, requiredCallback(options)),
  };
}

/** Server code has no page to default to (spec §5): the callback is required. */
export function requiredCallback(options: { callbackUrl: string } | undefined, call = 'sendVerificationEmail'): string {
  const url = options?.callbackUrl;
  if (typeof url === 'string' && url !== '') return url;
  throw new TypeError(`${call}: pass { callbackUrl }: the absolute URL of your page that takes the code.`);
}
