/**
 * Webhook messages and their delivery attempts: every query on
 * `webhook_messages` and `webhook_attempts`. A message is one event for one
 * endpoint, written in the transaction of the change (`webhookMessagesInsert`,
 * sent by the recorder with the event's audit row); the delivery worker
 * (`webhook-worker.ts`) claims them, oldest first per endpoint, one at a time
 * per endpoint. Inserting a message tells every instance's worker on commit (a
 * trigger of migration 0015 notifies the change feed).
 */
import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { isUuid } from '../common/ids.js';
import { notifyWebhookDue } from '../storage/change-feed.js';
import { type Db, type Write, writeTogether } from '../storage/db.js';
import { type JsonValue, json, type WebhookAttemptRow, type WebhookMessageRow } from '../storage/schema.js';

/** An event to offer the project's endpoints. */
export interface WebhookEvent {
  projectId: string;
  /** The public type (`webhook-events.ts`), which endpoints subscribe to. */
  type: string;
  /** The recorded facts the payload is made of. */
  facts: Record<string, JsonValue>;
  now: number;
}

/**
 * The unsent insert of one message per enabled endpoint of the project
 * subscribed to the event's type (`event_types` null: all), for the recorder
 * to send in one statement with the change (`writeTogether`). With `onlyWith`,
 * only when that part of the statement has rows (as the audit row's).
 */
export function webhookMessagesInsert(db: Db, event: WebhookEvent, onlyWith?: string): Write {
  const now = new Date(event.now);
  const only = onlyWith === undefined ? sql`` : sql`and exists (select 1 from ${sql.table(onlyWith)})`;
  return db
    .insertInto('webhook_messages')
    .columns(['id', 'project_id', 'endpoint_id', 'event_type', 'event_data', 'next_attempt_at', 'created_at'])
    .expression(
      sql`select gen_random_uuid(), e.project_id, e.id, ${event.type}, ${json(event.facts)}::jsonb, ${now}::timestamptz, ${now}::timestamptz
        from webhook_endpoints e
        where e.project_id = ${event.projectId} and e.enabled
          and (e.event_types is null or ${event.type} = any (e.event_types)) ${only}`,
    );
}

/** Adds one message for one endpoint, its payload given (a test message); due now. */
export async function insertWebhookMessage(
  db: Db,
  message: { projectId: string; endpointId: string; type: string; payload: JsonValue; now: number },
): Promise<WebhookMessageRow> {
  const now = new Date(message.now);
  return db
    .insertInto('webhook_messages')
    .values({
      id: randomUUID(),
      project_id: message.projectId,
      endpoint_id: message.endpointId,
      event_type: message.type,
      event_data: json({}),
      payload: json(message.payload),
      next_attempt_at: now,
      last_response_status: null,
      last_error: null,
      created_at: now,
      delivered_at: null,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

/**
 * Claims up to `limit` due messages for one worker, in one statement: the
 * oldest unfinished message of each enabled endpoint, when it is due
 * (queued, waiting for its retry, or left `sending` by a worker whose lease
 * ran out: that one gets one more attempt, even after its last). A later
 * message of an endpoint waits while an earlier one is unfinished, so an
 * endpoint gets its messages in order, one at a time. Rows another worker
 * holds are skipped (`FOR UPDATE SKIP LOCKED`). Each claimed row becomes
 * `sending` until `leaseUntil` and counts an attempt.
 */
export async function claimDueWebhookMessages(
  db: Db,
  options: { now: number; leaseUntil: number; limit: number },
): Promise<WebhookMessageRow[]> {
  const unfinished = ['pending', 'sending'] as const;
  const claimed = await db
    .with('due', (qb) =>
      qb
        .selectFrom('webhook_messages as m')
        .select('m.id')
        .where('m.status', 'in', unfinished)
        .where('m.next_attempt_at', '<=', new Date(options.now))
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('webhook_endpoints as e')
              .select('e.id')
              .whereRef('e.id', '=', 'm.endpoint_id')
              .where('e.enabled', '=', true),
          ),
        )
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('webhook_messages as earlier')
                .select('earlier.id')
                .whereRef('earlier.endpoint_id', '=', 'm.endpoint_id')
                .where('earlier.status', 'in', unfinished)
                .whereRef('earlier.seq', '<', 'm.seq'),
            ),
          ),
        )
        .orderBy('m.next_attempt_at')
        .orderBy('m.seq')
        .limit(options.limit)
        .forUpdate()
        .skipLocked(),
    )
    .updateTable('webhook_messages')
    .set({ status: 'sending', next_attempt_at: new Date(options.leaseUntil), attempts: sql`attempts + 1` })
    .where('id', 'in', (eb) => eb.selectFrom('due').select('due.id'))
    .returningAll()
    .execute();
  return claimed.sort((x, y) => Number(x.seq) - Number(y.seq));
}

/** Keeps the body a message is sent with (rendered at its first attempt), so later attempts send the same bytes. */
export async function saveWebhookPayload(db: Db, id: string, payload: JsonValue): Promise<void> {
  await db
    .updateTable('webhook_messages')
    .set({ payload: json(payload) })
    .where('id', '=', id)
    .execute();
}

