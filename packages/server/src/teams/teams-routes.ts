/**
 * Teams, memberships and member profiles (wire-protocol §14.3, §15.2, §15.3).
 *
 * Server and admin access act on any team of the project (TEAM_NOT_FOUND for
 * one that does not exist). A client acts as its user, and each action asks,
 * as the original backend, first that the user is a member of the team, then
 * for the permissions it needs there (`teamFor`), so no id a client sends
 * reaches another team's data:
 * - a team the client is not a member of, or one that does not exist, is
 *   TEAM_MEMBERSHIP_NOT_FOUND for every action; a member without the
 *   permission an action needs is TEAM_PERMISSION_REQUIRED;
 * - as on the original backend, with its plain refusals (wire-protocol §4.2):
 *   listing teams other than its own (or all), creating a team for another
 *   user, or creating one while the project has `client_team_creation_enabled`
 *   off (403); listing member profiles without a team (400); changing another
 *   member's profile (403); a signed-out client acting on a team is
 *   USER_AUTHENTICATION_REQUIRED;
 * - a client may change only its own team profile and may leave any team; it
 *   removes others with `$remove_members` and sees them with `$read_members`.
 * A member profile's empty name or picture shows the user's own (the profile
 * overrides them for that team only). An extension: callers who may read the
 * members (`$read_members`; server code always) also see each member's
 * primary e-mail and directly granted permissions (`primary_email`,
 * `permission_ids`), so a member without a name is still recognisable and
 * their roles are visible. A team's name may be empty, as on the
 * original backend.
 */
import { KnownError, systemTeamPermissions } from '@latchkey/protocol';
import { z } from 'zod';
import { isUuid } from '../common/ids.js';
import { clientImageUrl, idRef, imageUrl, metadata, successAnswer } from '../common/schemas.js';
import { requestContext } from '../events/recorder.js';
import type { RequestAuth } from '../http/env.js';
import { StatusRefusal } from '../http/responses.js';
import { defineRoute, defineViews, type Route } from '../http/route.js';
import { heldPermissions } from '../permissions/definition-store.js';
import { holdsPermission } from '../permissions/permission-store.js';
import type { Db } from '../storage/db.js';
import type { TeamRow } from '../storage/schema.js';
import { namesOwnUser, requireOwnList, resolveUser, userRefErrors } from '../users/user-ref.js';
import { attachSelectedTeams, findUser } from '../users/user-store.js';
import { serverUserSchema, serverUserView, type UserWithTeam } from '../users/user-views.js';
import { existingTeam, requireClientUser, teamAccessErrors, teamFor } from './team-access.js';
import {
  findMembership,
  listMemberProfiles,
  listTeams,
  type MemberProfileRow,
  type ProfileFilter,
} from './team-store.js';
import { clientTeamSchema, serverTeamSchema, teamViews } from './team-views.js';
import { addMember, createTeam, deleteTeam, removeMember, updateMemberProfile, updateTeam } from './teams-actions.js';

const { updateTeam: mayUpdate, deleteTeam: mayDelete, readMembers, removeMembers } = systemTeamPermissions;

const displayName = z.string().trim().max(256);

const teamParams = z.object({ teamId: idRef });
const memberParams = z.object({ teamId: idRef, userId: idRef });

const clientTeamFields = {
  display_name: displayName.optional(),
  profile_image_url: clientImageUrl.nullable().optional(),
  client_metadata: metadata.optional(),
};
const serverTeamFields = {
  ...clientTeamFields,
  profile_image_url: imageUrl.nullable().optional(),
  client_read_only_metadata: metadata.optional(),
  server_metadata: metadata.optional(),
};

const clientCreate = z.strictObject({
  ...clientTeamFields,
  display_name: displayName,
  creator_user_id: idRef.optional(),
});
const serverCreate = z.strictObject({
  ...serverTeamFields,
  display_name: displayName,
  creator_user_id: idRef.optional(),
});

const teamList = (team: z.ZodType, id: string) =>
  z.object({ items: z.array(team), is_paginated: z.literal(false) }).meta({ id });
