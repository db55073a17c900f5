import { type ImportOAuthAccount, type SourceItem, withLine } from '../types.js';
import { bool, millis, text } from './input.js';
import type { SourceOptions } from './options.js';
import { addEmail, addOAuth, user } from './record.js';
import { column, sideTable, tableRows } from './tables.js';

const hex = /^[0-9a-f]+$/i;

/**
 * Better Auth's `user` and `account` tables, as CSV or JSON (an array of
 * rows, or `{ "user": [...], "account": [...] }`), with camelCase or
 * snake_case columns. The `credential` account's `password` (`salt:key`, both
 * hex; Better Auth's default scrypt) becomes `$better-auth-scrypt$salt$key`;
 * other accounts (`providerId`, `accountId`) become OAuth accounts.
 */
export async function* parseBetterAuth(input: string, options: SourceOptions = {}): AsyncIterable<SourceItem> {
  const passwords = new Map<string, string>();
  const oauthByUser = new Map<string, ImportOAuthAccount[]>();
  const badPasswords = new Set<string>();
  for (const row of sideTable(input, options.accounts, ['account', 'accounts'])) {
    if ('problem' in row) {
      yield { line: row.line, problem: `account: ${row.problem}` };
      continue;
    }
    const r = row.value;
    const userId = text(column(r, 'userId', 'user_id'));
    const provider = text(column(r, 'providerId', 'provider_id'));
    const accountId = text(column(r, 'accountId', 'account_id'));
    if (!userId || !provider) {
      yield { line: row.line, problem: 'account: the row has no userId or providerId' };
      continue;
    }
    if (provider === 'credential') {
      const password = text(r.password);
      if (!password) continue;
      const [salt, key, extra] = password.split(':');
      if (extra !== undefined || !salt || !key || !hex.test(salt) || !hex.test(key) || key.length !== 128) {
        badPasswords.add(userId);
        continue;
      }
      passwords.set(userId, `$better-auth-scrypt$${salt.toLowerCase()}$${key.toLowerCase()}`);
    } else if (accountId) {
      const list = oauthByUser.get(userId) ?? [];
      addOAuth(list, { provider, account_id: accountId, email: null });
      oauthByUser.set(userId, list);
    }
  }
  for (const row of tableRows(input, ['user', 'users'])) {
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
    if (badPasswords.has(id)) {
      yield {
        line,
        problem: "unsupported hash: the credential account's password is not Better Auth scrypt (salt:key in hex)",
      };
      continue;
    }
    const emails: ReturnType<typeof user>['emails'] = [];
    addEmail(emails, text(r.email), bool(column(r, 'emailVerified', 'email_verified')), true);
    yield withLine(
      user({
        id,
        emails,
        display_name: text(r.name),
        profile_image_url: text(r.image),
        password_hash: passwords.get(id) ?? null,
        signed_up_at_millis: millis(column(r, 'createdAt', 'created_at')),
        oauth: oauthByUser.get(id) ?? [],
      }),
      line,
    );
  }
}
