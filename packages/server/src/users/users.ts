/**
 * Users as server code manages them: create (with a password, an imported
 * hash, or neither), change any field a server may set, and list page by page.
 * The routes and the package's operations (CLI, scripts) both call these, so
 * the rules live in one place. Passwords are hashed before any transaction.
 */
import { type Json, KnownError } from '@latchkey/protocol';
import { isUuid } from '../common/ids.js';
import { checkPasswordRequirements, type PasswordHasher } from '../password/passwords.js';
import { deleteUserSessions } from '../sessions/session-store.js';
import { type Db, inTransaction } from '../storage/db.js';
import { authEmailIndex, isUniqueViolation, type UserRow } from '../storage/schema.js';
import { findMembership, findTeam } from '../teams/team-store.js';
import { type CursorScope, decodeCursor, encodeCursor } from './user-cursor.js';
import {
  attachSelectedTeams,
  findUser,
  findUserByAuthEmail,
  insertUser,
  listUserPage,
  type UserChanges,
  type UserPosition,
  updateUser,
} from './user-store.js';
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

/** The stored hash for a password or an imported hash; undefined when neither is given. */
async function passwordHashOf(input: { password?: string | null; password_hash?: string }, passwords: PasswordHasher) {
  if (input.password != null && input.password_hash !== undefined) {
    throw schemaError('body: give password or password_hash, not both');
  }
  if (input.password_hash !== undefined) return input.password_hash;
  if (input.password === null) return null;
  if (input.password === undefined) return undefined;
  checkPasswordRequirements(input.password);
  return passwords.hash(input.password);
}

/** Runs `write`, turning a clash on the sign-in e-mail index into USER_EMAIL_ALREADY_EXISTS. */
async function uniqueEmail<T>(write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isUniqueViolation(error, authEmailIndex)) throw new KnownError('USER_EMAIL_ALREADY_EXISTS');
    throw error;
  }
}

/** More work that commits or rolls back with a change (an audit event), given the transaction and the row. */
export type AlsoInTransaction = (trx: Db, row: UserRow) => Promise<void>;

/**
 * Creates a user. A sign-in e-mail (`primary_email_auth_enabled`) needs an
 * e-mail and must be free in the project.
 */
export async function createUser(
  db: Db,
  projectId: string,
  input: CreateUserInput,
  now: number,
  passwords: PasswordHasher,
  also?: AlsoInTransaction,
): Promise<UserRow> {
  const authEnabled = input.primary_email_auth_enabled ?? false;
  if (authEnabled && !input.primary_email) throw schemaError('body.primary_email: required to sign in with it');
  const passwordHash = await passwordHashOf(input, passwords);
  // A taken sign-in e-mail is refused by the unique index as the channel is inserted (no query before).
  return uniqueEmail(() =>
    inTransaction(db, async (trx) => {
      const row = await insertUser(trx, {
        projectId,
        now,
        primaryEmail: input.primary_email ?? null,
        primaryEmailVerified: input.primary_email_verified ?? false,
        primaryEmailAuthEnabled: authEnabled,
        passwordHash: passwordHash ?? null,
        displayName: input.display_name ?? null,
        profileImageUrl: input.profile_image_url ?? null,
        clientMetadata: input.client_metadata ?? {},
        clientReadOnlyMetadata: input.client_read_only_metadata ?? {},
        serverMetadata: input.server_metadata ?? {},
        otpAuthEnabled: input.otp_auth_enabled ?? false,
        passkeyAuthEnabled: input.passkey_auth_enabled ?? false,
      });
      await also?.(trx, row);
      return row;
    }),
  );
}

/**
 * Changes a user as server code may. A new e-mail is unverified unless the
 * change says otherwise; a password set or removed here signs the user out of
 * every session. Null when there is no such user.
 */
export async function changeUser(
  db: Db,
  projectId: string,
  userId: string,
  changes: ServerUserChanges,
  now: number,
  passwords: PasswordHasher,
  also?: AlsoInTransaction,
): Promise<UserRow | null> {
  const { password, password_hash, ...fields } = changes;
  const passwordHash = await passwordHashOf({ password, password_hash }, passwords);
  const current = await findUser(db, projectId, userId);
  if (!current) return null;
  const set: UserChanges = { ...fields };
  if (passwordHash !== undefined) set.password_hash = passwordHash;
  const emailChanged = fields.primary_email !== undefined && fields.primary_email !== current.primary_email;
  if (emailChanged && fields.primary_email_verified === undefined) set.primary_email_verified = false;
  const email = fields.primary_email === undefined ? current.primary_email : fields.primary_email;
  const authEnabled = fields.primary_email_auth_enabled ?? current.primary_email_auth_enabled;
  if (authEnabled && !email) throw schemaError('body.primary_email: required to sign in with it');
  if (authEnabled && email && (emailChanged || !current.primary_email_auth_enabled)) {
    const holder = await findUserByAuthEmail(db, projectId, email);
    if (holder && holder.id !== current.id) throw new KnownError('USER_EMAIL_ALREADY_EXISTS');
  }
  return uniqueEmail(() =>
    inTransaction(db, async (trx) => {
      const row = await updateUser(trx, projectId, current.id, set, now);
      if (row && passwordHash !== undefined) await deleteUserSessions(trx, projectId, current.id);
      if (row) await also?.(trx, row);
      return row;
    }),
  );
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
