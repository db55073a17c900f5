/**
 * @latchkey/js: the Latchkey SDK for browsers and Node.
 *
 * @example
 * ```ts
 * import { ClientApp, isKnownError } from '@latchkey/js';
 *
 * const app = new ClientApp({ projectId, publishableClientKey, baseUrl, tokenStore: 'cookie' });
 * try {
 *   await app.signInWithCredential({ email, password });
 * } catch (e) {
 *   if (isKnownError(e, 'EMAIL_PASSWORD_MISMATCH')) showError(e.message);
 * }
 * ```
 */

/**
 * The protocol's error class and guard, re-exported so apps need one import.
 *
 * @example
 * ```ts
 * catch (e) { if (isKnownError(e, 'USER_EMAIL_ALREADY_EXISTS')) setError('Taken'); }
 * ```
 */
export { isKnownError, KnownError, UnknownKnownErrorCode } from '@latchkey/protocol';
export type { ClientEmailFlows } from './auth/client-email-flows.js';
export type { HandlerRedirects, SignInResult } from './auth/client-sign-in.js';
export {
  type MfaActions,
  type MfaProof,
  type MfaRedirect,
  type MfaSignIn,
  type MfaSignInOptions,
  type MultiFactorAttempt,
  multiFactorAttempt,
  type TotpEnrolment,
} from './auth/mfa-auth.js';
export type {
  ConnectedAccountActions,
  GetConnectedAccountOptions,
  LinkConnectedAccountOptions,
  OAuthSignIn,
} from './auth/oauth-auth.js';
export {
  type Passkey,
  type PasskeyActions,
  type PasskeyData,
  type PasskeySignIn,
  type PasskeySignInOptions,
  passkeysQuery,
} from './auth/passkey-auth.js';
export type {
  CredentialAuth,
  CredentialSignInOptions,
  CredentialSignUpOptions,
  PasswordActions,
} from './auth/password-auth.js';
export { ClientApp, type ClientAppModules, type ClientAppOptions } from './client-app.js';
export type { AppData, AppDataKey, ClientAppData } from './client-app-data.js';
export {
  type ContactChannel,
  type ContactChannelActions,
  contactChannelsQuery,
} from './contact-channels/contact-channel.js';
export type {
  ContactChannelCreate,
  ContactChannelData,
  ContactChannelUpdate,
} from './contact-channels/contact-channels-api.js';
export { ConnectivityError, HttpError, MalformedAnswerError, RateLimitedError } from './errors.js';
export type { Clock, FetchFunction, Timers, TokenStoreOption } from './options.js';
export type { EnabledOAuthProvider, Project } from './projects/project-decoder.js';
export { projectQuery } from './projects/projects-api.js';
export type { Query, QueryAccess, QueryKey } from './query.js';
export {
  type SecurityEvent,
  type SessionActions,
  securityActivityQuery,
  sessionsQuery,
} from './sessions/own-sessions.js';
export type { UserSession, UserSessionData } from './sessions/sessions-api.js';
export type { TeamInvitationCodes, TeamInvitationDetails } from './teams/invitation-codes.js';
export {
  type EditableTeamMemberProfile,
  type Team,
  type TeamActions,
  type TeamInvitation,
  type TeamUser,
  teamInvitationsQuery,
  teamMembersQuery,
  teamsQuery,
} from './teams/team.js';
export type { ServerTeamData, TeamData } from './teams/team-decoder.js';
export { type TeamPermissionQueries, type TeamRef, teamPermissionsQuery } from './teams/team-permissions.js';
export type {
  TeamCreate,
  TeamInvitationData,
  TeamMemberProfile,
  TeamPermission,
  TeamUpdate,
} from './teams/teams-api.js';
export { type HandlerUrls, resolveUrls, sameOriginPath } from './urls.js';
export type { ClientQuery, ClientScope } from './users/account-data.js';
export type {
  ConnectedAccount,
  ConnectedAccountOptions,
  ConnectedAccountQueries,
} from './users/connected-accounts.js';
export {
  type CurrentUser,
  type CurrentUserAccess,
  connectedAccountQuery,
  connectedAccountsQuery,
  currentUserQuery,
  type GetUserOr,
  type ProfileActions,
  type SignOutOptions,
  type UserTokens,
} from './users/current-user.js';
export { clientUserData, type OAuthProviderLink, type UserData } from './users/user-decoder.js';
export type { UserUpdate } from './users/users-api.js';
export { sdkVersion } from './version.js';
