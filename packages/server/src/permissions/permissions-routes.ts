/**
 * Team permissions and their definitions (wire-protocol §14.4, §15.4).
 *
 * Decisions where the protocol leaves room:
 * - `recursive` defaults to false, as on the original backend: the list
 *   names the permissions granted directly (the SDK always sends it). A
 *   client must name itself (`user_id=me`) and a team, and a team it is not
 *   in holds nothing for it (an empty list).
 * - Granting a permission already held answers as the first grant did;
 *   revoking one not granted directly is TEAM_PERMISSION_NOT_FOUND.
 * - A definition id already taken, a change that would close a cycle, and
 *   any change to one of the five system permissions are SCHEMA_ERROR with a
 *   message that says which: the catalogue has no code of its own for them,
 *   and they are all requests for a state the graph may not be in.
 * - Definition writes of a project run one after another (a transaction-
 *   scoped advisory lock), so two changes cannot together close a cycle.
 * - An extension: a client grants and revokes a member's permissions when
 *   it holds `$remove_members` and the permission itself (`memberToChange`).
 * - Renaming or deleting a definition renames or removes it in the project's
 *   default lists too, in the same transaction (grants and containments
 *   follow through the foreign keys).
 */
import { KnownError, systemTeamPermissions } from '@latchkey/protocol';
import { z } from 'zod';
import { isUuid } from '../common/ids.js';
import { idRef, successAnswer } from '../common/schemas.js';
import { requestContext } from '../events/recorder.js';
import type { RequestAuth } from '../http/env.js';
import { defineRoute, type Route } from '../http/route.js';
import type { Db } from '../storage/db.js';
import { existingTeam, teamAccessErrors, teamFor } from '../teams/team-access.js';
import { findMembership, findTeam } from '../teams/team-store.js';
import { namesOwnUser, requireOwnList, resolveUser, userRefErrors } from '../users/user-ref.js';
import { findDefinition, heldPermissions, listDefinitions } from './definition-store.js';
import { heldPermissionIds, holdsPermission, type MemberRef } from './permission-store.js';
import {
  createDefinition,
  deleteDefinition,
  grantPermission,
  revokePermission,
  updateDefinition,
} from './permissions-actions.js';

/** A custom permission id: lowercase letters, digits, `_` and `:` (wire-protocol §14.4). */
const permissionId = z
  .string()
  .min(1)
  .max(100)
  .regex(/^[a-z0-9_:]+$/, { error: 'may hold only lowercase letters, digits, "_" and ":"' });
/** A permission named by a request: a custom id or a system one. */
const anyPermissionId = z.string().min(1).max(100);

const permissionSchema = z
  .object({ id: z.string(), user_id: z.uuid(), team_id: z.uuid() })
  .strict()
  .meta({ id: 'TeamPermission' });
const definitionSchema = z
  .object({ id: z.string(), description: z.string().optional(), contained_permission_ids: z.array(z.string()) })
  .strict()
  .meta({ id: 'TeamPermissionDefinition' });

const listOf = <T extends z.ZodType>(item: T) => z.object({ items: z.array(item), is_paginated: z.literal(false) });

const schemaError = (message: string) => new KnownError('SCHEMA_ERROR', { message });