const teamListViews = defineViews<TeamRow[]>({
  client: {
    schema: teamList(clientTeamSchema, 'ClientTeamList'),
    render: (rows, context) => listOf(rows.map((row) => teamViews.client.render(row, context))),
  },
  server: {
    schema: teamList(serverTeamSchema, 'ServerTeamList'),
    render: (rows, context) => listOf(rows.map((row) => teamViews.server!.render(row, context))),
  },
});

const listOf = <T>(items: T[]) => ({ items, is_paginated: false as const });

const listTeamsRoute = defineRoute({
  method: 'GET',
  path: '/teams',
  tag: 'teams',
  summary: "The teams of a user (`user_id`: `me` or an id), or with server access all the project's teams.",
  access: 'client',
  query: z.object({ user_id: idRef.optional() }),
  answer: teamListViews,
  errors: [...userRefErrors],
  refusals: [403],
  handler: async ({ auth, query, deps }) => {
    requireOwnList(
      auth,
      query.user_id,
      'Client can only list teams for their own user. user_id must be either "me" or the ID of the current user',
    );
    if (query.user_id === undefined) return listTeams(deps.db, auth.project.id, null);
    const user = await resolveUser(deps.db, auth, query.user_id);
    return listTeams(deps.db, auth.project.id, user.id);
  },
});

const createTeamRoute = defineRoute({
  method: 'POST',
  path: '/teams',
  tag: 'teams',
  summary: 'Creates a team; its creator (`me` for a client) becomes a member with the creator permissions.',
  access: 'client',
  body: { client: clientCreate, server: serverCreate },
  answer: teamViews,
  status: 201,
  errors: [...userRefErrors, 'USER_AUTHENTICATION_REQUIRED'],
  refusals: [403],
  handler: async (input) => {
    const { auth, body, deps } = input;
    const { creator_user_id: given, ...fields } = body as z.output<typeof serverCreate>;
    const client = auth.accessType === 'client';
    requireClientUser(auth);
    if (client && !auth.project.config.client_team_creation_enabled) {
      throw new StatusRefusal(403, 'Client team creation is disabled for this project');
    }
    if (client && given !== undefined && !namesOwnUser(auth, given)) {
      throw new StatusRefusal(
        403,
        "You cannot create a team as a user that is not yourself. Make sure you set the creator_user_id to 'me'.",
      );
    }
    // A client's team is always its own: without a creator it would have no member at all.
    const creatorRef = given ?? (client ? 'me' : undefined);
    const creator = creatorRef === undefined ? null : await resolveUser(deps.db, auth, creatorRef);
    return createTeam(requestContext(input), auth.project, fields, creator?.id ?? null);
  },
});

const getTeamRoute = defineRoute({
  method: 'GET',
  path: '/teams/:teamId',
  tag: 'teams',
  summary: 'One team; a client sees only the teams it is a member of.',
  access: 'client',
  params: teamParams,
  answer: teamViews,
  errors: [...teamAccessErrors, 'USER_AUTHENTICATION_REQUIRED'],
  handler: async ({ auth, params, deps }) => {
    requireClientUser(auth);
    return teamFor(deps.db, auth, params.teamId);
  },
});

const updateTeamRoute = defineRoute({
  method: 'PATCH',
  path: '/teams/:teamId',
  tag: 'teams',
  summary: "Changes a team's name, picture or metadata (a client needs `$update_team`).",
  access: 'client',
  params: teamParams,
  body: { client: z.strictObject(clientTeamFields), server: z.strictObject(serverTeamFields) },
  answer: teamViews,
  errors: [...teamAccessErrors, 'USER_AUTHENTICATION_REQUIRED'],
  handler: async (input) => {
    const { auth, params, body, deps } = input;
    requireClientUser(auth);
    const team = await teamFor(deps.db, auth, params.teamId, mayUpdate);
    const updated = await updateTeam(requestContext(input), team.id, body);
    if (!updated) throw new KnownError('TEAM_NOT_FOUND', { team_id: params.teamId });
    return updated;
  },
});