/** What one attempt gave. */
export interface AttemptOutcome {
  now: number;
  responseStatus: number | null;
  latencyMs: number;
  excerpt: string | null;
  error: string | null;
  /** Delivered (a 2xx answer). */
  delivered: boolean;
  /** When not delivered: when to try again, or null (failed for good). */
  retryAt: number | null;
}

/** Records an attempt and the message's new state, in one statement. */
export async function recordWebhookAttempt(db: Db, message: WebhookMessageRow, outcome: AttemptOutcome): Promise<void> {
  const now = new Date(outcome.now);
  const state = outcome.delivered
    ? { status: 'delivered' as const, delivered_at: now, last_error: null }
    : outcome.retryAt === null
      ? { status: 'failed' as const, last_error: outcome.error }
      : { status: 'pending' as const, next_attempt_at: new Date(outcome.retryAt), last_error: outcome.error };
  await writeTogether(db, [
    db.insertInto('webhook_attempts').values({
      id: randomUUID(),
      message_id: message.id,
      project_id: message.project_id,
      attempted_at: now,
      response_status: outcome.responseStatus,
      latency_ms: Math.round(outcome.latencyMs),
      response_excerpt: outcome.excerpt,
      error: outcome.error,
    }),
    db
      .updateTable('webhook_messages')
      .set({ ...state, last_response_status: outcome.responseStatus })
      .where('id', '=', message.id)
      .where('status', '=', 'sending'),
  ]);
}

/** Hands claimed messages back unsent (the worker is stopping): due now, the claim's attempt not counted. */
export async function releaseWebhookMessages(db: Db, ids: readonly string[], now: number): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable('webhook_messages')
    .set({ status: 'pending', next_attempt_at: new Date(now), attempts: sql`greatest(attempts - 1, 0)` })
    .where('id', 'in', [...ids])
    .where('status', '=', 'sending')
    .execute();
}

/** The project's message, or null (also for an id that is not a UUID). */
export async function findWebhookMessage(db: Db, projectId: string, id: string): Promise<WebhookMessageRow | null> {
  if (!isUuid(id)) return null;
  const row = await db
    .selectFrom('webhook_messages')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('id', '=', id.toLowerCase())
    .executeTakeFirst();
  return row ?? null;
}

/** One page of an endpoint's messages, newest first, before the message numbered `beforeSeq` when given. */
export async function listWebhookMessages(
  db: Db,
  options: { projectId: string; endpointId: string; beforeSeq: string | null; limit: number },
): Promise<WebhookMessageRow[]> {
  let query = db
    .selectFrom('webhook_messages')
    .selectAll()
    .where('project_id', '=', options.projectId)
    .where('endpoint_id', '=', options.endpointId);
  if (options.beforeSeq !== null) query = query.where('seq', '<', options.beforeSeq);
  return query.orderBy('seq', 'desc').limit(options.limit).execute();
}

/** A message's attempts, oldest first. */
export async function listWebhookAttempts(db: Db, projectId: string, messageId: string): Promise<WebhookAttemptRow[]> {
  return db
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('project_id', '=', projectId)
    .where('message_id', '=', messageId)
    .orderBy('attempted_at')
    .orderBy('id')
    .execute();
}

/**
 * Makes a finished message due again now, its attempts counted afresh (same
 * id, so the same `webhook-id`, and the same body); a message still being
 * delivered is left as it is. Tells the workers on commit. Returns the row.
 */
export async function replayWebhookMessage(
  db: Db,
  message: WebhookMessageRow,
  now: number,
): Promise<WebhookMessageRow> {
  const row = await db
    .updateTable('webhook_messages')
    .set({ status: 'pending', attempts: 0, next_attempt_at: new Date(now), delivered_at: null })
    .where('id', '=', message.id)
    .where('status', 'in', ['delivered', 'failed'])
    .returningAll()
    .executeTakeFirst();
  if (row) await notifyWebhookDue(db);
  return row ?? message;
}

/**
 * Makes the unfinished messages of an endpoint just turned back on due now
 * (one waiting for a retry included: the admin has presumably fixed the
 * receiver) and tells the workers on commit, so they go out at once rather
 * than at the next safety-net pass.
 */
export async function wakeWebhookEndpointMessages(db: Db, endpointId: string, now: number): Promise<void> {
  await db
    .updateTable('webhook_messages')
    .set({ next_attempt_at: sql`least(next_attempt_at, ${new Date(now)}::timestamptz)` })
    .where('endpoint_id', '=', endpointId)
    .where('status', '=', 'pending')
    .execute();
  await notifyWebhookDue(db);
}

/** Deletes messages delivered or given up on before `before`, with their attempts; returns how many. */
export async function deleteFinishedWebhookMessagesBefore(db: Db, before: number): Promise<number> {
  const result = await db
    .deleteFrom('webhook_messages')
    .where('status', 'in', ['delivered', 'failed'])
    .where('created_at', '<', new Date(before))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
