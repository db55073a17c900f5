/** Cookie names, key prefixes, handler routes and other names shared by the SDK and the service. */

/**
 * Cookie names of the browser token store (wire-protocol.md §8).
 *
 * @example
 * ```ts
 * cookieNames.refreshToken(projectId); // 'stack-refresh-<projectId>'
 * ```
 */
export const cookieNames = {
  refreshToken: (projectId: string) => `stack-refresh-${projectId}`,
  legacyRefreshToken: 'stack-refresh',
  accessToken: 'stack-access',
  isHttps: 'stack-is-https',
  oauthVerifier: (state: string) => `stack-oauth-outer-${state}`,
} as const;

/**
 * The refresh-token cookie mode, a Latchkey extension no Stack Auth SDK uses:
 * a service on the app's own origin keeps a browser session's refresh token
 * in an HttpOnly cookie (`refreshTokenCookie` of `createService`), and the
 * SDK's `tokenStore: 'httponly-cookie'` asks for it on every request with
 * this header, value `1`.
 *
 * @example
 * ```ts
 * const asks = request.headers.get(refreshCookieHeader) === '1';
 * ```
 */
export const refreshCookieHeader = 'x-latchkey-refresh-cookie';

/**
 * The form field of a refresh-token grant (`POST /auth/oauth/token`) by which
 * a client says it stores a rotated refresh token, value `1`: a Latchkey
 * extension no Stack Auth SDK sends. The service then rotates the token on
 * every refresh and answers the new one as `refresh_token`; without it (the
 * 2.7 protocol) the token never changes on a refresh.
 *
 * @example
 * ```ts
 * form.set(refreshRotationField, '1');
 * ```
 */
export const refreshRotationField = 'latchkey_refresh_rotation';

/**
 * Name of the service's HttpOnly refresh-token cookie in that mode; over
 * https the service prefixes it with `__Host-` (no sibling subdomain can set
 * a cookie of that name).
 *
 * @example
 * ```ts
 * refreshCookieName(projectId); // 'latchkey-refresh-<projectId>'
 * ```
 */
export const refreshCookieName = (projectId: string) => `latchkey-refresh-${projectId}`;

/**
 * Prefixes of the three API key kinds (wire-protocol.md §6).
 *
 * @example
 * ```ts
 * if (!key.startsWith(apiKeyPrefixes.publishableClientKey)) throw new Error('not a publishable key');
 * ```
 */
export const apiKeyPrefixes = {
  publishableClientKey: 'pck_',
  secretServerKey: 'ssk_',
  superSecretAdminKey: 'sak_',
} as const;

/**
 * Where the handler pages live by default (spec §2).
 *
 * @example
 * ```ts
 * const signIn = `${defaultHandlerPath}/sign-in`;
 * ```
 */
export const defaultHandlerPath = '/handler';

/**
 * The pages the handler serves, as path segments below the handler path (spec §2).
 *
 * @example
 * ```ts
 * handlerPages.includes('sign-in'); // true
 * ```
 */
export const handlerPages = [
  'sign-in',
  'sign-up',
  'sign-out',
  'email-verification',
  'password-reset',
  'forgot-password',
  'oauth-callback',
  'magic-link-callback',
  'account-settings',
  'error',
  'team-invitation',
] as const;
/**
 * One handler page.
 *
 * @example
 * ```ts
 * const page: HandlerPage = 'sign-up';
 * ```
 */
export type HandlerPage = (typeof handlerPages)[number];

/**
 * The query parameter that carries the page to return to after signing in.
 *
 * @example
 * ```ts
 * new URL(location.href).searchParams.get(afterAuthReturnToParam);
 * ```
 */
export const afterAuthReturnToParam = 'after_auth_return_to';

/**
 * Issuer (`iss`) of access tokens (wire-protocol.md §5.1).
 *
 * @example
 * ```ts
 * await jwtVerify(token, keys, { issuer: accessTokenIssuer });
 * ```
 */
export const accessTokenIssuer = 'https://access-token.jwt-signature.stack-auth.com';

/**
 * The id of the project that hosts dashboard users.
 *
 * @example
 * ```ts
 * const isDashboard = projectId === internalProjectId;
 * ```
 */
export const internalProjectId = 'internal';

/**
 * The team permissions every project has (wire-protocol §14.4): client team
 * actions need them. They are listed among the definitions and cannot be
 * changed or deleted.
 *
 * @example
 * ```ts
 * if (await user.hasPermission(team, systemTeamPermissions.inviteMembers)) showInviteForm();
 * ```
 */
export const systemTeamPermissions = {
  updateTeam: '$update_team',
  deleteTeam: '$delete_team',
  readMembers: '$read_members',
  removeMembers: '$remove_members',
  inviteMembers: '$invite_members',
} as const;

/** A system team permission id. */
export type SystemTeamPermission = (typeof systemTeamPermissions)[keyof typeof systemTeamPermissions];

/**
 * The OAuth provider presets: the ids of `config.oauth_providers` the service
 * knows the endpoints of (any other provider is an OpenID Connect issuer the
 * project names), in the order the service and dashboard list them. The
 * service's presets and the React provider marks are keyed by exactly these.
 *
 * @example
 * ```ts
 * const isPreset = (oauthProviderPresets as readonly string[]).includes('github'); // true
 * ```
 */
export const oauthProviderPresets = [
  'google',
  'github',
  'microsoft',
  'spotify',
  'facebook',
  'discord',
  'gitlab',
  'bitbucket',
  'linkedin',
  'apple',
  'x',
] as const;

/** One of the OAuth provider presets. */
export type OAuthProviderPreset = (typeof oauthProviderPresets)[number];
