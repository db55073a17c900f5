/**
 * The signed-in user: `GET`, `PATCH` and `DELETE /users/me` (wire-protocol
 * §14.2). Client access sees and edits the client view; server and admin
 * access see the server view and change the user as `PATCH /users/{id}` does
 * (e-mail, password, read-only and server metadata). A client may delete its user only when the project enables
 * `client_user_deletion_enabled`; otherwise the answer is the original
 * backend's plain 400 (only server and admin access may then delete).
 * Refusals the original backend answers as plain text (a client's profile
 * image that is no image, both a password and a hash, an unknown hash format,
 * e-mail sign-in without an e-mail) are plain 400s here too.
 */
import { KnownError } from '@latchkey/protocol';
import { z } from 'zod';
import {
  clientImageUrl,
  idRef,
  imageUrl,
  maxImageUrlLength,
  metadata,
  paginatedList,
  storedEmail,
  successAnswer,
} from '../common/schemas.js';
import { requestContext } from '../events/recorder.js';
import { StatusRefusal } from '../http/responses.js';
import { defineRoute, type Route } from '../http/route.js';
import { totpSecretChange } from '../mfa/mfa-actions.js';
import { requireRecentSignIn } from '../mfa/recent-sign-in.js';
import { totpSecretBase64 } from '../mfa/totp.js';
import type { UserRow } from '../storage/schema.js';
import { findTeam } from '../teams/team-store.js';
import { attachSelectedTeam, findUser } from './user-store.js';
import { serverUserSchema, serverUserView, userViews } from './user-views.js';
import { checkSelectedTeam, listUsers, userWriteErrors } from './users.js';
import { createUser, deleteUser, updateOwnUser, updateUser } from './users-actions.js';

/**
 * A profile image the user sets themself: a base64 data URL in a format a
 * client may send (as for teams), or an http(s) link, which the reference
 * refuses but our account settings offer as an image address.
 */
const isOwnImageUrl = (value: string) =>
  value.startsWith('data:') ? clientImageUrl.safeParse(value).success : imageUrl.safeParse(value).success;

/**
 * What a client may send as its profile image: any URL (SCHEMA_ERROR
 * otherwise); one that is no image it may set (`isOwnImageUrl`) is the
 * original backend's plain 400 (`ownImageRefusal`).
 */
const ownImageUrlField = z
  .string()
  .max(maxImageUrlLength)
  .refine((value) => URL.canParse(value), { message: 'must be a URL' });

/** A client's profile image that is a URL but no image it may set, refused as the original backend does. */
function checkOwnImageUrl(value: string | null | undefined): void {
  if (typeof value === 'string' && !isOwnImageUrl(value)) throw new StatusRefusal(400, 'Invalid profile image URL');
}

/** A display name; an empty one is stored as none (`null`), as the original backend does. */
const displayName = z
  .string()
  .max(256)
  .nullable()
  .optional()
  .transform((value) => (value === '' ? null : value));

const clientPatch = z.strictObject({
  display_name: displayName,
  client_metadata: metadata.optional(),
  profile_image_url: ownImageUrlField.nullable().optional(),
  selected_team_id: z.string().min(1).max(100).nullable().optional(),
  otp_auth_enabled: z.boolean().optional(),
  passkey_auth_enabled: z.boolean().optional(),
  totp_secret_base64: totpSecretBase64.optional(),
});

const serverUserBody = {
  primary_email: storedEmail.nullable().optional(),
  primary_email_verified: z.boolean().optional(),
  primary_email_auth_enabled: z.boolean().optional(),
  password: z.string().nullable().optional(),
  password_hash: z.string().max(512).optional(),
  display_name: displayName,
  profile_image_url: imageUrl.nullable().optional(),
  client_metadata: metadata.optional(),
  client_read_only_metadata: metadata.optional(),
  server_metadata: metadata.optional(),
  otp_auth_enabled: z.boolean().optional(),
  passkey_auth_enabled: z.boolean().optional(),
  totp_secret_base64: clientPatch.shape.totp_secret_base64,
};

/** The body of `POST /users` (also what `createUser` of the package's operations takes). */
export const createUserBody = z.strictObject(serverUserBody);

