/**
 * The account rules of OAuth sign-in (DESIGN.md, "OAuth account rules"). An
 * auth service's takeover bugs live here, so each rule is explicit:
 *
 * 1. A provider account connected to a user signs that user in (authenticate),
 *    and cannot be linked to anybody else
 *    (OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER).
 * 2. Linking needs the signed-in user's own access token (checked when the
 *    flow started); a user has one account per provider
 *    (USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION).
 * 3. A new provider account whose e-mail is someone's sign-in address joins
 *    that user only when both sides have the address verified: the provider
 *    says it checked it, and the user proved the mailbox. An address the
 *    provider did not verify is refused with
 *    CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE and never merged.
 *    A verified provider e-mail is a mailbox proof: an address the account
 *    never proved is settled as every proof settles it (`mailbox-proof.ts`):
 *    the account is hers when the address is all there is to it, otherwise
 *    the address is detached and rule 4 makes her a new account. Never a
 *    merge into an account someone else can enter (pre-hijacking).
 * 4. A new provider account whose e-mail nobody signs in with creates a user
 *    (SIGN_UP_NOT_ENABLED when sign-up is off), the e-mail their primary
 *    address, verified and used for sign-in only when the provider verified
 *    it (an unproven address must not claim the address from its owner).
 */
import { KnownError } from '@latchkey/protocol';
import type { AuditSource } from '../audit/audit-log.js';
import { email } from '../common/schemas.js';
import { findAuthChannel } from '../contact-channels/contact-channel-store.js';
import { settleProvenAddress } from '../contact-channels/mailbox-proof.js';
import type { Sealer } from '../crypto/encryption.js';
import type { ProjectRecord } from '../projects/projects.js';
import type { Db } from '../storage/db.js';
import { lockOAuthAccount } from '../storage/locks.js';
import { authEmailIndex, isUniqueViolation } from '../storage/schema.js';
import { findUser, markUserActive } from '../users/user-store.js';
import { addUser } from '../users/users-actions.js';
import { noteProviderLinks } from './connected-accounts-actions.js';
import { findAccount, findUserAccount, saveAccount } from './oauth-account-store.js';
import type { ProviderProfile, ProviderTokens } from './providers.js';

/** One completed provider sign-in to apply. */
export interface AccountRuleInput {
  project: ProjectRecord;
  providerId: string;
  /** The user linking the account (type `link`), or null to sign in. */
  linkUserId: string | null;
  profile: ProviderProfile;
  tokens: ProviderTokens;
  now: number;
  /** Who signs in, for the audit log of what a proven address changes. */
  source: AuditSource;
}

/** Who signs in, whether the user was created now, and whether the provider account was connected now. */
export interface AccountRuleOutcome {
  userId: string;
  isNewUser: boolean;
  connected: boolean;
}

/** Applies the rules in the caller's transaction; throws the known error of a refusal. */
export async function applyAccountRules(trx: Db, sealer: Sealer, input: AccountRuleInput): Promise<AccountRuleOutcome> {
  const { project, providerId } = input;
  // An address the service could not use (malformed, too long) counts as none.
  const profile = { ...input.profile, email: email.safeParse(input.profile.email).data ?? null };
  await lockOAuthAccount(trx, project.id, providerId, profile.accountId);
  const existing = await findAccount(trx, project.id, providerId, profile.accountId);
  const save = async (userId: string) => {
    await saveAccount(trx, sealer, {
      projectId: project.id,
      providerId,
      accountId: profile.accountId,
      userId,
      email: profile.email,
      tokens: input.tokens,
      now: input.now,
    });
    await noteProviderLinks(trx, project.id, userId);
  };
  const requireFreeSlot = async (userId: string) => {
    if (await findUserAccount(trx, project.id, userId, providerId)) {
      throw new KnownError('USER_ALREADY_CONNECTED_TO_ANOTHER_OAUTH_CONNECTION');
    }
  };

  if (input.linkUserId !== null) {
    const user = await findUser(trx, project.id, input.linkUserId);
    if (!user) throw new KnownError('USER_NOT_FOUND');
    if (existing && existing.user_id !== user.id) {
      throw new KnownError('OAUTH_CONNECTION_ALREADY_CONNECTED_TO_ANOTHER_USER');
    }
    if (!existing) await requireFreeSlot(user.id);
    await save(user.id);
    return { userId: user.id, isNewUser: false, connected: !existing };
  }

  if (existing) {
    await save(existing.user_id);
    await markUserActive(trx, project.id, existing.user_id, input.now);
    return { userId: existing.user_id, isNewUser: false, connected: false };
  }

  if (profile.email !== null) {
    const channel = await findAuthChannel(trx, project.id, profile.email);
    if (channel && !profile.emailVerified) {
      throw new KnownError(
        'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE',
        { type: 'email' },
        'An account already signs in with this e-mail address. Sign in to it and connect this provider from your account settings.',
      );
    }
    const owner =
      channel &&
      (await settleProvenAddress(trx, {
        projectId: project.id,
        address: profile.email,
        now: input.now,
        source: input.source,
      }));
    if (owner) {
      await requireFreeSlot(owner.id);
      await save(owner.id);
      await markUserActive(trx, project.id, owner.id, input.now);
      return { userId: owner.id, isNewUser: false, connected: true };
    }
  }

  if (!project.config.sign_up_enabled) throw new KnownError('SIGN_UP_NOT_ENABLED');
  let user: Awaited<ReturnType<typeof addUser>>;
  try {
    user = await addUser(trx, {
      projectId: project.id,
      projectConfig: project.config,
      now: input.now,
      primaryEmail: profile.email,
      primaryEmailVerified: profile.email !== null && profile.emailVerified,
      primaryEmailAuthEnabled: profile.email !== null && profile.emailVerified,
      displayName: profile.displayName?.slice(0, 256) ?? null,
      profileImageUrl:
        profile.profileImageUrl && profile.profileImageUrl.length <= 2048 ? profile.profileImageUrl : null,
    });
  } catch (error) {
    // Someone signed up with the address since the lookup.
    if (isUniqueViolation(error, authEmailIndex)) {
      throw new KnownError('CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE', { type: 'email' });
    }
    throw error;
  }
  await save(user.id);
  return { userId: user.id, isNewUser: true, connected: true };
}