const deleteTeamRoute = defineRoute({
  method: 'DELETE',
  path: '/teams/:teamId',
  tag: 'teams',
  summary:
    'Deletes a team with its memberships, profiles, permissions and invitations (a client needs `$delete_team`).',
  access: 'client',
  params: teamParams,
  answer: successAnswer,
  errors: [...teamAccessErrors, 'USER_AUTHENTICATION_REQUIRED'],
  handler: async (input) => {
    const { auth, params, deps } = input;
    requireClientUser(auth);
    const team = await teamFor(deps.db, auth, params.teamId, mayDelete);
    if (!(await deleteTeam(requestContext(input), team.id))) {
      throw new KnownError('TEAM_NOT_FOUND', { team_id: params.teamId });
    }
    return { success: true as const };
  },
});

const membership = z.object({ team_id: z.uuid(), user_id: z.uuid() }).meta({ id: 'TeamMembership' });

const addMemberRoute = defineRoute({
  method: 'POST',
  path: '/team-memberships/:teamId/:userId',
  tag: 'teams',
  summary: "Adds a user to a team with the project's member permissions.",
  access: 'server',
  params: memberParams,
  answer: membership,
  status: 201,
  errors: ['TEAM_NOT_FOUND', 'USER_NOT_FOUND', 'TEAM_MEMBERSHIP_ALREADY_EXISTS', ...userRefErrors],
  handler: async (input) => {
    const { auth, params, deps } = input;
    const team = await existingTeam(deps.db, auth.project.id, params.teamId);
    const user = await resolveUser(deps.db, auth, params.userId);
    if (!(await addMember(requestContext(input), auth.project, team.id, user.id))) {
      throw new KnownError('TEAM_MEMBERSHIP_ALREADY_EXISTS');
    }
    return { team_id: team.id, user_id: user.id };
  },
});

const removeMemberRoute = defineRoute({
  method: 'DELETE',
  path: '/team-memberships/:teamId/:userId',
  tag: 'teams',
  summary: 'Removes a member (`me`: leaves the team); a client removing someone else needs `$remove_members`.',
  access: 'client',
  params: memberParams,
  answer: successAnswer,
  errors: [...teamAccessErrors, 'USER_NOT_FOUND'],
  handler: async (input) => {
    const { auth, params, deps } = input;
    const userId = namedUserId(auth, params.userId);
    const client = auth.accessType === 'client';
    if (client && userId !== auth.userId) await teamFor(deps.db, auth, params.teamId, removeMembers);
    const member = await existingMembership(deps.db, auth.project.id, params.teamId, userId);
    if (!(await removeMember(requestContext(input), member.team_id, member.user_id))) {
      throw new KnownError('TEAM_MEMBERSHIP_NOT_FOUND', { team_id: params.teamId, user_id: userId });
    }
    return { success: true as const };
  },
});

/**
 * The user a member route names: `me` (or the caller's own id) is the caller
 * (CANNOT_GET_OWN_USER_WITHOUT_USER signed out); any other ref as sent, for
 * `existingMembership` (after the permission checks) to find.
 */
function namedUserId(auth: RequestAuth, userRef: string): string {
  if (!namesOwnUser(auth, userRef)) return userRef.toLowerCase();
  if (!auth.userId) throw new KnownError('CANNOT_GET_OWN_USER_WITHOUT_USER');
  return auth.userId;
}

/**
 * The membership of a user in a team, as the original backend looks it up:
 * USER_NOT_FOUND for a user the project does not have, then
 * TEAM_MEMBERSHIP_NOT_FOUND (also for a team that does not exist).
 */
async function existingMembership(db: Db, projectId: string, teamId: string, userId: string) {
  if (!(await findUser(db, projectId, userId))) throw new KnownError('USER_NOT_FOUND');
  const member = await findMembership(db, projectId, teamId, userId);
  if (!member) throw new KnownError('TEAM_MEMBERSHIP_NOT_FOUND', { team_id: teamId, user_id: userId });
  return member;
}

