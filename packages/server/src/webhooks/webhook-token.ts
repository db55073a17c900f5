/**
 * The webhook token (`POST /webhooks/svix-token`, wire-protocol §14.7): what
 * the 2.7 SDK's `getSvixToken` asks for, so that a page can manage a
 * project's webhooks without holding its admin key. Latchkey delivers
 * webhooks itself, so the token opens Latchkey's own webhook routes rather
 * than a Svix portal: an ES256 JWT signed with the project's key
 * (`AccessTokens.issueWebhookToken`), living an hour, sent as
 * `authorization: Bearer <token>` with `x-stack-access-type: admin` and the
 * project id. It counts as the project's admin key on the routes of the
 * `webhooks` tag but the one that issues tokens (a token cannot renew
 * itself), and nowhere else.
 */
import type { Route } from '../http/route.js';

/** The route that issues webhook tokens. */
export const svixTokenPath = '/webhooks/svix-token';

/** Whether a webhook token lets its holder call `route`. */
export function opensToWebhookToken(route: Pick<Route, 'tag' | 'path'>): boolean {
  return route.tag === 'webhooks' && route.path !== svixTokenPath;
}
