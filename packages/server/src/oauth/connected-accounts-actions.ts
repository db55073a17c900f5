/**
 * What changes connected accounts, for the routes: keep a refreshed provider
 * token, and disconnect an account. Each is an action (`events/recorder.ts`).
 */
import { KnownError } from '@latchkey/protocol';
import type { Sealer } from '../crypto/encryption.js';
import { type ActionContext, act, record } from '../events/recorder.js';
import { countUserPasskeys } from '../passkeys/passkey-store.js';
import type { ProjectRecord } from '../projects/projects.js';
import type { Db } from '../storage/db.js';
import type { OAuthAccountRow } from '../storage/schema.js';
import { lockUser, writeProviderLinks } from '../users/user-store.js';
import {
  countUserAccounts,
  deleteUserAccount,
  findUserAccount,
  listProviderLinks,
  updateAccountTokens,
} from './oauth-account-store.js';
import type { ProviderTokens } from './providers.js';

/**
 * Rewrites the user's `oauth_providers` summary from their connected
 * accounts: a step of every action that connects, updates or disconnects one,
 * after the change, in its transaction.
 */
export async function noteProviderLinks(db: Db, projectId: string, userId: string): Promise<void> {
  await writeProviderLinks(db, projectId, userId, await listProviderLinks(db, projectId, userId));
}

/**
 * Stores the tokens a provider gave for the account when it refreshed them.
 * The account stays the same connection, so there is no event to record.
 */
export function keepRefreshedTokens(
  ctx: ActionContext,
  sealer: Sealer,
  account: OAuthAccountRow,
  tokens: ProviderTokens,
): Promise<void> {
  return act(ctx, (tx) => updateAccountTokens(tx.db, sealer, account, tokens, ctx.clock.now()));
}

/**
 * Disconnects the user's account at a provider
 * (OAUTH_CONNECTION_NOT_CONNECTED_TO_USER when there is none). With
 * `keepAWayIn` (a client acting on itself) it refuses to disconnect the
 * user's last way to sign in: no password, no e-mail code sign-in, no
 * passkey that signs in (the flag alone, which a client may set, is not
 * one), no other provider account (SCHEMA_ERROR saying so).
 */
export function disconnectAccount(
  ctx: ActionContext,
  project: ProjectRecord,
  userId: string,
  providerId: string,
  keepAWayIn: boolean,
): Promise<void> {
  return act(ctx, async (tx) => {
    const locked = await lockUser(tx.db, project.id, userId);
    if (!locked) throw new KnownError('OAUTH_CONNECTION_NOT_CONNECTED_TO_USER');
    if (keepAWayIn) {
      const otherWays =
        locked.password_hash !== null ||
        (locked.primary_email_auth_enabled && locked.otp_auth_enabled && project.config.magic_link_enabled) ||
        (locked.passkey_auth_enabled &&
          project.config.passkey_enabled &&
          (await countUserPasskeys(tx.db, project.id, userId)) > 0) ||
        (await countUserAccounts(tx.db, project.id, userId)) > 1;
      if (!otherWays && (await findUserAccount(tx.db, project.id, userId, providerId))) {
        const message =
          'This account is your only way to sign in. Set a password or connect another account before disconnecting it.';
        throw new KnownError('SCHEMA_ERROR', { message }, message);
      }
    }
    if (!(await deleteUserAccount(tx.db, project.id, userId, providerId))) {
      throw new KnownError('OAUTH_CONNECTION_NOT_CONNECTED_TO_USER');
    }
    await noteProviderLinks(tx.db, project.id, userId);
    await record(tx, 'oauth.disconnected', { userId, data: { provider: providerId } });
  });
}
