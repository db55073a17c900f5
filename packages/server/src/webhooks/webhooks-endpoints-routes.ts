/**
 * Webhook endpoints over the API (Latchkey extension), admin access only:
 * list, create (the signing secret in full, this once), read, change, delete
 * and rotate the secret; and `POST /webhooks/svix-token` (wire-protocol
 * §14.7), the webhook token the 2.7 SDK's `getSvixToken` asks for
 * (`webhook-token.ts`). Every id that names no endpoint of the caller's
 * project answers WEBHOOK_ENDPOINT_NOT_FOUND.
 */
import { isIP } from 'node:net';
import { KnownError } from '@latchkey/protocol';
import { z } from 'zod';
import { isUuid } from '../common/ids.js';
import { successAnswer } from '../common/schemas.js';
import { requestContext } from '../events/recorder.js';
import { defineRoute, type Route } from '../http/route.js';
import { isPublicAddress } from '../net/outbound-guard.js';
import type { WebhookEndpointRow } from '../storage/schema.js';
import { findWebhookEndpoint, listWebhookEndpoints } from './webhook-endpoint-store.js';
import { subscribableEventTypes } from './webhook-events.js';
import { svixTokenPath } from './webhook-token.js';
import {
  changeWebhookEndpoint,
  createWebhookEndpoint,
  noteWebhookTokenIssued,
  removeWebhookEndpoint,
  rotateWebhookSecret,
} from './webhooks-endpoints-actions.js';

const endpointSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string(),
    event_types: z
      .array(z.enum(subscribableEventTypes))
      .nullable()
      .meta({ description: 'The event types sent to the endpoint; null for every type.' }),
    enabled: z.boolean(),
    disabled_reason: z
      .string()
      .nullable()
      .meta({ description: 'Why the service turned the endpoint off (it kept failing); null otherwise.' }),
    created_at_millis: z.number(),
    updated_at_millis: z.number(),
  })
  .meta({ id: 'WebhookEndpoint' });

const endpointList = z
  .object({ items: z.array(endpointSchema), is_paginated: z.literal(false) })
  .meta({ id: 'WebhookEndpointList' });

const secret = z.string().meta({ description: 'The signing secret (`whsec_…`), shown this once.' });

const url = z
  .string()
  .max(2000)
  .meta({ description: 'Absolute https URL (http too when the service may reach private networks).' });
const description = z.string().max(500);
const eventTypes = z
  .array(z.enum(subscribableEventTypes))
  .min(1)
  .max(subscribableEventTypes.length)
  .nullable()
  .meta({ description: 'The event types to send; null (the default) for every type.' });

const createBody = z.strictObject({
  url,
  description: description.optional(),
  event_types: eventTypes.optional(),
  enabled: z.boolean().optional(),
});

const updateBody = z.strictObject({
  url: url.optional(),
  description: description.optional(),
  event_types: eventTypes.optional(),
  enabled: z.boolean().optional().meta({ description: 'true also clears `disabled_reason`.' }),
});

const endpointParams = z.object({ endpointId: z.string() });

/** The endpoint as the routes answer it: never its secret. */
function endpointView(row: WebhookEndpointRow): z.infer<typeof endpointSchema> {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    event_types: row.event_types as z.infer<typeof endpointSchema>['event_types'],
    enabled: row.enabled,
    disabled_reason: row.disabled_reason,
    created_at_millis: row.created_at.getTime(),
    updated_at_millis: row.updated_at.getTime(),
  };
}

/**
 * Why `text` cannot be an endpoint URL, or null: it must be absolute, https
 * (http too when the service may reach private networks), carry no
 * credentials, and name no private address literal unless that is allowed.
 * The address a name resolves to is checked again at each delivery.
 */
export function endpointUrlProblem(text: string, allowPrivateNetwork: boolean): string | null {
  let parsed: URL;
  try {
    parsed = new URL(text);
  } catch {
    return 'must be an absolute URL';
  }
  const schemes = allowPrivateNetwork ? ['https:', 'http:'] : ['https:'];
  if (!schemes.includes(parsed.protocol)) {
    return allowPrivateNetwork ? 'must be an http or https URL' : 'must be an https URL';
  }
  if (parsed.username || parsed.password) return 'must not carry a user name or password';
  if (parsed.hash) return 'must not have a fragment';
  const host = parsed.hostname.replace(/^\[|\]$/g, '');
  if (
    !allowPrivateNetwork &&
    (host === 'localhost' || host.endsWith('.localhost') || (isIP(host) !== 0 && !isPublicAddress(host)))
  ) {
    return 'must name a public host';
  }
  return null;
}

/** A URL the endpoint may use, or SCHEMA_ERROR. */
function checkedUrl(text: string, allowPrivateNetwork: boolean): string {
  const problem = endpointUrlProblem(text, allowPrivateNetwork);
  if (problem) throw new KnownError('SCHEMA_ERROR', { message: `body.url: ${problem}` });
  return text;
}

/** A subscription as stored: each type once, in the catalogue's order; null for every type. */
function subscription(types: readonly string[] | null): string[] | null {
  return types === null ? null : subscribableEventTypes.filter((type) => types.includes(type));
}

/** The endpoint id of the path, lower-cased, or WEBHOOK_ENDPOINT_NOT_FOUND for text that is no id at all. */
function endpointIdOf(id: string): string {
  if (!isUuid(id)) throw new KnownError('WEBHOOK_ENDPOINT_NOT_FOUND', { endpoint_id: id });
  return id.toLowerCase();
}

const notFound = (id: string) => new KnownError('WEBHOOK_ENDPOINT_NOT_FOUND', { endpoint_id: id });

