/**
 * API key sets over the API (wire-protocol §6, §14.7), admin access only:
 * list, create (the keys in full, this once), read, and update (description,
 * revocation). A revoked set stops authenticating on every instance as soon
 * as the change feed tells it (`access/auth-cache.ts`).
 */
import { KnownError } from '@latchkey/protocol';
import { z } from 'zod';
import { requestContext } from '../events/recorder.js';
import { defineRoute, type Route } from '../http/route.js';
import { findKeySet, listKeySets } from './api-key-store.js';
import {
  apiKeySetFirstView,
  apiKeySetFirstViewSchema,
  apiKeySetListSchema,
  apiKeySetSchema,
  apiKeySetView,
} from './api-key-views.js';
import { createApiKeySet, updateApiKeySet } from './api-keys-actions.js';

/** The last millisecond of year 9999: later than any key needs, and safe for both JavaScript and PostgreSQL dates. */
const latestExpiryMillis = 253_402_300_799_999;

const description = z.string().max(1024);

const createBody = z
  .strictObject({
    description: description.optional(),
    expires_at_millis: z.number().int().nonnegative().max(latestExpiryMillis).optional(),
    has_publishable_client_key: z.boolean().optional(),
    has_secret_server_key: z.boolean().optional(),
    has_super_secret_admin_key: z.boolean().optional(),
  })
  .refine((body) => body.has_publishable_client_key || body.has_secret_server_key || body.has_super_secret_admin_key, {
    message:
      'ask for at least one key: has_publishable_client_key, has_secret_server_key or has_super_secret_admin_key',
  });

const updateBody = z.strictObject({
  description: description.optional(),
  revoked: z.literal(true, { error: 'only true: a revoked key set cannot be restored' }).optional(),
});

const keySetParams = z.object({ keySetId: z.string() });

const listApiKeySetsRoute = defineRoute({
  method: 'GET',
  path: '/internal/api-keys',
  tag: 'api-keys',
  summary: "The project's key sets, oldest first, each key shown as its last four characters.",
  access: 'admin',
  answer: apiKeySetListSchema,
  errors: [],
  handler: async ({ auth, deps }) => ({
    items: (await listKeySets(deps.db, auth.project.id)).map(apiKeySetView),
    is_paginated: false as const,
  }),
});

const createApiKeySetRoute = defineRoute({
  method: 'POST',
  path: '/internal/api-keys',
  tag: 'api-keys',
  summary:
    'Creates a key set; the answer is the only time its keys are shown in full. Without an expiry it lasts 100 years.',
  access: 'admin',
  body: createBody,
  answer: apiKeySetFirstViewSchema,
  errors: [],
  handler: async (input) => {
    const { body } = input;
    const created = await createApiKeySet(requestContext(input), {
      description: body.description ?? '',
      ...(body.expires_at_millis !== undefined ? { expiresAtMillis: body.expires_at_millis } : {}),
      hasPublishableClientKey: body.has_publishable_client_key ?? false,
      hasSecretServerKey: body.has_secret_server_key ?? false,
      hasSuperSecretAdminKey: body.has_super_secret_admin_key ?? false,
    });
    return apiKeySetFirstView(created);
  },
});

const getApiKeySetRoute = defineRoute({
  method: 'GET',
  path: '/internal/api-keys/:keySetId',
  tag: 'api-keys',
  summary: 'One key set of the project, each key shown as its last four characters.',
  access: 'admin',
  params: keySetParams,
  answer: apiKeySetSchema,
  errors: ['API_KEY_NOT_FOUND'],
  handler: async ({ auth, params, deps }) => {
    const row = await findKeySet(deps.db, auth.project.id, params.keySetId);
    if (!row) throw new KnownError('API_KEY_NOT_FOUND');
    return apiKeySetView(row);
  },
});

const updateApiKeySetRoute = defineRoute({
  method: 'PATCH',
  path: '/internal/api-keys/:keySetId',
  tag: 'api-keys',
  summary:
    'Changes a key set\'s description, or revokes it (`{"revoked": true}`): its keys stop working on every instance within a second.',
  access: 'admin',
  params: keySetParams,
  body: updateBody,
  answer: apiKeySetSchema,
  errors: ['API_KEY_NOT_FOUND'],
  handler: async (input) => {
    const { params, body } = input;
    const updated = await updateApiKeySet(requestContext(input), params.keySetId, {
      ...(body.description !== undefined ? { description: body.description } : {}),
      ...(body.revoked ? { revoke: true } : {}),
    });
    if (!updated) throw new KnownError('API_KEY_NOT_FOUND');
    return apiKeySetView(updated.set);
  },
});

export const apiKeyRoutes: Route[] = [
  listApiKeySetsRoute,
  createApiKeySetRoute,
  getApiKeySetRoute,
  updateApiKeySetRoute,
];
