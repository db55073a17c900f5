/** Audit events: every query on `audit_events`. */
import { type Insertable, sql } from 'kysely';
import type { Db, Write } from '../storage/db.js';
import { type AuditEventRow, type AuditEventsTable, type JsonValue, json } from '../storage/schema.js';

/** An event as written (`id` comes from the sequence), its data as a value rather than JSON text. */
export type NewAuditEvent = Omit<Insertable<AuditEventsTable>, 'id' | 'data'> & { data: Record<string, JsonValue> };

/**
 * The write that records `event`; with `onlyWith`, the name of another part of
 * the same statement (`endSessions`' `ended`), only when that part has rows.
 */
export function auditEventInsert(db: Db, event: NewAuditEvent, onlyWith?: string): Write {
  const row = { ...event, data: json(event.data) };
  if (onlyWith === undefined) return db.insertInto('audit_events').values(row);
  const columns = Object.keys(row) as (keyof typeof row)[];
  const values = sql.join(columns.map((column) => sql`${row[column]}`));
  return db
    .insertInto('audit_events')
    .columns(columns)
    .expression(sql`select ${values} where exists (select 1 from ${sql.table(onlyWith)})`);
}

/** Which events of a project to read: all filters optional, newest first, `before` an id (the cursor). */
export interface AuditQuery {
  projectId: string;
  userId: string | null;
  types: readonly string[];
  since: Date | null;
  until: Date | null;
  /** Only events with a smaller id (the next page of a newest-first list). */
  beforeId: string | null;
  limit: number;
}

/** One page of events, newest first, and whether more follow. */
export async function listAuditEvents(db: Db, query: AuditQuery): Promise<{ rows: AuditEventRow[]; more: boolean }> {
  let select = db
    .selectFrom('audit_events')
    .select([
      sql<string>`id::text`.as('id'),
      'project_id',
      'type',
      'occurred_at',
      'user_id',
      'actor_type',
      'actor_id',
      'ip',
      'user_agent',
      'country',
      'data',
    ])
    .where('project_id', '=', query.projectId);
  if (query.userId !== null) select = select.where('user_id', '=', query.userId);
  if (query.types.length > 0) select = select.where('type', 'in', query.types);
  if (query.since !== null) select = select.where('occurred_at', '>=', query.since);
  if (query.until !== null) select = select.where('occurred_at', '<', query.until);
  if (query.beforeId !== null) select = select.where('audit_events.id', '<', sql<string>`${query.beforeId}::bigint`);
  const rows = await select
    // The table's bigint, not the text it is selected as ("9" sorts after "10").
    .orderBy('audit_events.id', 'desc')
    .limit(query.limit + 1)
    .execute();
  return { rows: rows.slice(0, query.limit), more: rows.length > query.limit };
}

/** Removes events older than `before` (the retention period); returns how many. */
export async function deleteAuditEventsBefore(db: Db, before: number): Promise<number> {
  const result = await db.deleteFrom('audit_events').where('occurred_at', '<', new Date(before)).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The longest user agent an event keeps; longer ones are cut (a header can be 8 KB of nothing useful). */
export const auditedUserAgentLength = 300;

/**
 * The user's successful sign-ins and sign-ups on record before `before`: any,
 * and any from `userAgent` (compared as the log keeps it, cut to `auditedUserAgentLength`).
 *
 * @example
 * const { any, fromAgent } = await signInsOnRecord(db, { projectId, userId, userAgent, before: now });
 */
export async function signInsOnRecord(
  db: Db,
  query: { projectId: string; userId: string; userAgent: string; before: number },
): Promise<{ any: boolean; fromAgent: boolean }> {
  const signIns = db
    .selectFrom('audit_events')
    .where('project_id', '=', query.projectId)
    .where('user_id', '=', query.userId)
    .where('type', 'in', ['sign_in.succeeded', 'sign_up'])
    .where('occurred_at', '<', new Date(query.before));
  const row = await db
    .selectNoFrom((eb) => [
      eb.exists(signIns.select(sql`1`.as('one'))).as('any'),
      eb
        .exists(
          signIns.where('user_agent', '=', query.userAgent.slice(0, auditedUserAgentLength)).select(sql`1`.as('one')),
        )
        .as('from_agent'),
    ])
    .executeTakeFirstOrThrow();
  return { any: Boolean(row.any), fromAgent: Boolean(row.from_agent) };
}
