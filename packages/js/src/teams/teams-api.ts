/**
 * Teams on the wire (wire-protocol.md §14.3–14.5, §15.2–15.4, §15.10): every
 * request the client and server team objects make, and the decoders of what
 * comes back. The team, member, invitation and permission objects of both
 * audiences are built on these.
 */
import type {
  ClientTeamMemberProfileWire,
  ClientTeamWire,
  Json,
  ServerTeamWire,
  TeamInvitationWire,
  TeamPermissionWire,
} from '@latchkey/protocol';
import type { Send } from '../internal/core.js';
import { type Fields, itemsOf, readFields } from '../internal/decode/fields.js';
import { definedFields } from '../internal/defined-fields.js';
import { ignoreAnswer } from '../users/users-api.js';

/**
 * Changes to a team; fields left out stay. The read-only and server metadata
 * are for server code only.
 *
 * @example
 * ```ts
 * await team.update({ displayName: 'Acme Inc.', clientMetadata: { plan: 'pro' } });
 * ```
 */
export interface TeamUpdate {
  displayName?: string;
  profileImageUrl?: string | null;
  clientMetadata?: Json;
  clientReadOnlyMetadata?: Json;
  serverMetadata?: Json;
}

/**
 * A new team: its name, and on the server who creates it (that user becomes
 * a member with the creator permissions; a client's team is always its own).
 *
 * @example
 * ```ts
 * await serverApp.createTeam({ displayName: 'Acme', creatorUserId: userId });
 * ```
 */
export interface TeamCreate extends TeamUpdate {
  displayName: string;
  creatorUserId?: string;
}

/**
 * A member's name and picture in one team (`null`: the user's own).
 *
 * @example
 * ```ts
 * const { displayName } = (await team.listUsers())[0].teamProfile;
 * ```
 */
export interface TeamMemberProfile {
  displayName: string | null;
  profileImageUrl: string | null;
}

/**
 * A pending invitation to a team.
 *
 * @example
 * ```ts
 * for (const invitation of await team.listInvitations()) console.log(invitation.recipientEmail, invitation.expiresAt);
 * ```
 */
export interface TeamInvitationData {
  id: string;
  teamId: string;
  recipientEmail: string;
  expiresAt: Date;
}

/**
 * A permission a user holds in a team.
 *
 * @example
 * ```ts
 * const ids = (await user.listPermissions(team)).map((permission: TeamPermission) => permission.id);
 * ```
 */
export interface TeamPermission {
  id: string;
}

/** A profile as the wire has it, with the user's id. */
export interface ProfileData<U = undefined> {
  userId: string;
  teamProfile: TeamMemberProfile;
  /** Latchkey extension, for members who may read the members: the primary e-mail (`null`: none, or not shown). */
  primaryEmail: string | null;
  /** Latchkey extension, for members who may read the members: the permissions granted directly (`[]`: not shown). */
  permissionIds: string[];
  /** The whole user (server access only). */
  user: U;
}

const teamPath = (id: string) => `/teams/${encodeURIComponent(id)}`;
const memberPath = (base: string, teamId: string, userRef: string) =>
  `${base}/${encodeURIComponent(teamId)}/${encodeURIComponent(userRef)}`;

function teamBody(team: TeamUpdate & { creatorUserId?: string }): Record<string, unknown> {
  return definedFields({
    display_name: team.displayName,
    profile_image_url: team.profileImageUrl,
    client_metadata: team.clientMetadata,
    client_read_only_metadata: team.clientReadOnlyMetadata,
    server_metadata: team.serverMetadata,
    creator_user_id: team.creatorUserId,
  });
}

/** `GET /teams?user_id=`: a user's teams (`me` for a client), or with `null` all of the project's. */
export function listTeams<T, W extends ClientTeamWire>(
  send: Send,
  userRef: string | null,
  read: (team: Fields<W>) => T,
): Promise<T[]> {
  const query = userRef === null ? {} : { user_id: userRef };
  return send({ method: 'GET', path: '/teams', query }, itemsOf(read));
}

/** `POST /teams`. */
export function createTeam<T, W extends ClientTeamWire>(
  send: Send,
  team: TeamCreate,
  read: (team: Fields<W>) => T,
): Promise<T> {
  return send({ method: 'POST', path: '/teams', body: teamBody(team) }, (body) => readFields(body, read));
}

/** `GET /teams/{id}` (server access). */
export function fetchTeam<T>(send: Send, id: string, read: (team: Fields<ServerTeamWire>) => T): Promise<T> {
  return send({ method: 'GET', path: teamPath(id) }, (body) => readFields(body, read));
}

/** `PATCH /teams/{id}`; the caller re-reads what it shows. */
export function updateTeam(send: Send, id: string, update: TeamUpdate): Promise<void> {
  return send({ method: 'PATCH', path: teamPath(id), body: teamBody(update) }, ignoreAnswer);
}

/** `DELETE /teams/{id}`. */
export function deleteTeam(send: Send, id: string): Promise<void> {
  return send({ method: 'DELETE', path: teamPath(id) }, ignoreAnswer);
}

