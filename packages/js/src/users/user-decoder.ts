/** The user entity (spec §3), decoded from its wire shape (wire-protocol.md §15.1). */
import type { ClientUserWire, Json, ServerUserWire } from '@latchkey/protocol';
import { asBaseFields, type Fields, readFields } from '../internal/decode/fields.js';
import { readClientTeam, readServerTeam, type ServerTeamData, type TeamData } from '../teams/team-decoder.js';

/**
 * An OAuth account connected to the user.
 *
 * @example
 * ```ts
 * const hasGitHub = user.oauthProviders.some((p: OAuthProviderLink) => p.id === 'github');
 * ```
 */
export interface OAuthProviderLink {
  /** Provider id, e.g. `github`. */
  id: string;
  accountId: string;
  email: string | null;
}

/**
 * The user's data as a client sees it (client view of spec §3).
 *
 * @example
 * ```ts
 * const user = await app.getUser({ or: 'throw' });
 * console.log(user.displayName ?? user.primaryEmail, user.signedUpAt.toISOString());
 * ```
 */
export interface UserData {
  id: string;
  displayName: string | null;
  primaryEmail: string | null;
  primaryEmailVerified: boolean;
  profileImageUrl: string | null;
  signedUpAt: Date;
  /** Any JSON value the user may change; `null` until set. */
  clientMetadata: Json;
  /** Any JSON value server code sets and the client reads; `null` until set. */
  clientReadOnlyMetadata: Json;
  hasPassword: boolean;
  emailAuthEnabled: boolean;
  otpAuthEnabled: boolean;
  oauthProviders: OAuthProviderLink[];
  passkeyAuthEnabled: boolean;
  isMultiFactorRequired: boolean;
  selectedTeam: TeamData | null;
}

/**
 * The user's data as server code sees it (server view of spec §3): the client
 * view plus the server's fields, with the selected team in its server view.
 *
 * @example
 * ```ts
 * const user = await serverApp.getUser(userId);
 * console.log(user?.lastActiveAt, user?.serverMetadata);
 * ```
 */
export interface ServerUserData extends UserData {
  selectedTeam: ServerTeamData | null;
  lastActiveAt: Date;
  /** Any JSON value only server code sees; `null` until set. */
  serverMetadata: Json;
  /** Whether the primary e-mail may be used to sign in (password, magic link). */
  primaryEmailAuthEnabled: boolean;
}

/** Reads the client view of a user; a server view adds its own fields to this. */
function readClientUser(user: Fields<ClientUserWire>): UserData {
  return {
    id: user.string('id'),
    displayName: user.stringOrNull('display_name'),
    primaryEmail: user.stringOrNull('primary_email'),
    primaryEmailVerified: user.boolean('primary_email_verified'),
    profileImageUrl: user.stringOrNull('profile_image_url'),
    signedUpAt: new Date(user.number('signed_up_at_millis')),
    clientMetadata: user.json('client_metadata'),
    clientReadOnlyMetadata: user.json('client_read_only_metadata'),
    hasPassword: user.boolean('has_password'),
    emailAuthEnabled: user.boolean('auth_with_email'),
    otpAuthEnabled: user.boolean('otp_auth_enabled'),
    oauthProviders: user.list('oauth_providers', (link) => ({
      id: link.string('id'),
      accountId: link.string('account_id'),
      email: link.stringOrNull('email'),
    })),
    passkeyAuthEnabled: user.boolean('passkey_auth_enabled'),
    isMultiFactorRequired: user.boolean('requires_totp_mfa'),
    selectedTeam: user.objectOrNull('selected_team', readClientTeam),
  };
}

/** Decodes a client user answer (`GET /users/me`). */
export function decodeClientUser(body: unknown): UserData {
  return readFields(body, readClientUser);
}

/** Reads the server view of a user: the client view plus the server's fields. */
export function readServerUser(user: Fields<ServerUserWire>): ServerUserData {
  return {
    ...readClientUser(asBaseFields<ClientUserWire, ServerUserWire>(user)),
    selectedTeam: user.objectOrNull('selected_team', readServerTeam),
    lastActiveAt: new Date(user.number('last_active_at_millis')),
    serverMetadata: user.json('server_metadata'),
    primaryEmailAuthEnabled: user.boolean('primary_email_auth_enabled'),
  };
}

/** Decodes a server user answer (`GET /users/{id}`, or `/users/me` with server access). */
export function decodeServerUser(body: unknown): ServerUserData {
  return readFields(body, readServerUser);
}

/**
 * The client view of `user` as plain data: the fields a client may see, with
 * the server's fields and any methods left out. What server code hands to a
 * page it renders (`ClientAppOptions.initialUser`), so no server metadata
 * reaches the browser.
 *
 * @example
 * ```ts
 * const user = await serverApp.getUser({ tokenStore: request });
 * const initialUser = user && clientUserData(user); // safe to serialise into the page
 * ```
 */
export function clientUserData(user: UserData): UserData {
  const team = user.selectedTeam;
  return {
    id: user.id,
    displayName: user.displayName,
    primaryEmail: user.primaryEmail,
    primaryEmailVerified: user.primaryEmailVerified,
    profileImageUrl: user.profileImageUrl,
    signedUpAt: user.signedUpAt,
    clientMetadata: user.clientMetadata,
    clientReadOnlyMetadata: user.clientReadOnlyMetadata,
    hasPassword: user.hasPassword,
    emailAuthEnabled: user.emailAuthEnabled,
    otpAuthEnabled: user.otpAuthEnabled,
    oauthProviders: user.oauthProviders.map(({ id, accountId, email }) => ({ id, accountId, email })),
    passkeyAuthEnabled: user.passkeyAuthEnabled,
    isMultiFactorRequired: user.isMultiFactorRequired,
    selectedTeam: team && {
      id: team.id,
      displayName: team.displayName,
      profileImageUrl: team.profileImageUrl,
      clientMetadata: team.clientMetadata,
      clientReadOnlyMetadata: team.clientReadOnlyMetadata,
    },
  };
}
