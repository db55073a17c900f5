/** Webhook endpoints: every query on `webhook_endpoints`. Each is scoped to its project. */
import type { Db } from '../storage/db.js';
import type { WebhookEndpointRow } from '../storage/schema.js';

/** An endpoint to add, its secret already sealed (`webhook-secrets.ts`). */
export interface NewWebhookEndpoint {
  /** Chosen by the caller (`randomUUID()`): the secret is sealed bound to it before the row exists. */
  id: string;
  projectId: string;
  url: string;
  description: string;
  /** null: every event type. */
  eventTypes: readonly string[] | null;
  secretSealed: string;
  enabled: boolean;
  now: number;
}

/** Stores a new endpoint. */
export async function insertWebhookEndpoint(db: Db, endpoint: NewWebhookEndpoint): Promise<WebhookEndpointRow> {
  const now = new Date(endpoint.now);
  return db
    .insertInto('webhook_endpoints')
    .values({
      id: endpoint.id,
      project_id: endpoint.projectId,
      url: endpoint.url,
      description: endpoint.description,
      event_types: endpoint.eventTypes === null ? null : [...endpoint.eventTypes],
      secret_sealed: endpoint.secretSealed,
      previous_secret_sealed: null,
      previous_secret_expires_at: null,
      enabled: endpoint.enabled,
      disabled_reason: null,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/** The project's endpoint, or null. */
export async function findWebhookEndpoint(db: Db, projectId: string, id: string): Promise<WebhookEndpointRow | null> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst();
  return row ?? null;
}

/** The project's endpoints, oldest first. */
export function listWebhookEndpoints(db: Db, projectId: string): Promise<WebhookEndpointRow[]> {
  return db
    .selectFrom('webhook_endpoints')
    .selectAll()
    .where('project_id', '=', projectId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

/** How many endpoints the project has. */
export async function countWebhookEndpoints(db: Db, projectId: string): Promise<number> {
  const row = await db
    .selectFrom('webhook_endpoints')
    .select((eb) => eb.fn.countAll<string | number>().as('count'))
    .where('project_id', '=', projectId)
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** What `updateWebhookEndpoint` may change; absent fields stay. */
export interface WebhookEndpointChanges {
  url?: string;
  description?: string;
  /** null: every event type. */
  eventTypes?: readonly string[] | null;
  /** Turning an endpoint on or off by hand clears the reason the service gave for turning it off. */
  enabled?: boolean;
  now: number;
}

/** Changes the project's endpoint `id`: the row as it is now, or null when the project has none such. */
export async function updateWebhookEndpoint(
  db: Db,
  projectId: string,
  id: string,
  changes: WebhookEndpointChanges,
): Promise<WebhookEndpointRow | null> {
  const row = await db
    .updateTable('webhook_endpoints')
    .set({
      ...(changes.url !== undefined ? { url: changes.url } : {}),
      ...(changes.description !== undefined ? { description: changes.description } : {}),
      ...(changes.eventTypes !== undefined
        ? { event_types: changes.eventTypes === null ? null : [...changes.eventTypes] }
        : {}),
      ...(changes.enabled !== undefined ? { enabled: changes.enabled, disabled_reason: null } : {}),
      updated_at: new Date(changes.now),
    })
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  return row ?? null;
}

/** Deletes the project's endpoint `id` (its messages and attempts go with it); whether there was one. */
export async function deleteWebhookEndpoint(db: Db, projectId: string, id: string): Promise<boolean> {
  const result = await db
    .deleteFrom('webhook_endpoints')
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .executeTakeFirst();
  return result.numDeletedRows > 0n;
}

/**
 * Puts a new sealed secret on the project's endpoint `id`, keeping the one it
 * replaces as the previous secret until `previousExpiresAt`; null when the
 * project has no such endpoint.
 */
export async function replaceWebhookSecret(
  db: Db,
  projectId: string,
  id: string,
  secret: { sealed: string; previousExpiresAt: Date; now: number },
): Promise<WebhookEndpointRow | null> {
  const row = await db
    .updateTable('webhook_endpoints')
    .set((eb) => ({
      previous_secret_sealed: eb.ref('secret_sealed'),
      previous_secret_expires_at: secret.previousExpiresAt,
      secret_sealed: secret.sealed,
      updated_at: new Date(secret.now),
    }))
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
  return row ?? null;
}

/**
 * Turns the endpoint off because its deliveries keep failing, saying why
 * (`disabled_reason`); an admin turns it back on. Its pending messages wait
 * meanwhile. Returns whether it was on.
 */
export async function disableWebhookEndpoint(
  db: Db,
  projectId: string,
  id: string,
  reason: string,
  now: number,
): Promise<boolean> {
  const result = await db
    .updateTable('webhook_endpoints')
    .set({ enabled: false, disabled_reason: reason, updated_at: new Date(now) })
    .where('project_id', '=', projectId)
    .where('id', '=', id)
    .where('enabled', '=', true)
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}

/** Every endpoint's sealed secrets (`rotateSecret`). */
export async function listSealedWebhookSecrets(
  db: Db,
): Promise<Pick<WebhookEndpointRow, 'id' | 'secret_sealed' | 'previous_secret_sealed'>[]> {
  return db.selectFrom('webhook_endpoints').select(['id', 'secret_sealed', 'previous_secret_sealed']).execute();
}

/** Replaces an endpoint's sealed secrets (`rotateSecret`). */
export async function updateSealedWebhookSecrets(
  db: Db,
  id: string,
  sealed: { secret_sealed: string; previous_secret_sealed: string | null },
): Promise<void> {
  await db.updateTable('webhook_endpoints').set(sealed).where('id', '=', id).execute();
}
