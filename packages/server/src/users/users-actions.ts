/**
 * What changes users, for the routes and the operator alike: create one
 * (with a password, an imported hash, or neither), change one as server code
 * may or as the user themself may, and delete one with their sessions. Each
 * is an action (`events/recorder.ts`): its writes and its event commit
 * together. Passwords are hashed before the transaction opens. `addUser` is
 * the rule every creation of a user shares, sign-ups included. The rules that
 * span tables live here, not in the stores: a new user's primary channel and
 * personal team, the primary channel following a changed primary e-mail,
 * a deleted user's sessions ended first.
 */
import { KnownError } from '@latchkey/protocol';
import { isUuid } from '../common/ids.js';
import { applyPrimaryEmail, insertContactChannel } from '../contact-channels/contact-channel-store.js';
import { type ActionContext, type ActionTx, act, record, sessionsEnded } from '../events/recorder.js';
import type { PasswordHasher } from '../password/passwords.js';
import { type ProjectConfig, parseStoredConfig } from '../projects/project-config.js';
import { findProjectRow } from '../projects/project-store.js';
import { deleteUserSessions } from '../sessions/session-store.js';
import { type Db, inTransaction } from '../storage/db.js';
import type { UserRow } from '../storage/schema.js';
import { insertTeam, personalTeamName } from '../teams/team-store.js';
import { joinTeam } from '../teams/teams-actions.js';
import {
  deleteUserRow,
  findUser,
  findUserByAuthEmail,
  insertUserRow,
  lockUser,
  type NewUser,
  type UserChanges,
  updateUser as updateUserRow,
} from './user-store.js';
import {
  type CreateUserInput,
  checkPrimaryEmail,
  passwordHashOf,
  type ServerUserChanges,
  selectionRace,
  uniqueEmail,
} from './users.js';

/**
 * Adds a user with their primary contact channel and, when the project asks
 * (`create_team_on_sign_up`), a team of their own that they create and
 * select; returns the row. Every way a user is created passes here (the
 * sign-ups too, in their own transaction, which it joins), so none can
 * forget a rule. A taken sign-in e-mail fails on `authEmailIndex`.
 */
export function addUser(db: Db, user: NewUser): Promise<UserRow> {
  return inTransaction(db, (trx) => addUserIn(trx, user));
}

async function addUserIn(db: Db, user: NewUser): Promise<UserRow> {
  const row = await insertUserRow(db, user);
  if (row.primary_email !== null) {
    await insertContactChannel(db, {
      projectId: row.project_id,
      userId: row.id,
      value: row.primary_email,
      isVerified: row.primary_email_verified,
      isPrimary: true,
      usedForAuth: row.primary_email_auth_enabled,
      now: user.now,
      firstOfUser: true,
    });
  }
  const config = user.projectConfig ?? (await storedConfig(db, row.project_id));
  if (!config?.create_team_on_sign_up) return row;
  const team = await insertTeam(db, {
    projectId: row.project_id,
    displayName: personalTeamName(row),
    now: user.now,
  });
  await joinTeam(db, {
    project: { id: row.project_id, config },
    teamId: team.id,
    userId: row.id,
    role: 'creator',
    now: user.now,
  });
  return (await updateUserRow(db, row.project_id, row.id, { selected_team_id: team.id })) ?? row;
}

async function storedConfig(db: Db, projectId: string): Promise<ProjectConfig | null> {
  const project = await findProjectRow(db, projectId);
  return project && parseStoredConfig(project.id, project.config);
}

/** More of a user change, in its action (a TOTP secret: `mfa/mfa-actions.ts`); answers the row after it. */
export type AlsoChange = (tx: ActionTx, row: UserRow) => Promise<UserRow | null>;

/**
 * Creates a user of the context's project. A sign-in e-mail
 * (`primary_email_auth_enabled`) needs an e-mail and must be free in the project.
 */
export async function createUser(
  ctx: ActionContext,
  input: CreateUserInput,
  passwords: PasswordHasher,
  also?: AlsoChange,
): Promise<UserRow> {
  const authEnabled = input.primary_email_auth_enabled ?? false;
  checkPrimaryEmail(input.primary_email, authEnabled, input.primary_email_verified ?? false);
  const passwordHash = await passwordHashOf(input, passwords);
  // A taken sign-in e-mail is refused by the unique index as the channel is inserted (no query before).
  return uniqueEmail(() =>
    act(ctx, async (tx) => {
      const row = await addUser(tx.db, {
        projectId: ctx.projectId,
        now: ctx.clock.now(),
        primaryEmail: input.primary_email ?? null,
        primaryEmailVerified: input.primary_email_verified ?? false,
        primaryEmailAuthEnabled: authEnabled,
        passwordHash: passwordHash ?? null,
        displayName: input.display_name ?? null,
        profileImageUrl: input.profile_image_url ?? null,
        clientMetadata: input.client_metadata ?? null,
        clientReadOnlyMetadata: input.client_read_only_metadata ?? null,
        serverMetadata: input.server_metadata ?? null,
        otpAuthEnabled: input.otp_auth_enabled ?? false,
        passkeyAuthEnabled: input.passkey_auth_enabled ?? false,
      });
      await record(tx, 'user.created', { userId: row.id });
      return (await also?.(tx, row)) ?? row;
    }),
  );
}