/** What server access may change of a user, by id or as `me`. */
const serverUserPatch = z.strictObject({ ...serverUserBody, selected_team_id: clientPatch.shape.selected_team_id });

/** The signed-in user's row; a token whose user is gone reads as no user. */
function ownUser<T extends UserRow>(row: T | null): T {
  if (!row) throw new KnownError('CANNOT_GET_OWN_USER_WITHOUT_USER');
  return row;
}

const selectionErrors = ['TEAM_NOT_FOUND', 'TEAM_MEMBERSHIP_NOT_FOUND'] as const;

const getCurrentUser = defineRoute({
  method: 'GET',
  path: '/users/me',
  tag: 'users',
  summary: 'The signed-in user, in the client view (client access) or the server view.',
  access: 'client',
  user: true,
  answer: userViews,
  errors: [],
  handler: async ({ auth, userId, deps }) => ownUser(await deps.users.get(auth.project.id, userId)),
});

const updateCurrentUser = defineRoute({
  method: 'PATCH',
  path: '/users/me',
  tag: 'users',
  summary:
    'Changes fields of the signed-in user; server access changes any field `PATCH /users/{id}` does. A client sets or clears `totp_secret_base64` only within 10 minutes of signing in.',
  access: 'client',
  user: true,
  body: { client: clientPatch, server: serverUserPatch },
  answer: userViews,
  errors: [...selectionErrors, 'USER_AUTHENTICATION_REQUIRED', ...userWriteErrors],
  refusals: [400],
  handler: async (input) => {
    const { auth, userId, body, deps } = input;
    const { totp_secret_base64: totp, ...changes } = body;
    if (auth.accessType === 'client') checkOwnImageUrl(changes.profile_image_url);
    if (totp !== undefined) await requireRecentSignIn(deps.db, auth, userId, deps.clock.now());
    const teamId = normalTeamId(changes.selected_team_id);
    await checkSelectedTeam(deps.db, auth.project.id, userId, teamId);
    const row =
      auth.accessType === 'client'
        ? await updateOwnUser(
            requestContext(input),
            withTeam(changes, teamId),
            totpSecretChange(deps.configSealer, totp, 'user'),
          )
        : await updateUser(
            requestContext(input),
            userId,
            withTeam(changes, teamId),
            deps.passwords,
            totpSecretChange(deps.configSealer, totp, 'server'),
          );
    return ownUser(await attachSelectedTeam(deps.db, row));
  },
});

const deleteCurrentUser = defineRoute({
  method: 'DELETE',
  path: '/users/me',
  tag: 'users',
  summary: 'Deletes the signed-in user and their sessions (clients only where the project allows it).',
  access: 'client',
  user: true,
  answer: successAnswer,
  errors: [],
  refusals: [400],
  handler: async (input) => {
    const { auth, userId } = input;
    if (auth.accessType === 'client' && !auth.project.config.client_user_deletion_enabled) {
      throw new StatusRefusal(400, 'Client user deletion is not enabled for this project');
    }
    if (!(await deleteUser(requestContext(input), userId))) {
      throw new KnownError('CANNOT_GET_OWN_USER_WITHOUT_USER');
    }
    return { success: true as const };
  },
});

const userList = paginatedList(serverUserSchema, 'UserList');

const listUsersRoute = defineRoute({
  method: 'GET',
  path: '/users',
  tag: 'users',
  summary: "The project's users page by page, in sign-up order, optionally matching a search text.",
  access: 'server',
  query: z.object({
    limit: z.coerce.number().int().min(1).max(1000).default(100),
    cursor: z.string().max(300).optional().meta({ description: 'next_cursor of the previous page (or a user id).' }),
    order_by: z.enum(['signed_up_at']).default('signed_up_at'),
    desc: z.enum(['true', 'false']).default('false'),
    query: z.string().max(256).optional().meta({ description: 'Text inside the e-mail or display name, or an id.' }),
    team_id: idRef.optional(),
  }),
  answer: userList,
  errors: ['TEAM_NOT_FOUND'],
  handler: async ({ auth, query, deps }) => {
    if (query.team_id !== undefined && !(await findTeam(deps.db, auth.project.id, query.team_id))) {
      throw new KnownError('TEAM_NOT_FOUND', { team_id: query.team_id });
    }
    const page = await listUsers(deps.db, auth.project.id, {
      limit: query.limit,
      cursor: query.cursor ?? null,
      desc: query.desc === 'true',
      query: query.query?.trim() || null,
      teamId: query.team_id?.toLowerCase() ?? null,
    });
    return {
      items: page.items.map(serverUserView),
      is_paginated: true as const,
      pagination: { next_cursor: page.nextCursor },
    };
  },
});