const listPermissionsRoute = defineRoute({
  method: 'GET',
  path: '/team-permissions',
  tag: 'permissions',
  summary:
    'The permissions granted to users in teams; `recursive=true` adds every permission they contain. A client lists its own in one team.',
  access: 'client',
  query: z.object({
    team_id: idRef.optional(),
    user_id: idRef.optional(),
    permission_id: anyPermissionId.optional(),
    recursive: z.enum(['true', 'false']).default('false'),
  }),
  answer: listOf(permissionSchema).meta({ id: 'TeamPermissionList' }),
  errors: ['TEAM_NOT_FOUND', ...userRefErrors],
  refusals: [403],
  handler: async ({ auth, query, deps }) => {
    const projectId = auth.project.id;
    requireOwnList(
      auth,
      query.user_id,
      'Client can only list permissions for their own user. user_id must be either "me" or the ID of the current user',
    );
    if (auth.accessType === 'client' && query.team_id === undefined) {
      throw schemaError('query.team_id: required with client access');
    }
    // The team and the user are looked up side by side (two pooled connections on PostgreSQL).
    const [team, user] = await Promise.all([
      query.team_id === undefined ? null : findTeam(deps.db, projectId, query.team_id),
      query.user_id === undefined ? null : resolveUser(deps.db, auth, query.user_id),
    ]);
    if (query.team_id !== undefined && !team) throw new KnownError('TEAM_NOT_FOUND', { team_id: query.team_id });
    if (team && user) {
      // One member in one team (every client call): the narrower query.
      const ids = await heldPermissionIds(
        deps.db,
        { projectId, teamId: team.id, userId: user.id },
        query.recursive === 'true',
      );
      const items = ids
        .filter((id) => query.permission_id === undefined || id === query.permission_id)
        .map((id) => ({ id, user_id: user.id, team_id: team.id }));
      return { items, is_paginated: false as const };
    }
    const items = await heldPermissions(deps.db, projectId, {
      teamId: team?.id ?? null,
      userId: user?.id ?? null,
      permissionId: query.permission_id ?? null,
      recursive: query.recursive === 'true',
    });
    return { items, is_paginated: false as const };
  },
});

const grantParams = z.object({ teamId: idRef, userId: idRef, permissionId: anyPermissionId });

/** The team, user and membership a server grant route names, or the known error that says which is missing. */
async function memberOf(
  db: Db,
  projectId: string,
  params: z.output<typeof grantParams>,
  auth: Parameters<typeof resolveUser>[1],
) {
  const team = await existingTeam(db, projectId, params.teamId);
  const user = await resolveUser(db, auth, params.userId);
  if (!(await findMembership(db, projectId, team.id, user.id))) {
    throw new KnownError('TEAM_MEMBERSHIP_NOT_FOUND', { team_id: team.id, user_id: user.id });
  }
  return { projectId, teamId: team.id, userId: user.id };
}

/**
 * The member a grant route names, with the caller's right to change what
 * they hold checked. Server and admin access: `memberOf`. A client (an
 * extension; the original backend grants from server code only) must be a
 * member of the team holding `$remove_members` (`teamFor`), which lets it
 * take a member out anyway, and must hold the permission itself, directly or
 * through containment, so no member hands out more than they have
 * (TEAM_PERMISSION_REQUIRED naming it); the other user must be a member
 * (TEAM_MEMBERSHIP_NOT_FOUND).
 */
async function memberToChange(db: Db, auth: RequestAuth, params: z.output<typeof grantParams>): Promise<MemberRef> {
  const projectId = auth.project.id;
  if (auth.accessType !== 'client') return memberOf(db, projectId, params, auth);
  const team = await teamFor(db, auth, params.teamId, systemTeamPermissions.removeMembers);
  const caller = { projectId, teamId: team.id, userId: auth.userId! };
  if (!(await holdsPermission(db, caller, params.permissionId))) {
    throw new KnownError('TEAM_PERMISSION_REQUIRED', { ...idsOf(caller), permission_id: params.permissionId });
  }
  const userId = namesOwnUser(auth, params.userId) ? caller.userId : params.userId.toLowerCase();
  if (!isUuid(userId) || !(await findMembership(db, projectId, team.id, userId))) {
    throw new KnownError('TEAM_MEMBERSHIP_NOT_FOUND', { team_id: team.id, user_id: userId });
  }
  return { projectId, teamId: team.id, userId };
}

const idsOf = (member: MemberRef) => ({ team_id: member.teamId, user_id: member.userId });

const grantErrors = [...teamAccessErrors, 'INSUFFICIENT_ACCESS_TYPE', 'USER_NOT_FOUND'] as const;

const grantRoute = defineRoute({
  method: 'POST',
  path: '/team-permissions/:teamId/:userId/:permissionId',
  tag: 'permissions',
  summary:
    'Grants a member a permission in a team. Latchkey extension: a client may, holding `$remove_members` and the permission itself.',
  access: 'client',
  params: grantParams,
  answer: permissionSchema,
  status: 201,
  errors: [...grantErrors, 'PERMISSION_NOT_FOUND'],
  handler: async (input) => {
    const { auth, params, deps } = input;
    const member = await memberToChange(deps.db, auth, params);
    if (!(await findDefinition(deps.db, auth.project.id, params.permissionId))) {
      throw new KnownError('PERMISSION_NOT_FOUND', { permission_id: params.permissionId });
    }
    await grantPermission(requestContext(input), member, params.permissionId);
    return { id: params.permissionId, ...idsOf(member) };
  },
});