/**
 * Changes a user as server code may. A new e-mail is unverified unless the
 * change says otherwise; removing the e-mail (`null`) ends signing in with it;
 * a password set or removed here signs the user out of every session. Null when there is no such user. A selected team the user
 * left meanwhile is TEAM_MEMBERSHIP_NOT_FOUND (`checkSelectedTeam` first).
 */
export async function updateUser(
  ctx: ActionContext,
  userId: string,
  changes: ServerUserChanges,
  passwords: PasswordHasher,
  also?: AlsoChange,
): Promise<UserRow | null> {
  const { password, password_hash, ...fields } = changes;
  const passwordHash = await passwordHashOf({ password, password_hash }, passwords);
  const current = await findUser(ctx.db, ctx.projectId, userId);
  if (!current) return null;
  const set: UserChanges = { ...fields };
  if (passwordHash !== undefined) set.password_hash = passwordHash;
  const emailChanged = fields.primary_email !== undefined && fields.primary_email !== current.primary_email;
  if (emailChanged && fields.primary_email_verified === undefined) set.primary_email_verified = false;
  if (fields.primary_email === null) {
    // Removing the e-mail ends signing in with it (as the original backend, which deletes the channel).
    checkPrimaryEmail(null, fields.primary_email_auth_enabled ?? false, fields.primary_email_verified ?? false);
    set.primary_email_auth_enabled = false;
    set.primary_email_verified = false;
  }
  const email = fields.primary_email === undefined ? current.primary_email : fields.primary_email;
  const authEnabled = set.primary_email_auth_enabled ?? current.primary_email_auth_enabled;
  checkPrimaryEmail(email, authEnabled, set.primary_email_verified ?? current.primary_email_verified);
  if (authEnabled && email && (emailChanged || !current.primary_email_auth_enabled)) {
    const holder = await findUserByAuthEmail(ctx.db, ctx.projectId, email);
    if (holder && holder.id !== current.id) throw new KnownError('USER_EMAIL_ALREADY_EXISTS');
  }
  // The names of the fields changed (never a password or metadata value); a password is its own event.
  const names = Object.keys(fields).sort();
  return selectionRace(fields.selected_team_id, current.id, () =>
    uniqueEmail(() =>
      act(ctx, async (tx) => {
        const row = await updateUserRow(tx.db, ctx.projectId, current.id, set);
        if (!row) return null;
        if (touchesPrimaryEmail(set)) {
          // The primary contact channel follows the user row's primary e-mail, in the same transaction.
          const state = {
            email: row.primary_email,
            verified: row.primary_email_verified,
            usedForAuth: row.primary_email_auth_enabled,
          };
          await applyPrimaryEmail(tx.db, ctx.projectId, row.id, state, ctx.clock.now());
        }
        if (passwordHash !== undefined) {
          sessionsEnded(tx, await deleteUserSessions(tx.db, ctx.projectId, current.id));
          await record(tx, 'password.changed', { userId: row.id, data: { by: 'server' } });
        }
        if (names.length > 0) await record(tx, 'user.updated', { userId: row.id, data: { fields: names } });
        return (await also?.(tx, row)) ?? row;
      }),
    ),
  );
}

function touchesPrimaryEmail(changes: UserChanges): boolean {
  return (
    changes.primary_email !== undefined ||
    changes.primary_email_verified !== undefined ||
    changes.primary_email_auth_enabled !== undefined
  );
}

/** What the signed-in user may change of themself (`PATCH /users/me`). */
export type OwnUserChanges = Pick<
  UserChanges,
  | 'display_name'
  | 'profile_image_url'
  | 'selected_team_id'
  | 'otp_auth_enabled'
  | 'passkey_auth_enabled'
  | 'client_metadata'
  | 'client_read_only_metadata'
  | 'server_metadata'
>;

/**
 * Changes the context's signed-in user (`ctx.userId`); null when the user is
 * gone. A selected team they left meanwhile is TEAM_MEMBERSHIP_NOT_FOUND.
 */
export function updateOwnUser(ctx: ActionContext, changes: OwnUserChanges, also?: AlsoChange): Promise<UserRow | null> {
  const userId = ctx.userId;
  if (userId === null) throw new KnownError('CANNOT_GET_OWN_USER_WITHOUT_USER');
  return selectionRace(changes.selected_team_id, userId, () =>
    act(ctx, async (tx) => {
      const row = await updateUserRow(tx.db, ctx.projectId, userId, changes);
      const fields = Object.keys(changes).sort();
      if (row && fields.length > 0) await record(tx, 'user.profile_updated', { userId: row.id, data: { fields } });
      return row && ((await also?.(tx, row)) ?? row);
    }),
  );
}

/**
 * Deletes the user and their sessions, so their access and refresh tokens stop
 * working at once on every instance. False when there is no such user.
 */
export function deleteUser(ctx: ActionContext, userId: string): Promise<boolean> {
  // A malformed id names nobody (and must not reach the database's uuid cast).
  if (!isUuid(userId)) return Promise.resolve(false);
  return act(ctx, async (tx) => {
    // The user's row first (no session can be added meanwhile), then their sessions, deleted as every
    // session is (every instance is told); the cascade then finds none.
    const user = await lockUser(tx.db, ctx.projectId, userId);
    if (!user) return false;
    sessionsEnded(tx, await deleteUserSessions(tx.db, ctx.projectId, user.id));
    if (!(await deleteUserRow(tx.db, ctx.projectId, user.id))) return false;
    await record(tx, 'user.deleted', { userId: user.id });
    return true;
  });
}
