/**
 * API key sets over the API (wire-protocol §6, §14.7), admin access only:
 * list, create (the keys in full, this once), read, and update (description,
 * revocation). A revoked set stops authenticating on every instance as soon
 * as the change feed tells it (`access/auth-cache.ts`).
 */
import { KnownError } from '@latchkey/protocol';
import { z } from 'zod';
import { audit } from '../audit/audit-log.js';
import { defineRoute, type Route } from '../http/route.js';
import { inTransaction } from '../storage/db.js';
import { type ApiKeyKind, apiKeyKinds, findKeySet, keyColumns, listKeySets, updateKeySet } from './api-key-store.js';
import {
  apiKeySetFirstView,
  apiKeySetFirstViewSchema,
  apiKeySetListSchema,
  apiKeySetSchema,
  apiKeySetView,
} from './api-key-views.js';
import { createKeySet } from './api-keys.js';

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

const listApiKeySets = defineRoute({
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

const createApiKeySet = defineRoute({
  method: 'POST',
  path: '/internal/api-keys',
  tag: 'api-keys',
  summary:
    'Creates a key set; the answer is the only time its keys are shown in full. Without an expiry it lasts 100 years.',
  access: 'admin',
  body: createBody,
  answer: apiKeySetFirstViewSchema,
  errors: [],
  handler: async ({ auth, body, client, deps }) => {
    const now = deps.clock.now();
    if (body.expires_at_millis !== undefined && body.expires_at_millis <= now) {
      throw new KnownError('SCHEMA_ERROR', { message: 'body.expires_at_millis: must be in the future' });
    }
    const created = await inTransaction(deps.db, async (trx) => {
      const created = await createKeySet(trx, auth.project.id, {
        description: body.description ?? '',
        ...(body.expires_at_millis !== undefined ? { expiresAtMillis: body.expires_at_millis } : {}),
        hasPublishableClientKey: body.has_publishable_client_key ?? false,
        hasSecretServerKey: body.has_secret_server_key ?? false,
        hasSuperSecretAdminKey: body.has_super_secret_admin_key ?? false,
        now,
      });
      await audit(trx, { auth, client, deps }, 'api_key.created', {
        userId: null,
        data: keySetFacts(created.id, (kind) => created[kind] !== undefined),
      });
      return created;
    });
    deps.changes.publishLocal(auth.project.id);
    return apiKeySetFirstView(created);
  },
});

const getApiKeySet = defineRoute({
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

const updateApiKeySet = defineRoute({
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
  handler: async ({ auth, params, body, client, deps }) => {
    const revokedAt = body.revoked ? new Date(deps.clock.now()) : undefined;
    const row = await inTransaction(deps.db, async (trx) => {
      const row = await updateKeySet(trx, auth.project.id, params.keySetId, {
        ...(body.description !== undefined ? { description: body.description } : {}),
        ...(revokedAt ? { revokedAt } : {}),
      });
      // Revoked by this request, not before it (the earlier revocation time is kept).
      if (row && revokedAt && row.manually_revoked_at?.getTime() === revokedAt.getTime()) {
        await audit(trx, { auth, client, deps }, 'api_key.revoked', {
          userId: null,
          data: keySetFacts(row.id, (kind) => row[keyColumns[kind].hash] !== null),
        });
      }
      return row;
    });
    if (!row) throw new KnownError('API_KEY_NOT_FOUND');
    deps.changes.publishLocal(auth.project.id);
    return apiKeySetView(row);
  },
});

/** What the audit log keeps of a key set: its id and the kinds of key it holds, never the keys. */
function keySetFacts(keySetId: string, has: (kind: ApiKeyKind) => boolean) {
  return { key_set_id: keySetId, kinds: apiKeyKinds.filter(has) };
}

export const apiKeyRoutes: Route[] = [listApiKeySets, createApiKeySet, getApiKeySet, updateApiKeySet];
