import { type ImportOAuthAccount, type SourceItem, withLine } from '../types.js';
import { asObject, bool, millis, text } from './input.js';
import type { SourceOptions } from './options.js';
import { addEmail, addOAuth, isBcrypt, providerId, user } from './record.js';
import { sideTable, tableRows } from './tables.js';

/** An OAuth identity of `auth.identities`; `email` and `phone` identities are not OAuth. */
function identity(row: Record<string, unknown>): { userId: string; account: ImportOAuthAccount } | null {
  const provider = text(row.provider);
  const userId = text(row.user_id);
  if (!provider || !userId || provider === 'email' || provider === 'phone' || provider === 'anonymous') return null;
  const data = asObject(row.identity_data);
  // `provider_id` since 2023; before it, the identity's `id` was the provider's id.
  const accountId = text(row.provider_id) ?? text(data?.sub) ?? text(data?.provider_id) ?? text(row.id);
  if (!accountId) return null;
  return {
    userId,
    account: { provider: providerId(provider), account_id: accountId, email: text(row.email) ?? text(data?.email) },
  };
}

/**
 * Supabase's `auth.users` (and `auth.identities`), as CSV (`\copy ... csv
 * header`, the dashboard's export) or JSON (an array of rows, or
 * `{ "users": [...], "identities": [...] }`; a user row may also carry its
 * `identities` as the Admin API's user object does). `encrypted_password` is
 * bcrypt, `email_confirmed_at` marks the address verified,
 * `raw_user_meta_data` becomes client metadata (users can write it there) and
 * `raw_app_meta_data` read-only client metadata.
 */
export async function* parseSupabase(input: string, options: SourceOptions = {}): AsyncIterable<SourceItem> {
  const oauthByUser = new Map<string, ImportOAuthAccount[]>();
  const addIdentity = (row: Record<string, unknown>) => {
    const found = identity(row);
    if (!found) return;
    const list = oauthByUser.get(found.userId) ?? [];
    addOAuth(list, found.account);
    oauthByUser.set(found.userId, list);
  };
  for (const row of sideTable(input, options.identities, ['identities'])) {
    if ('problem' in row) yield { line: row.line, problem: `identities: ${row.problem}` };
    else addIdentity(row.value);
  }
  for (const row of tableRows(input, ['users'])) {
    if ('problem' in row) {
      yield row;
      continue;
    }
    const { line, value: r } = row;
    const id = text(r.id);
    if (!id) {
      yield { line, problem: 'the row has no id' };
      continue;
    }
    if (text(r.deleted_at)) {
      yield { line, problem: 'the user is deleted (deleted_at is set)' };
      continue;
    }
    if (bool(r.is_anonymous)) {
      yield { line, problem: 'the user is anonymous' };
      continue;
    }
    let passwordHash: string | null = null;
    const encrypted = text(r.encrypted_password);
    if (encrypted) {
      if (!isBcrypt(encrypted)) {
        yield { line, problem: 'unsupported hash: encrypted_password is not bcrypt' };
        continue;
      }
      passwordHash = encrypted;
    }
    if (Array.isArray(r.identities)) {
      for (const nested of r.identities) {
        const o = asObject(nested);
        if (o) addIdentity({ user_id: id, ...o });
      }
    }
    const emails: ReturnType<typeof user>['emails'] = [];
    addEmail(emails, text(r.email), text(r.email_confirmed_at) !== null || text(r.confirmed_at) !== null, true);
    const meta = asObject(r.raw_user_meta_data) ?? asObject(r.user_metadata);
    const appMeta = asObject(r.raw_app_meta_data) ?? asObject(r.app_metadata);
    yield withLine(
      user({
        id,
        emails,
        display_name: text(meta?.full_name) ?? text(meta?.name),
        profile_image_url: text(meta?.avatar_url) ?? text(meta?.picture),
        password_hash: passwordHash,
        client_metadata: meta,
        client_read_only_metadata: appMeta,
        signed_up_at_millis: millis(r.created_at),
        oauth: oauthByUser.get(id) ?? [],
      }),
      line,
    );
  }
}