/** `POST /team-memberships/{team}/{user}` (server access). */
export function addTeamMember(send: Send, teamId: string, userId: string): Promise<void> {
  return send({ method: 'POST', path: memberPath('/team-memberships', teamId, userId), body: {} }, ignoreAnswer);
}

/** `DELETE /team-memberships/{team}/{user or me}`. */
export function removeTeamMember(send: Send, teamId: string, userRef: string): Promise<void> {
  return send({ method: 'DELETE', path: memberPath('/team-memberships', teamId, userRef), body: {} }, ignoreAnswer);
}

/** Reads a member profile; `readUser` reads the server shape's `user`. */
function readProfile<U>(readUser: (profile: Fields<ClientTeamMemberProfileWire>) => U) {
  return (profile: Fields<ClientTeamMemberProfileWire>): ProfileData<U> => ({
    userId: profile.string('user_id'),
    teamProfile: {
      displayName: profile.stringOrNull('display_name'),
      profileImageUrl: profile.stringOrNull('profile_image_url'),
    },
    primaryEmail:
      profile.value<string | null | undefined>(
        'primary_email',
        (v) => v === null || typeof v === 'string',
        'a string or null',
        true,
      ) ?? null,
    permissionIds:
      profile.value<string[] | undefined>(
        'permission_ids',
        (v) => Array.isArray(v) && v.every((id) => typeof id === 'string'),
        'a list of strings',
        true,
      ) ?? [],
    user: readUser(profile),
  });
}

/** `GET /team-member-profiles?team_id=`: the team's members. */
export function listTeamMembers<U>(
  send: Send,
  teamId: string,
  readUser: (profile: Fields<ClientTeamMemberProfileWire>) => U,
): Promise<ProfileData<U>[]> {
  return send(
    { method: 'GET', path: '/team-member-profiles', query: { team_id: teamId } },
    itemsOf(readProfile(readUser)),
  );
}

/** `GET /team-member-profiles/{team}/{user or me}`. */
export function fetchTeamProfile(send: Send, teamId: string, userRef: string): Promise<ProfileData> {
  const read = readProfile(() => undefined);
  return send({ method: 'GET', path: memberPath('/team-member-profiles', teamId, userRef) }, (body) =>
    readFields(body, read),
  );
}

/** `PATCH /team-member-profiles/{team}/{user}`: the resolved user id, as the 2.7 SDK sends it. */
export function updateTeamProfile(
  send: Send,
  teamId: string,
  userId: string,
  profile: Partial<TeamMemberProfile>,
): Promise<void> {
  const body = definedFields({ display_name: profile.displayName, profile_image_url: profile.profileImageUrl });
  return send({ method: 'PATCH', path: memberPath('/team-member-profiles', teamId, userId), body }, ignoreAnswer);
}

/** `GET /team-permissions?team_id&user_id&recursive`: the ids a user holds in a team. */
export function listTeamPermissions(
  send: Send,
  teamId: string,
  userRef: string,
  recursive: boolean,
): Promise<TeamPermission[]> {
  const query = { team_id: teamId, user_id: userRef, recursive: String(recursive) };
  return send(
    { method: 'GET', path: '/team-permissions', query },
    itemsOf((permission: Fields<TeamPermissionWire>) => ({ id: permission.string('id') })),
  );
}

/** `POST` or `DELETE /team-permissions/{team}/{user}/{permission}` (server access; a member's with `$remove_members`). */
export function setTeamPermission(
  send: Send,
  granted: boolean,
  teamId: string,
  userId: string,
  permissionId: string,
): Promise<void> {
  const path = `${memberPath('/team-permissions', teamId, userId)}/${encodeURIComponent(permissionId)}`;
  return send({ method: granted ? 'POST' : 'DELETE', path, body: {} }, ignoreAnswer);
}

/** `POST /team-invitations/send-code`. */
export function inviteToTeam(send: Send, teamId: string, email: string, callbackUrl: string): Promise<void> {
  const body = { email, team_id: teamId, callback_url: callbackUrl };
  return send({ method: 'POST', path: '/team-invitations/send-code', body }, ignoreAnswer);
}

/** `GET /team-invitations?team_id=`: the pending invitations. */
export function listTeamInvitations(send: Send, teamId: string): Promise<TeamInvitationData[]> {
  return send(
    { method: 'GET', path: '/team-invitations', query: { team_id: teamId } },
    itemsOf((invitation: Fields<TeamInvitationWire>) => ({
      id: invitation.string('id'),
      teamId: invitation.string('team_id'),
      recipientEmail: invitation.string('recipient_email'),
      expiresAt: new Date(invitation.number('expires_at_millis')),
    })),
  );
}

/** `DELETE /team-invitations/{id}?team_id=`. */
export function revokeTeamInvitation(send: Send, teamId: string, id: string): Promise<void> {
  const path = `/team-invitations/${encodeURIComponent(id)}`;
  return send({ method: 'DELETE', path, query: { team_id: teamId } }, ignoreAnswer);
}
