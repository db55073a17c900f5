/**
 * Webhooks for administrators (Latchkey extension): the project's endpoints
 * (create one, its signing secret shown this once; list, read, change,
 * delete; rotate the secret), each endpoint's messages with their delivery
 * attempts, a replay, a test event, and the webhook token
 * (`POST /webhooks/svix-token`) a page can manage webhooks with instead of
 * the admin key. `AdminApp` mounts it. Receiving webhooks is
 * `verifyWebhook` (`verify-webhook.ts`).
 */
import {
  isKnownError,
  type WebhookAttemptWire,
  type WebhookEndpointFirstViewWire,
  type WebhookEndpointWire,
  type WebhookMessageWire,
  type WebhookSecretRotationWire,
} from '@latchkey/protocol';
import type { AdminScope, AudienceScope } from '../internal/audience.js';
import type { Send } from '../internal/core.js';
import { asBaseFields, type Fields, itemsOf, optionalObject, readFields } from '../internal/decode/fields.js';
import { definedFields } from '../internal/defined-fields.js';
import { everyItem } from '../internal/pagination.js';
import type { Query } from '../query.js';
import type { Page } from '../server-types.js';
import { ignoreAnswer } from '../users/users-api.js';

/**
 * A webhook endpoint: where the service POSTs the events it subscribes to.
 *
 * @example
 * ```ts
 * const off = (await adminApp.listWebhookEndpoints()).filter((endpoint: WebhookEndpoint) => !endpoint.enabled);
 * ```
 */
