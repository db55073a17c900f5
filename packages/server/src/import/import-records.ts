/**
 * The records an import takes (the generic `latchkey-users` format: see
 * docs/guides/import-export.md) and the checks each passes before anything is
 * written: an address the service stores, a password hash it verifies at an
 * affordable cost, fields within the sizes the API allows. A record that fails
 * is refused whole, with the reason; one that passes with a loss (a second
 * primary address, a provider named twice) carries a warning.
 */
import { imageUrl, metadata, storedEmail } from '../common/schemas.js';
import { isImportablePasswordHash } from '../password/passwords.js';

/** An e-mail address of a user. */
interface ImportEmail {
  address: string;
  verified: boolean;
  /** At most one address of a user is primary; with none, the first is. */
  primary: boolean;
  /** Whether the address signs in (password and one-time codes). */
  used_for_auth: boolean;
}

/** A custom team permission definition; it may contain those the project has or the input defined before it. */
/**
 * A custom team permission definition; permissions come before the teams and
 * users that grant them, and each after those it contains. A project that has
 * the id already keeps its own.
 */
export interface ImportPermissionRecord {
  type: 'permission';
  id: string;
  description: string | null;
  /** Ids of the permissions this one contains (system ones, or defined before it). */
  contained_permission_ids: string[];
}

export interface ImportTeamRecord {
  type: 'team';
  /** The team's id in the source (kept as its external id). */
  id: string;
  display_name: string;
  profile_image_url: string | null;
  client_metadata: unknown;
  client_read_only_metadata: unknown;
  server_metadata: unknown;
  created_at_millis: number | null;
}

export interface ImportUserRecord {
  type: 'user';
  /** The user's id in the source (kept as its external id; a re-run skips it). */
  id: string;
  emails: ImportEmail[];
  display_name: string | null;
  profile_image_url: string | null;
  /**
   * A PHC or MCF string (bcrypt, argon2id/argon2i, scrypt, PBKDF2-SHA256,
   * `$firebase-scrypt$...`, `$better-auth-scrypt$...`), stored as given and
   * verified at the first sign-in, which re-hashes it to argon2id. Null: no password.
   */
  password_hash: string | null;
  client_metadata: unknown;
  client_read_only_metadata: unknown;
  server_metadata: unknown;
  signed_up_at_millis: number | null;
  /** OAuth identities (provider id as the project configures it; `account_id` is `sub` for OpenID Connect). */
  oauth: { provider: string; account_id: string; email: string | null }[];
  /** A TOTP secret (RFC 4648 base32) the user's authenticator app already holds. */
  totp_secret_base32: string | null;
  /** Memberships: the team by its id in the source, and the permission ids given there. */
  teams: { team_id: string; permissions: string[] }[];
}

export type ImportRecord = ImportPermissionRecord | ImportTeamRecord | ImportUserRecord;

/** Why a record was not imported. */
export type SkipReason =
  | 'malformed'
  | 'invalid_address'
  | 'duplicate_email'
  | 'duplicate_oauth_account'
  | 'unsupported_hash'
  | 'oversized_field'
  | 'invalid_field'
  /** Over the HTTP API (`latchkey import --api-url`): OAuth accounts need a local import. */
  | 'needs_local_import';

export class Refusal extends Error {
  constructor(
    readonly reason: SkipReason,
    message: string,
  ) {
    super(message);
  }
}

const maxIdLength = 256;
const maxNameLength = 256;
const maxHashLength = 512;
const maxProviderLength = 100;
const maxAccountIdLength = 512;
const maxTeamsPerUser = 1_000;
const maxAddressesPerUser = 100;

/** A user's checked fields, ready to write. */
export interface CheckedUser {
  record: ImportUserRecord;
  /** Addresses, the primary first, each once (lower-cased key). */
  emails: ImportEmail[];
  oauth: { provider: string; account_id: string; email: string | null }[];
  totpSecretBase64: string | null;
  warnings: string[];
}

function checkCommon(record: {
  id: string;
  display_name: string | null;
  profile_image_url: string | null;
  client_metadata: unknown;
  client_read_only_metadata: unknown;
  server_metadata: unknown;
}): void {
  if (record.id.length > maxIdLength) throw new Refusal('oversized_field', `id longer than ${maxIdLength} characters`);
  if (record.display_name !== null && record.display_name.length > maxNameLength) {
    throw new Refusal('oversized_field', `display_name longer than ${maxNameLength} characters`);
  }
  if (record.profile_image_url !== null) {
    const check = imageUrl.safeParse(record.profile_image_url);
    if (!check.success) {
      const long = record.profile_image_url.length > 1_000_000;
      throw new Refusal(
        long ? 'oversized_field' : 'invalid_field',
        long ? 'profile_image_url too long' : 'profile_image_url must be an http(s) URL or a base64 image data URL',
      );
    }
  }
  for (const key of ['client_metadata', 'client_read_only_metadata', 'server_metadata'] as const) {
    const value = record[key];
    if (value === null || value === undefined) continue;
    if (!metadata.safeParse(value).success) throw new Refusal('oversized_field', `${key} larger than 16384 bytes`);
  }
}