const clientProfileSchema = z
  .object({
    team_id: z.uuid(),
    user_id: z.uuid(),
    display_name: z.string().nullable(),
    profile_image_url: z.string().nullable(),
    primary_email: z.string().nullable().optional().meta({
      description:
        "Latchkey extension: the member's primary e-mail address, for callers who may read the team's members (`$read_members`; server code always).",
    }),
    permission_ids: z.array(z.string()).optional().meta({
      description:
        'Latchkey extension: the permissions granted to the member in the team directly (their roles, without what those contain), for callers who may read the members.',
    }),
  })
  .strict()
  .meta({ id: 'ClientTeamMemberProfile' });
const serverProfileSchema = clientProfileSchema
  .extend({ user: serverUserSchema })
  .meta({ id: 'ServerTeamMemberProfile' });

/** What a caller who may read a team's members also sees of each (extensions). */
interface MemberDetails {
  primary_email: string | null;
  permission_ids: string[];
}

/** A profile as the views render it: its user carries the selected team; `details` only for readers of members. */
type ProfileWithTeam = MemberProfileRow & { user: UserWithTeam; details: MemberDetails | null };

/**
 * The profiles `filter` names, each user with their selected team, and with
 * `details` (for callers who may read the members) each member's primary
 * e-mail and directly granted permissions.
 */
async function profiles(
  db: Db,
  projectId: string,
  filter: ProfileFilter,
  details: boolean,
): Promise<ProfileWithTeam[]> {
  const rows = await listMemberProfiles(db, projectId, filter);
  const [users, grants] = await Promise.all([
    attachSelectedTeams(
      db,
      rows.map((row) => row.user),
    ),
    details && rows.length > 0
      ? heldPermissions(db, projectId, {
          teamId: filter.teamId ?? null,
          userId: filter.userId ?? null,
          permissionId: null,
          recursive: false,
        })
      : [],
  ]);
  const granted = new Map<string, string[]>();
  for (const grant of grants) {
    const key = `${grant.team_id}/${grant.user_id}`;
    granted.set(key, [...(granted.get(key) ?? []), grant.id]);
  }
  return rows.map((row, index) => ({
    ...row,
    user: users[index]!,
    details: details
      ? {
          primary_email: row.user.primary_email,
          permission_ids: granted.get(`${row.member.team_id}/${row.member.user_id}`) ?? [],
        }
      : null,
  }));
}

function clientProfileView({ member, user, details }: ProfileWithTeam) {
  return {
    team_id: member.team_id,
    user_id: member.user_id,
    display_name: member.display_name ?? user.display_name,
    profile_image_url: member.profile_image_url ?? user.profile_image_url,
    ...details,
  };
}

const profileViews = defineViews<ProfileWithTeam>({
  client: { schema: clientProfileSchema, render: clientProfileView },
  server: {
    schema: serverProfileSchema,
    render: (profile) => ({ ...clientProfileView(profile), user: serverUserView(profile.user) }),
  },
});
const profileListViews = defineViews<ProfileWithTeam[]>({
  client: {
    schema: z.object({ items: z.array(clientProfileSchema), is_paginated: z.literal(false) }),
    render: (rows, context) => listOf(rows.map((row) => profileViews.client.render(row, context))),
  },
  server: {
    schema: z.object({ items: z.array(serverProfileSchema), is_paginated: z.literal(false) }),
    render: (rows, context) => listOf(rows.map((row) => profileViews.server!.render(row, context))),
  },
});

/**
 * Whether the caller sees the members' details in `teamId`: server and admin
 * access always; a client when it holds `$read_members` there (`known`: it
 * was checked already).
 */
async function readsMemberDetails(db: Db, auth: RequestAuth, teamId: string, known = false): Promise<boolean> {
  if (auth.accessType !== 'client' || known) return true;
  return holdsPermission(db, { projectId: auth.project.id, teamId, userId: auth.userId! }, readMembers);
}

