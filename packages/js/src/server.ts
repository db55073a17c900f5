/**
 * @latchkey/js/server: the SDK for server code. `ServerApp` acts with the
 * project's secret server key; `AdminApp` with the super secret admin key or
 * a project owner's session; `ProjectOwnerApp` lists and creates the projects
 * a dashboard user owns. `ServerApp` and `AdminApp` read the user of an
 * incoming request (`tokenStore: request`). Never import this entry in
 * browser code: the browser entry (`@latchkey/js`) holds none of it, and an
 * app built with a secret key in a browser throws. Each audience loads,
 * subscribes to and invalidates the queries exported here (`query.ts`).
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

export * from './admin.js';
export type { ServerEmailFlows } from './auth/server-email-flows.js';
export type { Access, AudienceScope, ServerScope } from './internal/audience.js';
export { ServerApp, type ServerAppModules, type ServerAppOptions } from './server-app.js';
export type { HeadersLike, RequestLike, RequestTokenStore } from './server-types.js';
export type {
  RequestAuthentication,
  RequestUserOptions,
  ServerUsers,
} from './users/server-users.js';
export {
  type ReceivedWebhook,
  verifyWebhook,
  type WebhookEvent,
  type WebhookEventData,
  type WebhookEventType,
  type WebhookObjectGone,
  WebhookVerificationError,
} from './webhooks/verify-webhook.js';
