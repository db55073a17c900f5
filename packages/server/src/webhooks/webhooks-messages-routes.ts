/**
 * Webhook messages for a project's admins (Latchkey extension): an
 * endpoint's messages with their delivery state, each message's attempts,
 * a replay, and a test message. Endpoints themselves are managed by
 * `webhooks-routes.ts`.
 */
import { KnownError } from '@latchkey/protocol';
import { z } from 'zod';
import { badCursor, decodeCursor, encodeCursor } from '../common/cursor.js';
import { isUuid } from '../common/ids.js';
import { millis, paginatedList } from '../common/schemas.js';
import { requestContext } from '../events/recorder.js';
import { defineRoute, type Route } from '../http/route.js';
import type { Db } from '../storage/db.js';
import type {
  WebhookAttemptRow,
  WebhookEndpointRow,
  WebhookMessageRow,
  WebhookMessageStatus,
} from '../storage/schema.js';
import { findWebhookEndpoint } from './webhook-endpoint-store.js';
import { findWebhookMessage, listWebhookAttempts, listWebhookMessages } from './webhook-message-store.js';
import { webhookMessageId } from './webhook-worker.js';
import { replayMessage, sendTestMessage } from './webhooks-actions.js';

const messageSchema = z
  .object({
    id: z
      .string()
      .meta({ description: 'The `webhook-id` the message is sent with: `msg_…`, the same on every attempt.' }),
    event_type: z.string(),
    status: z.enum(['pending', 'sending', 'delivered', 'failed'] as const satisfies readonly WebhookMessageStatus[]),
    attempts: z.number().int(),
    next_attempt_at_millis: millis.nullable().meta({ description: 'When it is tried next; null once finished.' }),
    last_response_status: z.number().int().nullable(),
    last_error: z.string().nullable(),
    created_at_millis: millis,
    delivered_at_millis: millis.nullable(),
  })
  .meta({ id: 'WebhookMessage' });

const attemptSchema = z
  .object({
    id: z.string(),
    attempted_at_millis: millis,
    response_status: z.number().int().nullable(),
    latency_ms: z.number().int(),
    response_excerpt: z.string().nullable().meta({ description: 'The start of the answer (2 KiB at most).' }),
    error: z.string().nullable(),
  })
  .meta({ id: 'WebhookAttempt' });

function messageView(row: WebhookMessageRow): z.infer<typeof messageSchema> {
  const finished = row.status === 'delivered' || row.status === 'failed';
  return {
    id: webhookMessageId(row.id),
    event_type: row.event_type,
    status: row.status,
    attempts: row.attempts,
    next_attempt_at_millis: finished ? null : row.next_attempt_at.getTime(),
    last_response_status: row.last_response_status,
    last_error: row.last_error,
    created_at_millis: row.created_at.getTime(),
    delivered_at_millis: row.delivered_at?.getTime() ?? null,
  };
}

function attemptView(row: WebhookAttemptRow): z.infer<typeof attemptSchema> {
  return {
    id: row.id,
    attempted_at_millis: row.attempted_at.getTime(),
    response_status: row.response_status,
    latency_ms: row.latency_ms,
    response_excerpt: row.response_excerpt,
    error: row.error,
  };
}

const endpointParams = z.object({ endpointId: z.string().max(100) });
const messageParams = z.object({ messageId: z.string().max(100) });

/** The project's endpoint `id`, or WEBHOOK_ENDPOINT_NOT_FOUND. */
async function endpointOf(db: Db, projectId: string, id: string): Promise<WebhookEndpointRow> {
  const endpoint = isUuid(id) ? await findWebhookEndpoint(db, projectId, id.toLowerCase()) : null;
  if (!endpoint) throw new KnownError('WEBHOOK_ENDPOINT_NOT_FOUND', { endpoint_id: id });
  return endpoint;
}