export interface WebhookEndpoint {
  id: string;
  url: string;
  description: string;
  /** The event types sent to it; `null` for every type. */
  eventTypes: string[] | null;
  enabled: boolean;
  /** Why the service turned it off (it kept failing); `null` otherwise. Enabling it clears this. */
  disabledReason: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/**
 * A new endpoint. `url` is https (http too on a service that may reach private networks).
 *
 * @example
 * ```ts
 * const options: CreateWebhookEndpointOptions = { url: 'https://api.example.com/hooks/latchkey', eventTypes: ['user.created'] };
 * ```
 */
export interface CreateWebhookEndpointOptions {
  url: string;
  description?: string;
  /** The event types to send; `null` or absent for every type. */
  eventTypes?: readonly string[] | null;
  /** Default true. */
  enabled?: boolean;
}

/**
 * What to change on an endpoint; absent fields stay.
 *
 * @example
 * ```ts
 * await adminApp.updateWebhookEndpoint(id, { enabled: true });
 * ```
 */
export type WebhookEndpointUpdate = Partial<CreateWebhookEndpointOptions>;

/**
 * Where a message's delivery is: waiting (or waiting to retry), being sent, delivered, or given up on.
 *
 * @example
 * ```ts
 * const done: WebhookMessageStatus[] = ['delivered', 'failed'];
 * ```
 */
export type WebhookMessageStatus = WebhookMessageWire['status'];

/**
 * One event sent (or to send) to an endpoint, and how its delivery went.
 *
 * @example
 * ```ts
 * const failed = (await adminApp.listWebhookMessages(endpointId)).items.filter((m: WebhookMessage) => m.status === 'failed');
 * ```
 */
export interface WebhookMessage {
  /** Also its `webhook-id`, the same at every attempt. */
  id: string;
  eventType: string;
  status: WebhookMessageStatus;
  attempts: number;
  /** When the next attempt is due; `null` when none is. */
  nextAttemptAt: Date | null;
  lastResponseStatus: number | null;
  lastError: string | null;
  createdAt: Date;
  deliveredAt: Date | null;
}

/**
 * One delivery attempt: the receiver's HTTP status, how long it took, the start of its answer, or the error.
 *
 * @example
 * ```ts
 * for (const attempt of await adminApp.listWebhookAttempts(messageId)) console.log(attempt.responseStatus, attempt.latencyMs);
 * ```
 */
export interface WebhookAttempt {
  id: string;
  attemptedAt: Date;
  responseStatus: number | null;
  latencyMs: number;
  responseExcerpt: string | null;
  error: string | null;
}

/**
 * What an administrator does with webhooks.
 *
 * @example
 * ```ts
 * const { secret, ...endpoint } = await adminApp.createWebhookEndpoint({ url: 'https://api.example.com/hooks' });
 * const page = await adminApp.listWebhookMessages(endpoint.id, { limit: 20 });
 * ```
 */
export interface WebhookAdministration {
  /** The project's endpoints, oldest first. */
  listWebhookEndpoints(): Promise<WebhookEndpoint[]>;
  /** Registers an endpoint; the answer is the only time its signing secret (`whsec_…`) is shown. */
  createWebhookEndpoint(options: CreateWebhookEndpointOptions): Promise<WebhookEndpoint & { secret: string }>;
  /** One endpoint; `null` when the project has none with this id. */
  getWebhookEndpoint(id: string): Promise<WebhookEndpoint | null>;
  /** Changes an endpoint (`WEBHOOK_ENDPOINT_NOT_FOUND` when the project has none with this id). */
  updateWebhookEndpoint(id: string, update: WebhookEndpointUpdate): Promise<WebhookEndpoint>;
  /** Deletes an endpoint with its messages. */
  deleteWebhookEndpoint(id: string): Promise<void>;
  /** A new signing secret (shown this once); the old one keeps signing beside it until `previousSecretExpiresAt`. */
  rotateWebhookSecret(id: string): Promise<{ secret: string; previousSecretExpiresAt: Date }>;
  /** One page of an endpoint's messages, newest first; pass `nextCursor` back as `cursor` for the next. */
  listWebhookMessages(endpointId: string, options?: { limit?: number; cursor?: string }): Promise<Page<WebhookMessage>>;
  /** Every message of an endpoint, newest first, fetching pages as they are consumed. */
  webhookMessages(endpointId: string): AsyncGenerator<WebhookMessage, void, undefined>;
  /** A message's delivery attempts. */
  listWebhookAttempts(messageId: string): Promise<WebhookAttempt[]>;
  /** Sends a message again, under the same `webhook-id`. */
  replayWebhookMessage(messageId: string): Promise<WebhookMessage>;
  /** Sends a test event to an endpoint. */
  sendTestWebhook(endpointId: string): Promise<WebhookMessage>;
  /**
   * A webhook token: for an hour, sent as `authorization: Bearer <token>`
   * with admin access type and the project id, it opens this project's
   * webhook routes and nothing else.
   */
  getSvixToken(): Promise<string>;
}

const endpointPath = (id: string) => `/webhooks/endpoints/${encodeURIComponent(id)}`;
const messagePath = (id: string) => `/webhooks/messages/${encodeURIComponent(id)}`;

/** The body of a create or update: wire names, absent fields left out, `null` kept. */
function endpointBody(options: WebhookEndpointUpdate) {
  return definedFields({
    url: options.url,
    description: options.description,
    event_types: options.eventTypes === undefined ? undefined : options.eventTypes && [...options.eventTypes],
    enabled: options.enabled,
  });
}

function readEndpoint(endpoint: Fields<WebhookEndpointWire>): WebhookEndpoint {
  return {
    id: endpoint.nonEmptyString('id'),
    url: endpoint.string('url'),
    description: endpoint.string('description'),
    eventTypes: endpoint.value<string[] | null>('event_types', isStringListOrNull, 'a list of strings or null'),
    enabled: endpoint.boolean('enabled'),
    disabledReason: endpoint.stringOrNull('disabled_reason'),
    createdAt: new Date(endpoint.number('created_at_millis')),
    updatedAt: new Date(endpoint.number('updated_at_millis')),
  };
}

/** Decodes one endpoint. */
const decodeWebhookEndpoint = (body: unknown): WebhookEndpoint => readFields(body, readEndpoint);

/** Decodes the answer of `POST /webhooks/endpoints`: the endpoint and its secret. */
function decodeWebhookEndpointFirstView(body: unknown): WebhookEndpoint & { secret: string } {
  return readFields<WebhookEndpointFirstViewWire, WebhookEndpoint & { secret: string }>(body, (endpoint) => ({
    ...readEndpoint(asBaseFields<WebhookEndpointWire, WebhookEndpointFirstViewWire>(endpoint)),
    secret: endpoint.nonEmptyString('secret'),
  }));
}

function readMessage(message: Fields<WebhookMessageWire>): WebhookMessage {
  return {
    id: message.nonEmptyString('id'),
    eventType: message.string('event_type'),
    status: message.value('status', isMessageStatus, 'a delivery status'),
    attempts: message.number('attempts'),
    nextAttemptAt: dateOrNull(message.value('next_attempt_at_millis', isMillisOrNull, 'a number or null')),
    lastResponseStatus: message.value('last_response_status', isMillisOrNull, 'a number or null'),
    lastError: message.stringOrNull('last_error'),
    createdAt: new Date(message.number('created_at_millis')),
    deliveredAt: dateOrNull(message.value('delivered_at_millis', isMillisOrNull, 'a number or null')),
  };
}

/** Decodes one message. */
const decodeWebhookMessage = (body: unknown): WebhookMessage => readFields(body, readMessage);

/** Decodes a page of `GET /webhooks/endpoints/{id}/messages`. */
function decodeWebhookMessagePage(body: unknown): Page<WebhookMessage> {
  return readFields<{ items: WebhookMessageWire[]; pagination?: { next_cursor: string | null } }, Page<WebhookMessage>>(
    body,
    (page) => ({
      items: page.list('items', readMessage),
      nextCursor: optionalObject(page, 'pagination', (p) => p.stringOrNull('next_cursor')) ?? null,
    }),
  );
}

/** Decodes the list of `GET /webhooks/messages/{id}/attempts`. */
const decodeWebhookAttempts = itemsOf<WebhookAttemptWire, WebhookAttempt>((attempt) => ({
  id: attempt.nonEmptyString('id'),
  attemptedAt: new Date(attempt.number('attempted_at_millis')),
  responseStatus: attempt.value('response_status', isMillisOrNull, 'a number or null'),
  latencyMs: attempt.number('latency_ms'),
  responseExcerpt: attempt.stringOrNull('response_excerpt'),
  error: attempt.stringOrNull('error'),
}));

function listWebhookEndpoints(send: Send): Promise<WebhookEndpoint[]> {
  return send({ method: 'GET', path: '/webhooks/endpoints' }, itemsOf(readEndpoint));
}

function listWebhookMessages(
  send: Send,
  endpointId: string,
  options: { limit?: number; cursor?: string } = {},
): Promise<Page<WebhookMessage>> {
  const query = { limit: options.limit?.toString(), cursor: options.cursor };
  return send({ method: 'GET', path: `${endpointPath(endpointId)}/messages`, query }, decodeWebhookMessagePage);
}

function listWebhookAttempts(send: Send, messageId: string): Promise<WebhookAttempt[]> {
  return send({ method: 'GET', path: `${messagePath(messageId)}/attempts` }, decodeWebhookAttempts);
}

/**
 * The project's webhook endpoints, oldest first, as a query of `AdminApp`;
 * every write of the app re-reads it while subscribed.
 *
 * @example
 * ```ts
 * const endpoints = await adminApp.load(webhookEndpointsQuery);
 * ```
 */
export const webhookEndpointsQuery: Query<WebhookEndpoint[], AdminScope> = {
  key: ['webhookEndpoints'],
  load: ({ send }) => listWebhookEndpoints(send),
};

/**
 * One page of an endpoint's messages, newest first, as a query of `AdminApp`.
 *
 * @example
 * ```ts
 * const page = await adminApp.load(webhookMessagesQuery(endpointId, { limit: 20 }));
 * ```
 */
export function webhookMessagesQuery(
  endpointId: string,
  options: { limit?: number; cursor?: string } = {},
): Query<Page<WebhookMessage>, AdminScope> {
  return {
    key: ['webhookMessages', endpointId, options.limit ?? null, options.cursor ?? null],
    load: ({ send }) => listWebhookMessages(send, endpointId, options),
  };
}

/**
 * A message's delivery attempts, oldest first, as a query of `AdminApp`
 * (a replay adds to them; the message's `attempts` counts from the replay).
 *
 * @example
 * ```ts
 * const attempts = await adminApp.load(webhookAttemptsQuery(messageId));
 * ```
 */
export function webhookAttemptsQuery(messageId: string): Query<WebhookAttempt[], AdminScope> {
  return { key: ['webhookAttempts', messageId], load: ({ send }) => listWebhookAttempts(send, messageId) };
}

/** Mounts the webhook module on an audience with admin access. */
export function webhookAdministration(scope: AudienceScope): WebhookAdministration {
  const { send } = scope;
  return {
    listWebhookEndpoints: () => listWebhookEndpoints(send),
    createWebhookEndpoint: (options) =>
      send(
        { method: 'POST', path: '/webhooks/endpoints', body: endpointBody(options) },
        decodeWebhookEndpointFirstView,
      ),
    async getWebhookEndpoint(id) {
      try {
        return await send({ method: 'GET', path: endpointPath(id) }, decodeWebhookEndpoint);
      } catch (error) {
        if (isKnownError(error, 'WEBHOOK_ENDPOINT_NOT_FOUND')) return null;
        throw error;
      }
    },
    updateWebhookEndpoint: (id, update) =>
      send({ method: 'PATCH', path: endpointPath(id), body: endpointBody(update) }, decodeWebhookEndpoint),
    deleteWebhookEndpoint: (id) => send({ method: 'DELETE', path: endpointPath(id) }, ignoreAnswer),
    rotateWebhookSecret: (id) =>
      send({ method: 'POST', path: `${endpointPath(id)}/rotate-secret`, body: {} }, (body) =>
        readFields<WebhookSecretRotationWire, { secret: string; previousSecretExpiresAt: Date }>(body, (answer) => ({
          secret: answer.nonEmptyString('secret'),
          previousSecretExpiresAt: new Date(answer.number('previous_secret_expires_at_millis')),
        })),
      ),
    listWebhookMessages: (endpointId, options) => listWebhookMessages(send, endpointId, options),
    webhookMessages: (endpointId) =>
      everyItem('webhookMessages', (cursor) => listWebhookMessages(send, endpointId, cursor ? { cursor } : {})),
    listWebhookAttempts: (messageId) => listWebhookAttempts(send, messageId),
    replayWebhookMessage: (messageId) =>
      send({ method: 'POST', path: `${messagePath(messageId)}/replay`, body: {} }, decodeWebhookMessage),
    sendTestWebhook: (endpointId) =>
      send({ method: 'POST', path: `${endpointPath(endpointId)}/test`, body: {} }, decodeWebhookMessage),
    getSvixToken: () =>
      send({ method: 'POST', path: '/webhooks/svix-token', body: {} }, (body) =>
        readFields<{ token: string }, string>(body, (answer) => answer.nonEmptyString('token')),
      ),
  };
}

const messageStatuses: readonly unknown[] = [
  'pending',
  'sending',
  'delivered',
  'failed',
] satisfies WebhookMessageStatus[];

function isMessageStatus(value: unknown): boolean {
  return messageStatuses.includes(value);
}

function isMillisOrNull(value: unknown): boolean {
  return value === null || Number.isFinite(value);
}

function isStringListOrNull(value: unknown): boolean {
  return value === null || (Array.isArray(value) && value.every((item) => typeof item === 'string'));
}

function dateOrNull(millis: number | null): Date | null {
  return millis === null ? null : new Date(millis);
}
