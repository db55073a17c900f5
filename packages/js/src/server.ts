/**
 * @latchkey/js/server: the SDK for server code. `ServerApp` acts with the
 * project's secret server key; `AdminApp` with the super secret admin key or
 * a project owner's session. Both read the user of an incoming request
 * (`tokenStore: request`). Never import this entry in browser code: the
 * browser entry (`@latchkey/js`) holds none of it, and an app built with a
 * secret key in a browser throws.
 *
 * @example
 * ```ts
 * import { ServerApp } from '@latchkey/js/server';
 *
 * const serverApp = new ServerApp({ projectId, baseUrl, secretServerKey, publishableClientKey });
 * export async function loader({ request }: { request: Request }) {
 *   const user = await serverApp.getUser({ tokenStore: request });
 *   return { email: user?.primaryEmail ?? null };
 * }
 * ```
 */

export { ServerApp, type ServerAppModules, type ServerAppOptions } from './server-app.js';
export type { HeadersLike, Page, RequestLike, RequestTokenStore } from './server-types.js';
export type { CreateSessionOptions, SessionTokens, UserSessionData } from './sessions/sessions-api.js';
export type { ServerTeam } from './teams/team-decoder.js';
export type { ServerUser, UserSession } from './users/server-user.js';
export type { RequestUserOptions, ServerUsers } from './users/server-users.js';
export type { CreateUserOptions, ListUsersOptions, ServerUserUpdate } from './users/server-users-api.js';
export type { ServerUserData } from './users/user-decoder.js';
