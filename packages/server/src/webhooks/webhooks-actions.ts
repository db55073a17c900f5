/** The changes an admin makes to webhook messages: a replay, a test message. */
import type { ActionContext } from '../events/recorder.js';
import { act } from '../events/recorder.js';
import type { WebhookEndpointRow, WebhookMessageRow } from '../storage/schema.js';
import { insertWebhookMessage, replayWebhookMessage } from './webhook-message-store.js';

/**
 * Makes a delivered or failed message due again now: the same id (so the same
 * `webhook-id`) and the same body; a message still being delivered is left
 * as it is.
 */
export function replayMessage(ctx: ActionContext, message: WebhookMessageRow): Promise<WebhookMessageRow> {
  return act(ctx, (tx) => replayWebhookMessage(tx.db, message, tx.clock.now()));
}

/** Queues a `webhook.test` message for `endpoint`, delivered like any other. */
export function sendTestMessage(ctx: ActionContext, endpoint: WebhookEndpointRow): Promise<WebhookMessageRow> {
  return act(ctx, (tx) => {
    const now = tx.clock.now();
    return insertWebhookMessage(tx.db, {
      projectId: endpoint.project_id,
      endpointId: endpoint.id,
      type: 'webhook.test',
      payload: { type: 'webhook.test', timestamp: new Date(now).toISOString(), data: { endpoint_id: endpoint.id } },
      now,
    });
  });
}
