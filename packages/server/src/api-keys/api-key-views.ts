/**
 * The key set's wire views (wire-protocol §15.7): the first view, the only
 * one with the keys in full, answers the creation; list, read and update show
 * each key as its last four characters. Kinds a set lacks are omitted.
 */
import type { ApiKeySetFirstViewWire, ApiKeySetWire } from '@latchkey/protocol';
import { z } from 'zod';
import { millis } from '../common/schemas.js';
import type { ApiKeySetRow } from '../storage/schema.js';
import type { CreatedApiKeySet } from './api-keys.js';

const lastFour = z.object({ last_four: z.string().length(4) }).strict();

const keySetFields = {
  id: z.uuid(),
  description: z.string(),
  created_at_millis: millis,
  expires_at_millis: millis,
  manually_revoked_at_millis: millis.optional(),
};

/** A key set as list, read and update answers show it. */
export const apiKeySetSchema = z
  .object({
    ...keySetFields,
    publishable_client_key: lastFour.optional(),
    secret_server_key: lastFour.optional(),
    super_secret_admin_key: lastFour.optional(),
  })
  .strict()
  .meta({ id: 'ApiKeySet', description: 'A key set, each key shown as its last four characters.' });

/** A key set as its creation answers it. */
export const apiKeySetFirstViewSchema = z
  .object({
    ...keySetFields,
    publishable_client_key: z.string().startsWith('pck_').optional(),
    secret_server_key: z.string().startsWith('ssk_').optional(),
    super_secret_admin_key: z.string().startsWith('sak_').optional(),
  })
  .strict()
  .meta({ id: 'ApiKeySetFirstView', description: 'A new key set with its keys in full: shown this once only.' });

export const apiKeySetListSchema = z
  .object({ items: z.array(apiKeySetSchema), is_paginated: z.literal(false) })
  .meta({ id: 'ApiKeySetList' });

/** A stored key set, its keys obfuscated. */
export function apiKeySetView(row: ApiKeySetRow): ApiKeySetWire {
  const view: ApiKeySetWire = {
    id: row.id,
    description: row.description,
    created_at_millis: row.created_at.getTime(),
    expires_at_millis: row.expires_at.getTime(),
  };
  if (row.manually_revoked_at) view.manually_revoked_at_millis = row.manually_revoked_at.getTime();
  if (row.publishable_client_key_last_four) {
    view.publishable_client_key = { last_four: row.publishable_client_key_last_four };
  }
  if (row.secret_server_key_last_four) view.secret_server_key = { last_four: row.secret_server_key_last_four };
  if (row.super_secret_admin_key_last_four) {
    view.super_secret_admin_key = { last_four: row.super_secret_admin_key_last_four };
  }
  return view;
}

/**
 * A key set just created, its keys in full: what `POST /internal/api-keys`
 * answers, for code that creates key sets with `createApiKeySet` and shows them.
 *
 * @example
 * console.log(JSON.stringify(apiKeySetFirstView(await createApiKeySet(storage, projectId))));
 */
export function apiKeySetFirstView(created: CreatedApiKeySet): ApiKeySetFirstViewWire {
  return {
    id: created.id,
    description: created.description,
    created_at_millis: created.createdAtMillis,
    expires_at_millis: created.expiresAtMillis,
    ...(created.publishableClientKey ? { publishable_client_key: created.publishableClientKey } : {}),
    ...(created.secretServerKey ? { secret_server_key: created.secretServerKey } : {}),
    ...(created.superSecretAdminKey ? { super_secret_admin_key: created.superSecretAdminKey } : {}),
  };
}