/** The project's message `id` (`msg_…`, or the bare id), or WEBHOOK_MESSAGE_NOT_FOUND. */
async function messageOf(db: Db, projectId: string, id: string): Promise<WebhookMessageRow> {
  const message = await findWebhookMessage(db, projectId, id.replace(/^msg_/, ''));
  if (!message) throw new KnownError('WEBHOOK_MESSAGE_NOT_FOUND', { message_id: id });
  return message;
}

const listMessagesRoute = defineRoute({
  method: 'GET',
  path: '/webhooks/endpoints/:endpointId/messages',
  tag: 'webhooks',
  summary: "Latchkey extension: an endpoint's messages, newest first, with their delivery state.",
  access: 'admin',
  params: endpointParams,
  query: z.object({
    limit: z.coerce.number().int().min(1).max(200).default(50),
    cursor: z.string().max(300).optional().meta({ description: 'next_cursor of the previous page.' }),
  }),
  answer: paginatedList(messageSchema, 'WebhookMessageList'),
  errors: ['WEBHOOK_ENDPOINT_NOT_FOUND'],
  handler: async ({ auth, params, query, deps }) => {
    const endpoint = await endpointOf(deps.db, auth.project.id, params.endpointId);
    const scope = { endpoint: endpoint.id };
    let beforeSeq: string | null = null;
    if (query.cursor !== undefined) [beforeSeq] = decodeCursor(query.cursor, scope, 1) as [string];
    // Cursors are not signed: a forged one must still name a number.
    if (beforeSeq !== null && !/^\d{1,18}$/.test(beforeSeq)) throw badCursor();
    const rows = await listWebhookMessages(deps.db, {
      projectId: auth.project.id,
      endpointId: endpoint.id,
      beforeSeq,
      limit: query.limit + 1,
    });
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    return {
      items: page.map(messageView),
      is_paginated: true as const,
      pagination: { next_cursor: rows.length > query.limit && last ? encodeCursor([String(last.seq)], scope) : null },
    };
  },
});

const listAttemptsRoute = defineRoute({
  method: 'GET',
  path: '/webhooks/messages/:messageId/attempts',
  tag: 'webhooks',
  summary: "Latchkey extension: a message's delivery attempts, oldest first: status, latency, the answer's start.",
  access: 'admin',
  params: messageParams,
  answer: z.object({ items: z.array(attemptSchema) }).meta({ id: 'WebhookAttemptList' }),
  errors: ['WEBHOOK_MESSAGE_NOT_FOUND'],
  handler: async ({ auth, params, deps }) => {
    const message = await messageOf(deps.db, auth.project.id, params.messageId);
    return { items: (await listWebhookAttempts(deps.db, auth.project.id, message.id)).map(attemptView) };
  },
});

const replayRoute = defineRoute({
  method: 'POST',
  path: '/webhooks/messages/:messageId/replay',
  tag: 'webhooks',
  summary: 'Latchkey extension: sends a delivered or failed message again, now, with the same `webhook-id` and body.',
  access: 'admin',
  params: messageParams,
  body: z.strictObject({}).optional(),
  answer: messageSchema,
  errors: ['WEBHOOK_MESSAGE_NOT_FOUND'],
  handler: async (input) => {
    const { auth, params, deps } = input;
    const message = await messageOf(deps.db, auth.project.id, params.messageId);
    return messageView(await replayMessage(requestContext(input), message));
  },
});

const testRoute = defineRoute({
  method: 'POST',
  path: '/webhooks/endpoints/:endpointId/test',
  tag: 'webhooks',
  summary: 'Latchkey extension: queues a `webhook.test` message for the endpoint, delivered like any other.',
  access: 'admin',
  params: endpointParams,
  body: z.strictObject({}),
  answer: messageSchema,
  errors: ['WEBHOOK_ENDPOINT_NOT_FOUND'],
  handler: async (input) => {
    const { auth, params, deps } = input;
    const endpoint = await endpointOf(deps.db, auth.project.id, params.endpointId);
    return messageView(await sendTestMessage(requestContext(input), endpoint));
  },
});

export const webhookMessageRoutes: Route[] = [listMessagesRoute, listAttemptsRoute, replayRoute, testRoute];
