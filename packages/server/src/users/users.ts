/**
 * The rules of users that both reads and changes use: listing page by page,
 * which team a user may select, the stored hash of a password, and the
 * errors of a write. The changes themselves are actions (`users-actions.ts`).
 */
import { type Json, KnownError } from '@latchkey/protocol';
import { isUuid } from '../common/ids.js';
import { StatusRefusal } from '../http/responses.js';
import { checkPasswordRequirements, isImportablePasswordHash, type PasswordHasher } from '../password/passwords.js';
import type { Db } from '../storage/db.js';
import { authEmailIndex, isUniqueViolation } from '../storage/schema.js';
import { findMembership, findTeam } from '../teams/team-store.js';
import { type CursorScope, decodeCursor, encodeCursor } from './user-cursor.js';
import { attachSelectedTeams, findUser, listUserPage, type UserChanges, type UserPosition } from './user-store.js';
import type { UserWithTeam } from './user-views.js';

/** A user to create, in wire names (the body of `POST /users`). */
export interface CreateUserInput {
  primary_email?: string | null | undefined;
  primary_email_verified?: boolean | undefined;
  primary_email_auth_enabled?: boolean | undefined;
  password?: string | null | undefined;
  password_hash?: string | undefined;
  display_name?: string | null | undefined;
  profile_image_url?: string | null | undefined;
  client_metadata?: Json | undefined;
  client_read_only_metadata?: Json | undefined;
  server_metadata?: Json | undefined;
  otp_auth_enabled?: boolean | undefined;
  passkey_auth_enabled?: boolean | undefined;
}

/** Every field a server may change (the body of `PATCH /users/:userId`, less what the route handles itself). */
export type ServerUserChanges = Omit<UserChanges, 'password_hash'> & {
  password?: string | null | undefined;
  password_hash?: string | undefined;
};

/** The known errors of creating or changing a user. */
export const userWriteErrors = ['USER_EMAIL_ALREADY_EXISTS', 'PASSWORD_TOO_SHORT', 'PASSWORD_TOO_LONG'] as const;

function schemaError(message: string): KnownError<'SCHEMA_ERROR'> {
  return new KnownError('SCHEMA_ERROR', { message });
}

/** The stored hash for a password server code sets (no minimum length) or an imported hash; undefined when neither is given. */
export async function passwordHashOf(
  input: { password?: string | null; password_hash?: string },
  passwords: PasswordHasher,
) {
  // Both given (even a null password), or a hash that may not be imported: the original backend's plain 400s.
  if (input.password !== undefined && input.password_hash !== undefined) {
    throw new StatusRefusal(400, 'Cannot set both password and password_hash at the same time.');
  }
  if (input.password_hash !== undefined) {
    if (!isImportablePasswordHash(input.password_hash)) {
      throw new StatusRefusal(
        400,
        "Invalid password hash. Make sure it's a supported algorithm in Modular Crypt Format.",
      );
    }
    return input.password_hash;
  }
  if (input.password === null) return null;
  if (input.password === undefined) return undefined;
  checkPasswordRequirements(input.password, 'server');
  return passwords.hash(input.password);
}

/** Runs `write`, turning a clash on the sign-in e-mail index into USER_EMAIL_ALREADY_EXISTS. */
export async function uniqueEmail<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error, authEmailIndex)) throw new KnownError('USER_EMAIL_ALREADY_EXISTS');
    throw error;
  }
}

/**
 * Refuses a primary e-mail state the original backend refuses (with its plain
 * 400s): signing in with, or a verified, e-mail the user has not.
 */
export function checkPrimaryEmail(email: string | null | undefined, authEnabled: boolean, verified: boolean): void {
  if (email) return;
  if (authEnabled) throw new StatusRefusal(400, 'primary_email_auth_enabled cannot be true without primary_email');
  if (verified) throw new StatusRefusal(400, 'primary_email_verified cannot be true without primary_email');
}

/** A page of users (with their selected teams) and the cursor of the next one (null at the end). */
export interface UserPage {
  items: UserWithTeam[];
  nextCursor: string | null;
}

/** What to list: at most `limit` users in sign-up order, matching `query`, from `cursor` on. */
export interface ListUsersOptions extends CursorScope {
  limit: number;
  cursor: string | null;
}

/** One page of the project's users. SCHEMA_ERROR for a cursor that is malformed or from another list. */
export async function listUsers(db: Db, projectId: string, options: ListUsersOptions): Promise<UserPage> {
  let from: UserPosition | null = null;
  if (options.cursor) {
    const cursor = decodeCursor(options.cursor, options);
    if ('position' in cursor) from = cursor.position;
    else {
      const user = await findUser(db, projectId, cursor.userId);
      if (!user) throw schemaError('query.cursor: names no user of this project');
      from = { signedUpAt: user.signed_up_at, id: user.id };
    }
  }
  const text = options.query?.trim().toLowerCase() ?? '';
  const search = text ? { contains: text, id: isUuid(text) ? text : null } : null;
  const rows = await listUserPage(db, projectId, {
    limit: options.limit + 1,
    desc: options.desc,
    search,
    from,
    teamId: options.teamId,
  });
  const next = rows.length > options.limit ? rows[options.limit]! : null;
  return {
    items: await attachSelectedTeams(db, rows.slice(0, options.limit)),
    nextCursor: next ? encodeCursor({ signedUpAt: next.signed_up_at, id: next.id }, options) : null,
  };
}

/**
 * Refuses a selected team the user may not select: TEAM_NOT_FOUND for an
 * unknown or malformed id, TEAM_MEMBERSHIP_NOT_FOUND for a team they are not
 * in (`null` clears the selection and always passes). The foreign key on
 * `users.selected_team_id` decides a race with leaving the team
 * (`selectionRace`).
 */
export async function checkSelectedTeam(
  db: Db,
  projectId: string,
  userId: string,
  teamId: string | null | undefined,
): Promise<void> {
  // Only null and absent skip the check: an empty id is an id that names no team.
  if (teamId === null || teamId === undefined) return;
  if (!(await findTeam(db, projectId, teamId))) throw new KnownError('TEAM_NOT_FOUND', { team_id: teamId });
  if (!(await findMembership(db, projectId, teamId, userId))) {
    throw new KnownError('TEAM_MEMBERSHIP_NOT_FOUND', { team_id: teamId, user_id: userId });
  }
}

/** What `write` returns; a selection that lost a race with leaving the team is TEAM_MEMBERSHIP_NOT_FOUND. */
export async function selectionRace<T>(
  teamId: string | null | undefined,
  userId: string,
  write: () => Promise<T>,
): Promise<T> {
  try {
    return await write();
  } catch (error) {
    const { code, constraint } = (error ?? {}) as { code?: unknown; constraint?: unknown };
    if (teamId != null && code === '23503' && constraint === 'users_selected_team_fk') {
      throw new KnownError('TEAM_MEMBERSHIP_NOT_FOUND', { team_id: teamId, user_id: userId });
    }
    throw error;
  }
}