const createUserRoute = defineRoute({
  method: 'POST',
  path: '/users',
  tag: 'users',
  summary: 'Creates a user, with a password, an imported bcrypt or argon2id hash, or no password.',
  access: 'server',
  body: createUserBody,
  answer: userViews,
  status: 201,
  errors: userWriteErrors,
  refusals: [400],
  handler: async (input) => {
    const { totp_secret_base64: totp, ...fields } = input.body;
    const { configSealer, passwords } = input.deps;
    const created = await createUser(
      requestContext(input),
      fields,
      passwords,
      totpSecretChange(configSealer, totp, 'server'),
    );
    return attachSelectedTeam(input.deps.db, created).then((row) => row!);
  },
});

/** `changes` with the normalized team id, leaving the field out when it was left out. */
function withTeam<T extends { selected_team_id?: string | null }>(changes: T, teamId: string | null | undefined): T {
  return teamId === undefined ? changes : { ...changes, selected_team_id: teamId };
}

/** A selected team id as stored: lower-case, `undefined` (unchanged) and `null` (none) kept. */
function normalTeamId(teamId: string | null | undefined): string | null | undefined {
  return typeof teamId === 'string' ? teamId.toLowerCase() : teamId;
}

const userParams = z.object({ userId: z.string().max(100) });
const notFound = () => new KnownError('USER_NOT_FOUND');

const getUserRoute = defineRoute({
  method: 'GET',
  path: '/users/:userId',
  tag: 'users',
  summary: 'A user of the project, in the server view.',
  access: 'server',
  params: userParams,
  answer: userViews,
  errors: ['USER_NOT_FOUND'],
  handler: async ({ auth, params, deps }) =>
    (await deps.users.get(auth.project.id, params.userId)) ?? throwError(notFound),
});

const updateUserRoute = defineRoute({
  method: 'PATCH',
  path: '/users/:userId',
  tag: 'users',
  summary: 'Changes any field a server may set; a new password signs the user out everywhere.',
  access: 'server',
  params: userParams,
  body: serverUserPatch,
  answer: userViews,
  errors: ['USER_NOT_FOUND', ...selectionErrors, ...userWriteErrors],
  refusals: [400],
  handler: async (input) => {
    const { auth, params, body, deps } = input;
    const { totp_secret_base64: totp, ...changes } = body;
    const user = (await findUser(deps.db, auth.project.id, params.userId)) ?? throwError(notFound);
    const teamId = normalTeamId(changes.selected_team_id);
    await checkSelectedTeam(deps.db, auth.project.id, user.id, teamId);
    const row = await updateUser(
      requestContext(input),
      user.id,
      withTeam(changes, teamId),
      deps.passwords,
      totpSecretChange(deps.configSealer, totp, 'server'),
    );
    return (await attachSelectedTeam(deps.db, row)) ?? throwError(notFound);
  },
});

const deleteUserRoute = defineRoute({
  method: 'DELETE',
  path: '/users/:userId',
  tag: 'users',
  summary: 'Deletes a user and their sessions.',
  access: 'server',
  params: userParams,
  answer: successAnswer,
  errors: ['USER_NOT_FOUND'],
  handler: async (input) => {
    if (!(await deleteUser(requestContext(input), input.params.userId))) throw notFound();
    return { success: true as const };
  },
});

function throwError(error: () => KnownError): never {
  throw error();
}

// The `/users/me` routes come first: `me` is not an id.
export const userRoutes: Route[] = [
  getCurrentUser,
  updateCurrentUser,
  deleteCurrentUser,
  listUsersRoute,
  createUserRoute,
  getUserRoute,
  updateUserRoute,
  deleteUserRoute,
];
