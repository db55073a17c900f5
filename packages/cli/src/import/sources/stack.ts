import { type ImportMembership, type SourceItem, withLine } from '../types.js';
import {
  asObject,
  bool,
  jsonArrayElements,
  type Located,
  millis,
  parseJsonDocument,
  text,
  UnreadableInput,
} from './input.js';
import { addEmail, addOAuth, user } from './record.js';

/** A list under `key`: an array, or a list answer of the REST API (`{ "items": [...] }`). */
function list(input: string, document: Record<string, unknown>, key: string): Located<unknown>[] {
  const value = document[key];
  if (Array.isArray(value)) return jsonArrayElements(input, document, key);
  if (Array.isArray(asObject(value)?.items)) return jsonArrayElements(input, document, key, 'items');
  return [];
}

const base32Alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 (no padding) of bytes. */
function base32(bytes: Buffer): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += base32Alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += base32Alphabet[(value << (5 - bits)) & 31];
  return out;
}

/**
 * Stack Auth's users, contact channels, OAuth accounts, teams and memberships
 * in the shapes of its REST API's list answers, gathered in one JSON file:
 * `{ "users": [...], "contact_channels": [...], "oauth_providers": [...],
 * "teams": [...], "team_memberships": [...], "team_permissions": [...] }`
 * (each an array or a `{ "items": [...] }` answer). Stack Auth's API never
 * returns password hashes; a user may carry `password_hash` (bcrypt, as its
 * create-user body takes) and `totp_secret_base64` when the operator has them.
 */
export async function* parseStack(input: string): AsyncIterable<SourceItem> {
  const document = asObject(parseJsonDocument(input));
  if (!document || !('users' in document)) throw new UnreadableInput('expected a JSON object with "users"');

  const emailsByUser = new Map<string, ReturnType<typeof user>['emails']>();
  for (const { line, value } of list(input, document, 'contact_channels')) {
    const c = asObject(value);
    const userId = text(c?.user_id);
    if (!c || !userId || text(c.value) === null) {
      yield { line, problem: 'the contact channel has no user_id or value' };
      continue;
    }
    if ((text(c.type) ?? 'email') !== 'email') continue;
    const emails = emailsByUser.get(userId) ?? [];
    emailsByUser.set(userId, emails);
    addEmail(emails, text(c.value), bool(c.is_verified), bool(c.is_primary));
    const added = emails.find((e) => e.address.toLowerCase() === text(c.value)!.toLowerCase())!;
    added.used_for_auth = c.used_for_auth === undefined ? true : bool(c.used_for_auth);
  }

  const oauthByUser = new Map<string, ReturnType<typeof user>['oauth']>();
  for (const { line, value } of list(input, document, 'oauth_providers')) {
    const o = asObject(value);
    const userId = text(o?.user_id);
    const provider = text(o?.type) ?? text(o?.id);
    const accountId = text(o?.account_id);
    if (!userId || !provider || !accountId) {
      yield { line, problem: 'the OAuth account has no user_id, type or account_id' };
      continue;
    }
    const accounts = oauthByUser.get(userId) ?? [];
    oauthByUser.set(userId, accounts);
    addOAuth(accounts, { provider, account_id: accountId, email: text(o?.email) });
  }

  const teamsByUser = new Map<string, Map<string, ImportMembership>>();
  const membership = (userId: string, teamId: string) => {
    const teams = teamsByUser.get(userId) ?? new Map<string, ImportMembership>();
    teamsByUser.set(userId, teams);
    const m = teams.get(teamId) ?? { team_id: teamId, permissions: [] };
    teams.set(teamId, m);
    return m;
  };
  for (const key of ['team_memberships', 'team_permissions']) {
    for (const { line, value } of list(input, document, key)) {
      const m = asObject(value);
      const userId = text(m?.user_id);
      const teamId = text(m?.team_id);
      if (!userId || !teamId) {
        yield {
          line,
          problem: `the ${key === 'team_memberships' ? 'membership' : 'permission'} has no user_id or team_id`,
        };
        continue;
      }
      const permission = key === 'team_permissions' ? text(m?.id) : null;
      const entry = membership(userId, teamId);
      if (permission && !entry.permissions.includes(permission)) entry.permissions.push(permission);
    }
  }

  for (const { line, value } of list(input, document, 'teams')) {
    const t = asObject(value);
    const id = text(t?.id);
    if (!t || !id) {
      yield { line, problem: 'the team has no id' };
      continue;
    }
    yield withLine(
      {
        type: 'team',
        id,
        display_name: text(t.display_name) ?? id,
        profile_image_url: text(t.profile_image_url),
        client_metadata: t.client_metadata ?? null,
        client_read_only_metadata: t.client_read_only_metadata ?? null,
        server_metadata: t.server_metadata ?? null,
        created_at_millis: millis(t.created_at_millis),
      },
      line,
    );
  }

  for (const { line, value } of list(input, document, 'users')) {
    const u = asObject(value);
    const id = text(u?.id);
    if (!u || !id) {
      yield { line, problem: 'the user has no id' };
      continue;
    }
    const emails = emailsByUser.get(id) ?? [];
    const primary = text(u.primary_email);
    if (primary && !emails.some((e) => e.address.toLowerCase() === primary.toLowerCase())) {
      emails.unshift({
        address: primary,
        verified: bool(u.primary_email_verified),
        primary: true,
        used_for_auth: u.primary_email_auth_enabled === undefined ? true : bool(u.primary_email_auth_enabled),
      });
    }
    const oauth = oauthByUser.get(id) ?? [];
    for (const p of Array.isArray(u.oauth_providers) ? u.oauth_providers : []) {
      const o = asObject(p);
      const provider = text(o?.type) ?? text(o?.id);
      const accountId = text(o?.account_id);
      if (provider && accountId) addOAuth(oauth, { provider, account_id: accountId, email: text(o?.email) });
    }
    const totp = text(u.totp_secret_base64);
    yield withLine(
      user({
        id,
        emails,
        display_name: text(u.display_name),
        profile_image_url: text(u.profile_image_url),
        password_hash: text(u.password_hash),
        client_metadata: u.client_metadata ?? null,
        client_read_only_metadata: u.client_read_only_metadata ?? null,
        server_metadata: u.server_metadata ?? null,
        signed_up_at_millis: millis(u.signed_up_at_millis),
        oauth,
        totp_secret_base32: totp ? base32(Buffer.from(totp, 'base64')) : null,
        teams: [...(teamsByUser.get(id)?.values() ?? [])],
      }),
      line,
    );
  }
}
