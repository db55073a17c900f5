/**
 * The generic `latchkey-users` format (JSON Lines, one record a line, `type`
 * first) as TypeScript: what `latchkey export` writes, what `latchkey import
 * --from latchkey` reads, and what every other source's parser converts into.
 * See docs/guides/import-export.md.
 */

import type { SourceOptions } from './sources/options.js';

/** An e-mail address of a user. */
export interface ImportEmail {
  address: string;
  verified: boolean;
  /** At most one address of a user is primary; with none, the first is. */
  primary: boolean;
  /** Whether the address signs in (password and one-time codes). */
  used_for_auth: boolean;
}

/** An OAuth identity: the next sign-in with that provider account lands on the user. */
export interface ImportOAuthAccount {
  /** The provider id as the project configures it (`github`, `google`...). */
  provider: string;
  /** The provider's id of the account (`sub` for OpenID Connect). */
  account_id: string;
  email: string | null;
}

/** A membership: the team by its id in the source, and the permission ids given there. */
export interface ImportMembership {
  team_id: string;
  permissions: string[];
}

/**
 * A custom team permission definition; permissions come before the teams and
 * users that grant them, and each after those it contains. A project that has
 * the id already keeps its own.
 */
export interface ImportPermission {
  type: 'permission';
  id: string;
  description: string | null;
  /** Ids of the permissions this one contains (system ones, or defined before it). */
  contained_permission_ids: string[];
}

export interface ImportTeam {
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

export interface ImportUser {
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
  oauth: ImportOAuthAccount[];
  /** A TOTP secret (RFC 4648 base32) the user's authenticator app already holds. */
  totp_secret_base32: string | null;
  teams: ImportMembership[];
}

/** One record of the generic format. Permissions come first, then teams before the users that name them. */
export type ImportRecord = ImportPermission | ImportTeam | ImportUser;

/** A part of the input a parser could not read: reported with its place, skipped. */
export interface ImportProblem {
  /** 1-based line of the input (or row of a CSV, record of a JSON array). */
  line: number;
  problem: string;
}

/**
 * What a source's parser yields, in input order. A record may say where it
 * came from with `sourceLine` (see `withLine`) so a later refusal (duplicate
 * e-mail...) names that line; without it the report counts records.
 */
export type SourceItem = ImportRecord | ImportProblem;

/**
 * A source's parser: the whole export file as text in, records and problems
 * out; `options` holds the side files some sources read (`--identities`...).
 */
export type SourceParser = (text: string, options?: SourceOptions) => AsyncIterable<SourceItem>;

const lines = new WeakMap<ImportRecord, number>();

/** Tags a record with the input line (or row) it came from, for the report. */
export function withLine<T extends ImportRecord>(record: T, line: number): T {
  lines.set(record, line);
  return record;
}

/** The input line a parser tagged the record with, if any. */
export function lineOf(record: ImportRecord): number | undefined {
  return lines.get(record);
}

export function isProblem(item: SourceItem): item is ImportProblem {
  return 'problem' in item;
}
