/**
 * `ContactChannel`: one of the signed-in user's e-mail addresses, with what
 * the user may do to it. Every change re-reads the channels and the user
 * (the primary e-mail and its verification live on both). The addresses are
 * also a query, `contactChannelsQuery`, and the contact-channels slice of
 * `CurrentUser` lists and adds them.
 */
import { callbackUrl } from '../internal/callback-url.js';
import { accountQuery, type ClientQuery, type ClientScope } from '../users/account-data.js';
import type { UserData } from '../users/user-decoder.js';
import {
  createContactChannel as addContactChannel,
  type ContactChannelCreate,
  type ContactChannelData,
  type ContactChannelUpdate,
  deleteContactChannel,
  listContactChannels,
  sendChannelVerificationCode,
  sendPrimaryVerificationCode,
  updateContactChannel,
} from './contact-channels-api.js';

/**
 * One of the signed-in user's e-mail addresses.
 *
 * @example
 * ```ts
 * const [channel] = await user.listContactChannels();
 * if (!channel.isVerified) await channel.sendVerificationEmail();
 * await channel.update({ isPrimary: true });
 * ```
 */
export interface ContactChannel extends ContactChannelData {
  /** Changes the address, whether it signs in, or makes it the primary e-mail; then re-reads the user's channels. */
  update(options: Omit<ContactChannelUpdate, 'isVerified'>): Promise<void>;
  /** Removes the address; then re-reads the user's channels. */
  delete(): Promise<void>;
  /**
   * Mails a verification link to the address. `callbackUrl` (your e-mail
   * verification page) defaults to `<origin><handler>/email-verification` in
   * browsers. An address already verified is no failure.
   */
  sendVerificationEmail(options?: { callbackUrl?: string }): Promise<void>;
}

/** The `ContactChannel` of `data`, acting as the signed-in user (`me`). */
function createContactChannel(data: ContactChannelData, scope: ClientScope): ContactChannel {
  const { send } = scope;
  const afterChange = () => scope.reloadWithUser(contactChannelsQuery);
  return {
    ...data,
    async update(options) {
      await updateContactChannel(send, 'me', data.id, options);
      await afterChange();
    },
    async delete() {
      await deleteContactChannel(send, 'me', data.id);
      await afterChange();
    },
    async sendVerificationEmail(options = {}) {
      const url = verificationUrl(scope, 'ContactChannel.sendVerificationEmail', options.callbackUrl);
      await sendChannelVerificationCode(send, 'me', data.id, url);
    },
  };
}

/**
 * The signed-in user's e-mail addresses (`[]` when signed out), as a query
 * of `ClientApp` (also `app.load('contactChannels')`).
 *
 * @example
 * ```ts
 * const channels = await app.load(contactChannelsQuery);
 * ```
 */
export const contactChannelsQuery: ClientQuery<ContactChannel[]> = accountQuery(
  ['contactChannels'],
  async (scope) => (await listContactChannels(scope.send, 'me')).map((channel) => createContactChannel(channel, scope)),
  [],
);

/**
 * The contact-channels slice of `CurrentUser`.
 *
 * @example
 * ```ts
 * await user.createContactChannel({ type: 'email', value: 'ada@work.example', usedForAuth: false });
 * ```
 */
export interface ContactChannelActions {
  /**
   * Mails a verification link to the primary e-mail. `callbackUrl` (your
   * e-mail verification page) defaults to `<origin><handler>/email-verification`
   * in browsers. An address already verified is no failure.
   */
  sendVerificationEmail(options?: { callbackUrl?: string }): Promise<void>;
  /** The user's e-mail addresses (also app data: `app.load('contactChannels')`). */
  listContactChannels(): Promise<ContactChannel[]>;
  /** Adds an e-mail address (unverified); then re-reads the user's channels and the user. */
  createContactChannel(options: Omit<ContactChannelCreate, 'isVerified'>): Promise<ContactChannel>;
}

/** The contact-channels slice of `user`, the signed-in user of `scope`. */
export function contactChannelActions(user: UserData, scope: ClientScope): ContactChannelActions {
  const { send } = scope;
  return {
    async sendVerificationEmail(options = {}) {
      const call = 'CurrentUser.sendVerificationEmail';
      const url = verificationUrl(scope, call, options.callbackUrl);
      if (!user.primaryEmail) throw new TypeError(`${call}: the user has no primary e-mail to verify.`);
      await sendPrimaryVerificationCode(send, user.primaryEmail, url);
    },
    listContactChannels: () => scope.data.load(contactChannelsQuery),
    async createContactChannel(options) {
      const created = await addContactChannel(send, 'me', { ...options, isVerified: undefined });
      await scope.reloadWithUser(contactChannelsQuery);
      return createContactChannel(created, scope);
    },
  };
}

/** The e-mail verification page as an absolute URL (`given`, else the handler's), or the developer error of `call`. */
const verificationUrl = (scope: ClientScope, call: string, given: string | undefined) =>
  callbackUrl(call, scope.core.urls.emailVerification, given);
