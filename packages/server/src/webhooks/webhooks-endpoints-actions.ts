/**
 * What changes webhook endpoints: create one (its secret shown this once),
 * change it, delete it, rotate its secret, and hand out a webhook token. Each
 * is an action (`events/recorder.ts`): the change and its audit event commit
 * together. Secrets are sealed before they reach the database and never
 * reach an event.
 */
import { randomUUID } from 'node:crypto';
import { KnownError } from '@latchkey/protocol';
import type { Sealer } from '../crypto/encryption.js';
import { type ActionContext, act, record } from '../events/recorder.js';
import { lockWebhookEndpoints } from '../storage/locks.js';
import type { WebhookEndpointRow } from '../storage/schema.js';
import {
  countWebhookEndpoints,
  deleteWebhookEndpoint,
  insertWebhookEndpoint,
  replaceWebhookSecret,
  updateWebhookEndpoint,
} from './webhook-endpoint-store.js';
import { wakeWebhookEndpointMessages } from './webhook-message-store.js';
import { newWebhookSecret, rotationOverlapMs, sealWebhookSecret } from './webhook-secrets.js';

/** Most endpoints one project may have. */
export const maxWebhookEndpointsPerProject = 20;

/** An endpoint to create. */
export interface WebhookEndpointInput {
  url: string;
  description: string;
  /** null: every event type. */
  eventTypes: readonly string[] | null;
  enabled: boolean;
}

/**
 * Creates an endpoint in the context's project, with a new secret: the row
 * and the secret in clear (shown once). WEBHOOK_ENDPOINT_LIMIT_REACHED when
 * the project has as many as allowed.
 */
export function createWebhookEndpoint(
  ctx: ActionContext,
  sealer: Sealer,
  input: WebhookEndpointInput,
): Promise<{ endpoint: WebhookEndpointRow; secret: string }> {
  return act(ctx, async (tx) => {
    // Counted under the project's lock: two creations at once cannot both take the last place.
    await lockWebhookEndpoints(tx.db, ctx.projectId);
    if ((await countWebhookEndpoints(tx.db, ctx.projectId)) >= maxWebhookEndpointsPerProject) {
      throw new KnownError('WEBHOOK_ENDPOINT_LIMIT_REACHED', { limit: maxWebhookEndpointsPerProject });
    }
    const id = randomUUID();
    const secret = newWebhookSecret();
    const endpoint = await insertWebhookEndpoint(tx.db, {
      id,
      projectId: ctx.projectId,
      ...input,
      secretSealed: sealWebhookSecret(sealer, id, secret),
      now: ctx.clock.now(),
    });
    await record(tx, 'webhook_endpoint.created', { userId: null, data: { endpoint_id: id } });
    return { endpoint, secret };
  });
}

/** What `changeWebhookEndpoint` may change; absent fields stay. */
export type WebhookEndpointUpdate = Partial<WebhookEndpointInput>;

/**
 * Changes the project's endpoint `id`: the row as it is now, or null when the
 * project has none such. Turning it on sends its waiting messages at once.
 */
export function changeWebhookEndpoint(
  ctx: ActionContext,
  id: string,
  update: WebhookEndpointUpdate,
): Promise<WebhookEndpointRow | null> {
  return act(ctx, async (tx) => {
    const endpoint = await updateWebhookEndpoint(tx.db, ctx.projectId, id, { ...update, now: ctx.clock.now() });
    if (!endpoint) return null;
    if (update.enabled === true) await wakeWebhookEndpointMessages(tx.db, endpoint.id, ctx.clock.now());
    const fields = Object.entries({
      url: update.url,
      description: update.description,
      event_types: update.eventTypes,
      enabled: update.enabled,
    }).flatMap(([field, value]) => (value === undefined ? [] : [field]));
    await record(tx, 'webhook_endpoint.updated', { userId: null, data: { endpoint_id: endpoint.id, fields } });
    return endpoint;
  });
}

/** Deletes the project's endpoint `id` with its messages; whether there was one. */
export function removeWebhookEndpoint(ctx: ActionContext, id: string): Promise<boolean> {
  return act(ctx, async (tx) => {
    const gone = await deleteWebhookEndpoint(tx.db, ctx.projectId, id);
    if (gone) await record(tx, 'webhook_endpoint.deleted', { userId: null, data: { endpoint_id: id } });
    return gone;
  });
}

/**
 * Gives the project's endpoint `id` a new secret (returned in clear, shown
 * once); the old one keeps signing beside it until `previousExpiresAt`.
 * Null when the project has no such endpoint.
 */
export function rotateWebhookSecret(
  ctx: ActionContext,
  sealer: Sealer,
  id: string,
): Promise<{ secret: string; previousExpiresAt: number } | null> {
  return act(ctx, async (tx) => {
    const secret = newWebhookSecret();
    const now = ctx.clock.now();
    const previousExpiresAt = now + rotationOverlapMs;
    const endpoint = await replaceWebhookSecret(tx.db, ctx.projectId, id, {
      sealed: sealWebhookSecret(sealer, id, secret),
      previousExpiresAt: new Date(previousExpiresAt),
      now,
    });
    if (!endpoint) return null;
    await record(tx, 'webhook_endpoint.secret_rotated', { userId: null, data: { endpoint_id: id } });
    return { secret, previousExpiresAt };
  });
}

/** Notes in the audit log that the caller took a webhook token (the token itself is made by the route). */
export function noteWebhookTokenIssued(ctx: ActionContext): Promise<void> {
  return act(ctx, (tx) => record(tx, 'webhook_token.issued', { userId: null }));
}