const listProfilesRoute = defineRoute({
  method: 'GET',
  path: '/team-member-profiles',
  tag: 'teams',
  summary:
    "Team member profiles of a team, or of a user (`me` or an id) in each team; a client names a team it is in, and needs `$read_members` for others' profiles.",
  access: 'client',
  query: z.object({ team_id: idRef.optional(), user_id: idRef.optional() }),
  answer: profileListViews,
  errors: [...teamAccessErrors, ...userRefErrors],
  refusals: [400],
  handler: async ({ auth, query, deps }) => {
    const projectId = auth.project.id;
    if (auth.accessType === 'client') {
      if (!auth.userId) throw new KnownError('CANNOT_GET_OWN_USER_WITHOUT_USER');
      if (query.team_id === undefined) throw new StatusRefusal(400, 'team_id is required for access type client');
      const userId = query.user_id === undefined ? undefined : namedUserId(auth, query.user_id);
      const others = userId !== auth.userId;
      const team = await teamFor(deps.db, auth, query.team_id, ...(others ? [readMembers] : []));
      if (userId !== undefined && !isUuid(userId)) return [];
      const details = await readsMemberDetails(deps.db, auth, team.id, others);
      return profiles(deps.db, projectId, { teamId: team.id, userId }, details);
    }
    const team = query.team_id === undefined ? null : await existingTeam(deps.db, projectId, query.team_id);
    const user = query.user_id === undefined ? null : await resolveUser(deps.db, auth, query.user_id);
    return profiles(deps.db, projectId, { teamId: team?.id, userId: user?.id }, true);
  },
});

/** The profile a route names; a client reads others' only with `$read_members`. */
async function memberProfile(db: Db, auth: RequestAuth, teamRef: string, userRef: string): Promise<ProfileWithTeam> {
  const userId = namedUserId(auth, userRef);
  const others = auth.accessType === 'client' && userId !== auth.userId;
  if (others) await teamFor(db, auth, teamRef, readMembers);
  const member = await existingMembership(db, auth.project.id, teamRef, userId);
  const details = await readsMemberDetails(db, auth, member.team_id, others);
  const [profile] = await profiles(db, auth.project.id, { teamId: member.team_id, userId: member.user_id }, details);
  if (!profile) throw new KnownError('TEAM_MEMBERSHIP_NOT_FOUND', { team_id: teamRef, user_id: userId });
  return profile;
}

const profileErrors = [...teamAccessErrors, 'USER_NOT_FOUND'] as const;

const getProfileRoute = defineRoute({
  method: 'GET',
  path: '/team-member-profiles/:teamId/:userId',
  tag: 'teams',
  summary: "A member's profile in a team (`me` allowed; a client reads others' with `$read_members`).",
  access: 'client',
  params: memberParams,
  answer: profileViews,
  errors: profileErrors,
  handler: ({ auth, params, deps }) => memberProfile(deps.db, auth, params.teamId, params.userId),
});

const profilePatch = z.strictObject({
  display_name: z.string().trim().max(256).nullable().optional(),
  profile_image_url: imageUrl.nullable().optional(),
});

const updateProfileRoute = defineRoute({
  method: 'PATCH',
  path: '/team-member-profiles/:teamId/:userId',
  tag: 'teams',
  summary: "Changes a member's name or picture in a team (a client changes only its own).",
  access: 'client',
  params: memberParams,
  body: profilePatch,
  answer: profileViews,
  errors: profileErrors,
  refusals: [403],
  handler: async (input) => {
    const { auth, params, body, deps } = input;
    const userId = namedUserId(auth, params.userId);
    if (auth.accessType === 'client' && userId !== auth.userId) {
      throw new StatusRefusal(403, "Cannot update another user's profile");
    }
    const member = await existingMembership(deps.db, auth.project.id, params.teamId, userId);
    const changes = { ...body, ...(body.display_name === '' ? { display_name: null } : {}) };
    if (!(await updateMemberProfile(requestContext(input), member.team_id, userId, changes))) {
      throw new KnownError('TEAM_MEMBERSHIP_NOT_FOUND', { team_id: params.teamId, user_id: userId });
    }
    return memberProfile(deps.db, auth, member.team_id, userId);
  },
});

export const teamRoutes: readonly Route[] = [
  listTeamsRoute,
  createTeamRoute,
  getTeamRoute,
  updateTeamRoute,
  deleteTeamRoute,
  addMemberRoute,
  removeMemberRoute,
  listProfilesRoute,
  getProfileRoute,
  updateProfileRoute,
];