/** A custom permission id, as the permission routes take it (wire-protocol §14.4). */
const customPermissionId = /^[a-z0-9_:]{1,100}$/;
const maxDescriptionLength = 1_000;
const maxContained = 100;

/** Checks a permission definition; throws a `Refusal`. */
export function checkPermission(record: ImportPermissionRecord): void {
  if (record.id.length > 100) throw new Refusal('oversized_field', 'permission id longer than 100 characters');
  if (!customPermissionId.test(record.id)) {
    throw new Refusal('invalid_field', 'permission id may hold only lowercase letters, digits, "_" and ":"');
  }
  if (record.description !== null && record.description.length > maxDescriptionLength) {
    throw new Refusal('oversized_field', `description longer than ${maxDescriptionLength} characters`);
  }
  if (record.contained_permission_ids.length > maxContained) {
    throw new Refusal('oversized_field', `contains more than ${maxContained} permissions`);
  }
  if (record.contained_permission_ids.some((id) => id.length > 100)) {
    throw new Refusal('oversized_field', 'a contained permission id longer than 100 characters');
  }
}

/** Checks a team record; throws a `Refusal`. */
export function checkTeam(record: ImportTeamRecord): void {
  checkCommon(record);
  if (record.display_name.trim() === '') throw new Refusal('invalid_field', 'display_name is empty');
}

/** Checks a user record; throws a `Refusal`, or answers what to write with its warnings. */
export function checkUser(record: ImportUserRecord): CheckedUser {
  checkCommon(record);
  const warnings: string[] = [];
  if (record.emails.length > maxAddressesPerUser) {
    throw new Refusal('oversized_field', `more than ${maxAddressesPerUser} e-mail addresses`);
  }
  const seen = new Set<string>();
  const emails: ImportEmail[] = [];
  for (const email of record.emails) {
    const parsed = storedEmail.safeParse(email.address);
    if (!parsed.success) throw new Refusal('invalid_address', `invalid e-mail address "${email.address}"`);
    const key = parsed.data.toLowerCase();
    if (seen.has(key)) {
      warnings.push(`address ${parsed.data} listed twice: kept once`);
      continue;
    }
    seen.add(key);
    emails.push({ ...email, address: parsed.data });
  }
  const primaries = emails.filter((email) => email.primary);
  if (primaries.length > 1) warnings.push('more than one primary address: the first is primary');
  const primary = primaries[0] ?? emails[0];
  const ordered = primary
    ? [{ ...primary, primary: true }, ...emails.filter((e) => e !== primary).map((e) => ({ ...e, primary: false }))]
    : [];

  const hash = record.password_hash;
  if (hash !== null && (hash.length > maxHashLength || !isImportablePasswordHash(hash))) {
    throw new Refusal(
      'unsupported_hash',
      'password hash of an unsupported kind, or with cost parameters out of bounds',
    );
  }

  const providers = new Set<string>();
  const oauth: CheckedUser['oauth'] = [];
  for (const account of record.oauth) {
    if (account.provider.length > maxProviderLength || account.account_id.length > maxAccountIdLength) {
      throw new Refusal('oversized_field', 'oauth provider or account id too long');
    }
    if (providers.has(account.provider)) {
      warnings.push(`a second ${account.provider} account: only the first is kept`);
      continue;
    }
    providers.add(account.provider);
    oauth.push(account);
  }

  let totpSecretBase64: string | null = null;
  if (record.totp_secret_base32 !== null) {
    const bytes = base32Bytes(record.totp_secret_base32);
    if (!bytes || bytes.length < 10 || bytes.length > 64) {
      throw new Refusal('invalid_field', 'totp_secret_base32 is not a base32 secret of 10 to 64 bytes');
    }
    totpSecretBase64 = bytes.toString('base64');
  }
  if (record.teams.length > maxTeamsPerUser) throw new Refusal('oversized_field', 'member of too many teams');
  return { record, emails: ordered, oauth, totpSecretBase64, warnings };
}

/** RFC 4648 base32 (case and padding ignored, spaces allowed as authenticator apps show them), or null. */
function base32Bytes(text: string): Buffer | null {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  if (!/^[A-Z2-7]*$/.test(clean)) return null;
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  const bytes: number[] = [];
  let bits = 0;
  let value = 0;
  for (const char of clean) {
    value = (value << 5) | alphabet.indexOf(char);
    bits += 5;
    if (bits >= 8) {
      bytes.push((value >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(bytes);
}

/** RFC 4648 base32 of the bytes, unpadded (what authenticator apps take). */
export function base32Text(bytes: Buffer): string {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += alphabet[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += alphabet[(value << (5 - bits)) & 31];
  return out;
}
