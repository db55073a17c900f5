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