const revokeRoute = defineRoute({
  method: 'DELETE',
  path: '/team-permissions/:teamId/:userId/:permissionId',
  tag: 'permissions',
  summary:
    'Revokes a permission granted directly to a member (what it contains goes with it). Latchkey extension: a client may, holding `$remove_members` and the permission itself.',
  access: 'client',
  params: grantParams,
  answer: successAnswer,
  errors: [...grantErrors, 'TEAM_PERMISSION_NOT_FOUND'],
  handler: async (input) => {
    const { auth, params, deps } = input;
    const member = await memberToChange(deps.db, auth, params);
    const revoked = await revokePermission(requestContext(input), member, params.permissionId);
    if (!revoked) {
      throw new KnownError('TEAM_PERMISSION_NOT_FOUND', { ...idsOf(member), permission_id: params.permissionId });
    }
    return { success: true as const };
  },
});

const listDefinitionsRoute = defineRoute({
  method: 'GET',
  path: '/team-permission-definitions',
  tag: 'permissions',
  summary: "The project's permission definitions, the five system permissions first.",
  access: 'admin',
  answer: listOf(definitionSchema).meta({ id: 'TeamPermissionDefinitionList' }),
  errors: [],
  handler: async ({ auth, deps }) => ({
    items: await listDefinitions(deps.db, auth.project.id),
    is_paginated: false as const,
  }),
});

const containedIds = z.array(anyPermissionId).max(100);

const createDefinitionRoute = defineRoute({
  method: 'POST',
  path: '/team-permission-definitions',
  tag: 'permissions',
  summary: 'Defines a permission, optionally containing others (system permissions included).',
  access: 'admin',
  body: z.strictObject({
    id: permissionId,
    description: z.string().max(1000).optional(),
    contained_permission_ids: containedIds.default([]),
  }),
  answer: definitionSchema,
  status: 201,
  errors: ['CONTAINED_PERMISSION_NOT_FOUND'],
  handler: async (input) => {
    const { body } = input;
    const contained = [...new Set(body.contained_permission_ids)];
    await createDefinition(requestContext(input), { id: body.id, description: body.description ?? null, contained });
    return definitionView(body.id, body.description ?? null, contained);
  },
});

function definitionView(id: string, description: string | null, contained: string[]) {
  return { id, ...(description === null ? {} : { description }), contained_permission_ids: [...contained].sort() };
}

const definitionParams = z.object({ permissionId: anyPermissionId });

const updateDefinitionRoute = defineRoute({
  method: 'PATCH',
  path: '/team-permission-definitions/:permissionId',
  tag: 'permissions',
  summary: 'Renames a permission, changes its description or replaces what it contains (never closing a cycle).',
  access: 'admin',
  params: definitionParams,
  body: z.strictObject({
    id: permissionId.optional(),
    description: z.string().max(1000).optional(),
    contained_permission_ids: containedIds.optional(),
  }),
  answer: definitionSchema,
  errors: ['PERMISSION_NOT_FOUND', 'CONTAINED_PERMISSION_NOT_FOUND'],
  handler: async (input) => {
    const { auth, params, body, deps } = input;
    const id = await updateDefinition(requestContext(input), params.permissionId, body);
    const [definition] = (await listDefinitions(deps.db, auth.project.id)).filter((entry) => entry.id === id);
    return definition!;
  },
});

const deleteDefinitionRoute = defineRoute({
  method: 'DELETE',
  path: '/team-permission-definitions/:permissionId',
  tag: 'permissions',
  summary: 'Deletes a permission with its grants, its place in other definitions and in the default lists.',
  access: 'admin',
  params: definitionParams,
  answer: successAnswer,
  errors: ['PERMISSION_NOT_FOUND'],
  handler: async (input) => {
    await deleteDefinition(requestContext(input), input.params.permissionId);
    return { success: true as const };
  },
});

export const permissionRoutes: readonly Route[] = [
  listPermissionsRoute,
  grantRoute,
  revokeRoute,
  listDefinitionsRoute,
  createDefinitionRoute,
  updateDefinitionRoute,
  deleteDefinitionRoute,
];