const listEndpointsRoute = defineRoute({
  method: 'GET',
  path: '/webhooks/endpoints',
  tag: 'webhooks',
  summary: "Latchkey extension: the project's webhook endpoints, oldest first, without their secrets.",
  access: 'admin',
  answer: endpointList,
  errors: [],
  handler: async ({ auth, deps }) => ({
    items: (await listWebhookEndpoints(deps.db, auth.project.id)).map(endpointView),
    is_paginated: false as const,
  }),
});

const createEndpointRoute = defineRoute({
  method: 'POST',
  path: '/webhooks/endpoints',
  tag: 'webhooks',
  summary:
    'Latchkey extension: registers a webhook endpoint; the answer is the only one that shows its signing secret.',
  access: 'admin',
  body: createBody,
  answer: endpointSchema.extend({ secret }).meta({ id: 'WebhookEndpointFirstView' }),
  errors: ['WEBHOOK_ENDPOINT_LIMIT_REACHED'],
  handler: async (input) => {
    const { body, deps } = input;
    const created = await createWebhookEndpoint(requestContext(input), deps.webhookSealer, {
      url: checkedUrl(body.url, deps.outbound.allowPrivateNetwork),
      description: body.description ?? '',
      eventTypes: subscription(body.event_types ?? null),
      enabled: body.enabled ?? true,
    });
    return { ...endpointView(created.endpoint), secret: created.secret };
  },
});

const getEndpointRoute = defineRoute({
  method: 'GET',
  path: '/webhooks/endpoints/:endpointId',
  tag: 'webhooks',
  summary: 'Latchkey extension: one webhook endpoint of the project, without its secret.',
  access: 'admin',
  params: endpointParams,
  answer: endpointSchema,
  errors: ['WEBHOOK_ENDPOINT_NOT_FOUND'],
  handler: async ({ auth, params, deps }) => {
    const row = await findWebhookEndpoint(deps.db, auth.project.id, endpointIdOf(params.endpointId));
    if (!row) throw notFound(params.endpointId);
    return endpointView(row);
  },
});

const updateEndpointRoute = defineRoute({
  method: 'PATCH',
  path: '/webhooks/endpoints/:endpointId',
  tag: 'webhooks',
  summary:
    "Latchkey extension: changes a webhook endpoint's URL, description, event types or state; turning it on clears the reason the service turned it off.",
  access: 'admin',
  params: endpointParams,
  body: updateBody,
  answer: endpointSchema,
  errors: ['WEBHOOK_ENDPOINT_NOT_FOUND'],
  handler: async (input) => {
    const { params, body, deps } = input;
    const id = endpointIdOf(params.endpointId);
    const updated = await changeWebhookEndpoint(requestContext(input), id, {
      ...(body.url !== undefined ? { url: checkedUrl(body.url, deps.outbound.allowPrivateNetwork) } : {}),
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.event_types !== undefined ? { eventTypes: subscription(body.event_types) } : {}),
      ...(body.enabled !== undefined ? { enabled: body.enabled } : {}),
    });
    if (!updated) throw notFound(params.endpointId);
    return endpointView(updated);
  },
});

const deleteEndpointRoute = defineRoute({
  method: 'DELETE',
  path: '/webhooks/endpoints/:endpointId',
  tag: 'webhooks',
  summary: 'Latchkey extension: deletes a webhook endpoint, with its messages and their attempts.',
  access: 'admin',
  params: endpointParams,
  answer: successAnswer,
  errors: ['WEBHOOK_ENDPOINT_NOT_FOUND'],
  handler: async (input) => {
    const { params } = input;
    if (!(await removeWebhookEndpoint(requestContext(input), endpointIdOf(params.endpointId)))) {
      throw notFound(params.endpointId);
    }
    return { success: true as const };
  },
});

const rotateSecretRoute = defineRoute({
  method: 'POST',
  path: '/webhooks/endpoints/:endpointId/rotate-secret',
  tag: 'webhooks',
  summary:
    'Latchkey extension: gives a webhook endpoint a new signing secret (shown this once); the old one keeps signing beside it until `previous_secret_expires_at_millis`.',
  access: 'admin',
  params: endpointParams,
  answer: z.object({ secret, previous_secret_expires_at_millis: z.number() }).meta({ id: 'WebhookSecretRotation' }),
  errors: ['WEBHOOK_ENDPOINT_NOT_FOUND'],
  handler: async (input) => {
    const { params, deps } = input;
    const rotated = await rotateWebhookSecret(
      requestContext(input),
      deps.webhookSealer,
      endpointIdOf(params.endpointId),
    );
    if (!rotated) throw notFound(params.endpointId);
    return { secret: rotated.secret, previous_secret_expires_at_millis: rotated.previousExpiresAt };
  },
});

const svixTokenRoute = defineRoute({
  method: 'POST',
  path: svixTokenPath,
  tag: 'webhooks',
  summary:
    "A webhook token: for an hour, sent as `authorization: Bearer <token>` with `x-stack-access-type: admin` and the project id, it opens this project's other webhook routes, and no other route.",
  access: 'admin',
  answer: z.object({ token: z.string() }).meta({ id: 'WebhookToken' }),
  errors: [],
  handler: async (input) => {
    const { auth, deps } = input;
    await noteWebhookTokenIssued(requestContext(input));
    return { token: await deps.accessTokens.issueWebhookToken(auth.project.id, auth.actorId ?? null) };
  },
});

export const webhookEndpointRoutes: Route[] = [
  listEndpointsRoute,
  createEndpointRoute,
  getEndpointRoute,
  updateEndpointRoute,
  deleteEndpointRoute,
  rotateSecretRoute,
  svixTokenRoute,
];
