import { type SourceItem, withLine } from '../types.js';
import { asObject, bool, jsonRecords, millis, text } from './input.js';
import type { SourceOptions } from './options.js';
import { addEmail, addOAuth, isBcrypt, providerId, user } from './record.js';

interface HashLine {
  id: string;
  email: string | null;
  verified: boolean;
  hash: string;
}

/** A line of the password-hash export: the user id (without `auth0|`) and the hash. */
function hashLine(value: unknown): HashLine | string {
  const o = asObject(value);
  if (!o) return 'the line is not a JSON object';
  const oid = text(asObject(o._id)?.$oid) ?? text(o._id);
  const id = text(o.alt_id) ?? oid;
  if (!id) return 'the line has no _id';
  const hash = text(o.passwordHash);
  if (!hash) return 'the line has no passwordHash';
  if (!isBcrypt(hash)) return 'unsupported hash: the passwordHash is not bcrypt';
  const identifier = Array.isArray(o.identifiers)
    ? (o.identifiers as unknown[]).map(asObject).find((i) => i?.type === 'email')
    : undefined;
  return {
    id,
    email: text(o.email) ?? text(identifier?.value),
    verified: o.email_verified === undefined ? bool(identifier?.verified) : bool(o.email_verified),
    hash,
  };
}

function hashesById(input: string | undefined): Map<string, HashLine> {
  const hashes = new Map<string, HashLine>();
  if (input === undefined) return hashes;
  for (const item of jsonRecords(input)) {
    if ('problem' in item) continue;
    const parsed = hashLine(item.value);
    if (typeof parsed !== 'string') hashes.set(parsed.id, parsed);
  }
  return hashes;
}

/** The id of a database (not social) user without its `auth0|` prefix. */
function databaseId(userId: string, identities: Record<string, unknown>[]): string | null {
  const database = identities.find((i) => i.isSocial === false || i.provider === 'auth0');
  const fromIdentity = text(database?.user_id);
  if (fromIdentity) return fromIdentity;
  return userId.startsWith('auth0|') ? userId.slice('auth0|'.length) : null;
}

/**
 * Auth0's bulk user export (`POST /api/v2/jobs/users-exports`, format `json`:
 * NDJSON, or the same records as a JSON array): `user_id`, `email`,
 * `email_verified`, `name`, `picture`, `created_at`, `identities` (social ones
 * become OAuth accounts), `user_metadata`, `app_metadata`. Passwords come from
 * the separate password-hash export (`options.passwordHashes`: NDJSON of
 * `_id.$oid`, optional `alt_id`, `email`, `email_verified`, `passwordHash`); that export's
 * lines may also be the main input on their own.
 */
export async function* parseAuth0(input: string, options: SourceOptions = {}): AsyncIterable<SourceItem> {
  const hashes = hashesById(options.passwordHashes);
  for (const item of jsonRecords(input)) {
    if ('problem' in item) {
      yield item;
      continue;
    }
    const { line } = item;
    const o = asObject(item.value);
    if (!o) {
      yield { line, problem: 'the record is not a JSON object' };
      continue;
    }
    if (o.user_id === undefined && o._id !== undefined) {
      // A line of the password-hash export given as the main input.
      const parsed = hashLine(o);
      if (typeof parsed === 'string') {
        yield { line, problem: parsed };
        continue;
      }
      const emails: ReturnType<typeof user>['emails'] = [];
      addEmail(emails, parsed.email, parsed.verified, true);
      yield withLine(user({ id: `auth0|${parsed.id}`, emails, password_hash: parsed.hash }), line);
      continue;
    }
    const userId = text(o.user_id);
    if (!userId) {
      yield { line, problem: 'the record has no user_id' };
      continue;
    }
    const identities = (Array.isArray(o.identities) ? o.identities : [])
      .map(asObject)
      .filter((i): i is Record<string, unknown> => i !== null);
    const emails: ReturnType<typeof user>['emails'] = [];
    addEmail(emails, text(o.email), bool(o.email_verified), true);
    const oauth: ReturnType<typeof user>['oauth'] = [];
    for (const identity of identities) {
      if (!bool(identity.isSocial)) continue;
      const provider = text(identity.provider);
      const accountId = text(identity.user_id);
      if (!provider || !accountId) continue;
      const profile = asObject(identity.profileData);
      addOAuth(oauth, {
        provider: providerId(provider),
        account_id: accountId,
        email: text(profile?.email) ?? text(o.email),
      });
    }
    const dbId = databaseId(userId, identities);
    const hash = dbId === null ? undefined : hashes.get(dbId);
    yield withLine(
      user({
        id: userId,
        emails,
        display_name: text(o.name) ?? text(o.nickname),
        profile_image_url: text(o.picture),
        password_hash: hash?.hash ?? null,
        client_metadata: asObject(o.user_metadata),
        server_metadata: asObject(o.app_metadata),
        signed_up_at_millis: millis(o.created_at),
        oauth,
      }),
      line,
    );
  }
}
