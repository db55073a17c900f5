/**
 * The generic `latchkey-users` format (JSON Lines; see `../types.ts` and
 * docs/guides/import-export.md): each line one record, checked for shape here
 * (unknown fields refused, missing optional ones null or empty). What the
 * values may be (addresses, hash kinds, sizes) the import engine of the
 * server decides.
 */
import type {
  ImportEmail,
  ImportMembership,
  ImportOAuthAccount,
  ImportPermission,
  ImportRecord,
  ImportTeam,
  ImportUser,
  SourceItem,
} from '../types.js';
import { withLine } from '../types.js';

/** Longest line read (a user with large metadata and an image data URL fits). */
const maxLineBytes = 4 * 1024 * 1024;

/** The generic format from a whole file's text. */
export function parseLatchkey(text: string): AsyncIterable<SourceItem> {
  return parseLatchkeyLines(splitLines(text));
}

/** The generic format from lines read one at a time (`readline` of a large file). */
export async function* parseLatchkeyLines(lines: Iterable<string> | AsyncIterable<string>): AsyncIterable<SourceItem> {
  let line = 0;
  for await (const text of lines) {
    line++;
    if (text.trim() === '') continue;
    if (text.length > maxLineBytes) {
      yield { line, problem: `oversized line: longer than ${maxLineBytes} bytes` };
      continue;
    }
    const parsed = parseRecord(text);
    yield typeof parsed === 'string' ? { line, problem: parsed } : withLine(parsed, line);
  }
}

function* splitLines(text: string): Iterable<string> {
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    yield text.slice(start, text.charCodeAt(end - 1) === 13 ? end - 1 : end);
    start = end + 1;
  }
}

/** A record, or the problem with the line as a sentence. */
function parseRecord(text: string): ImportRecord | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'malformed line: not JSON';
  }
  if (!isObject(value)) return 'malformed line: not a JSON object';
  try {
    if (value.type === 'permission') return readPermission(value);
    if (value.type === 'team') return readTeam(value);
    if (value.type === 'user') return readUser(value);
    return `malformed line: "type" must be "permission", "team" or "user"`;
  } catch (error) {
    if (error instanceof ShapeError) return `malformed line: ${error.message}`;
    throw error;
  }
}

class ShapeError extends Error {}

type Json = Record<string, unknown>;

function isObject(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function only(value: Json, allowed: readonly string[], where: string): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) throw new ShapeError(`unknown field "${key}"${where}`);
  }
}

function string(value: Json, key: string, where = ''): string {
  const field = value[key];
  if (typeof field !== 'string' || field === '') throw new ShapeError(`"${key}"${where} must be a non-empty string`);
  return field;
}

function optionalString(value: Json, key: string, where = ''): string | null {
  const field = value[key];
  if (field === undefined || field === null) return null;
  if (typeof field !== 'string') throw new ShapeError(`"${key}"${where} must be a string or null`);
  return field;
}

function optionalBoolean(value: Json, key: string, fallback: boolean, where: string): boolean {
  const field = value[key];
  if (field === undefined || field === null) return fallback;
  if (typeof field !== 'boolean') throw new ShapeError(`"${key}"${where} must be true or false`);
  return field;
}

function optionalMillis(value: Json, key: string): number | null {
  const field = value[key];
  if (field === undefined || field === null) return null;
  if (typeof field !== 'number' || !Number.isSafeInteger(field) || field < 0) {
    throw new ShapeError(`"${key}" must be a whole number of milliseconds`);
  }
  return field;
}

function list(value: Json, key: string): unknown[] {
  const field = value[key];
  if (field === undefined || field === null) return [];
  if (!Array.isArray(field)) throw new ShapeError(`"${key}" must be a list`);
  return field;
}

function metadata(value: Json, key: string): unknown {
  return value[key] ?? null;
}

function readPermission(value: Json): ImportPermission {
  only(value, ['type', 'id', 'description', 'contained_permission_ids'], '');
  const contained = list(value, 'contained_permission_ids');
  if (!contained.every((id) => typeof id === 'string' && id !== '')) {
    throw new ShapeError('"contained_permission_ids" must be a list of permission ids');
  }
  return {
    type: 'permission',
    id: string(value, 'id'),
    description: optionalString(value, 'description'),
    contained_permission_ids: contained as string[],
  };
}

const teamFields = [
  'type',
  'id',
  'display_name',
  'profile_image_url',
  'client_metadata',
  'client_read_only_metadata',
  'server_metadata',
  'created_at_millis',
] as const;

function readTeam(value: Json): ImportTeam {
  only(value, teamFields, '');
  return {
    type: 'team',
    id: string(value, 'id'),
    display_name: string(value, 'display_name'),
    profile_image_url: optionalString(value, 'profile_image_url'),
    client_metadata: metadata(value, 'client_metadata'),
    client_read_only_metadata: metadata(value, 'client_read_only_metadata'),
    server_metadata: metadata(value, 'server_metadata'),
    created_at_millis: optionalMillis(value, 'created_at_millis'),
  };
}

const userFields = [
  'type',
  'id',
  'emails',
  'display_name',
  'profile_image_url',
  'password_hash',
  'client_metadata',
  'client_read_only_metadata',
  'server_metadata',
  'signed_up_at_millis',
  'oauth',
  'totp_secret_base32',
  'teams',
] as const;

function readUser(value: Json): ImportUser {
  only(value, userFields, '');
  return {
    type: 'user',
    id: string(value, 'id'),
    emails: list(value, 'emails').map(readEmail),
    display_name: optionalString(value, 'display_name'),
    profile_image_url: optionalString(value, 'profile_image_url'),
    password_hash: optionalString(value, 'password_hash'),
    client_metadata: metadata(value, 'client_metadata'),
    client_read_only_metadata: metadata(value, 'client_read_only_metadata'),
    server_metadata: metadata(value, 'server_metadata'),
    signed_up_at_millis: optionalMillis(value, 'signed_up_at_millis'),
    oauth: list(value, 'oauth').map(readOAuth),
    totp_secret_base32: optionalString(value, 'totp_secret_base32'),
    teams: list(value, 'teams').map(readMembership),
  };
}

function readEmail(value: unknown, index: number): ImportEmail {
  const where = ` of emails[${index}]`;
  if (!isObject(value)) throw new ShapeError(`emails[${index}] must be an object`);
  only(value, ['address', 'verified', 'primary', 'used_for_auth'], where);
  return {
    address: string(value, 'address', where),
    verified: optionalBoolean(value, 'verified', false, where),
    primary: optionalBoolean(value, 'primary', false, where),
    used_for_auth: optionalBoolean(value, 'used_for_auth', true, where),
  };
}

function readOAuth(value: unknown, index: number): ImportOAuthAccount {
  const where = ` of oauth[${index}]`;
  if (!isObject(value)) throw new ShapeError(`oauth[${index}] must be an object`);
  only(value, ['provider', 'account_id', 'email'], where);
  return {
    provider: string(value, 'provider', where),
    account_id: string(value, 'account_id', where),
    email: optionalString(value, 'email', where),
  };
}

function readMembership(value: unknown, index: number): ImportMembership {
  const where = ` of teams[${index}]`;
  if (!isObject(value)) throw new ShapeError(`teams[${index}] must be an object`);
  only(value, ['team_id', 'permissions'], where);
  const permissions = list(value, 'permissions');
  if (!permissions.every((permission) => typeof permission === 'string' && permission !== '')) {
    throw new ShapeError(`"permissions"${where} must be a list of permission ids`);
  }
  return { team_id: string(value, 'team_id', where), permissions: permissions as string[] };
}
