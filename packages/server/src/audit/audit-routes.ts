/**
 * `GET /audit-events` (ours): the project's audit log for its admins, newest
 * first, filtered by user, type and time, a page at a time. The log is
 * append-only: there is no route that changes or deletes an event.
 */
import { z } from 'zod';
import { badCursor, decodeCursor, encodeCursor } from '../common/cursor.js';
import { paginatedList } from '../common/schemas.js';
import { auditEventTypes } from '../events/catalogue.js';
import { actorTypes } from '../events/recorder.js';
import { defineRoute, type Route } from '../http/route.js';
import { listAuditEvents } from './audit-store.js';

const auditEventSchema = z
  .object({
    id: z.string().meta({ description: 'Increases with every event of the service.' }),
    type: z.enum(auditEventTypes),
    occurred_at_millis: z.number(),
    user_id: z.string().nullable().meta({ description: 'The user the event is about.' }),
    actor: z.object({
      type: z.enum(actorTypes),
      id: z.string().nullable().meta({
        description:
          'The acting user, the API key set of a server or admin key, or the owner of an admin token; null for an operator (the CLI on the database).',
      }),
    }),
    ip_address: z.string().nullable(),
    user_agent: z.string().nullable(),
    data: z.record(z.string(), z.json()),
  })
  .meta({ id: 'AuditEvent' });

const auditEventList = paginatedList(auditEventSchema, 'AuditEventList');

const epochMillis = z
  .string()
  .regex(/^\d{1,15}$/, 'epoch milliseconds')
  .transform(Number);

const typeList = z
  .string()
  .max(1000)
  .transform((text) => text.split(',').map((type) => type.trim()))
  .pipe(z.array(z.enum(auditEventTypes)).max(auditEventTypes.length));

const listAuditEventsRoute = defineRoute({
  method: 'GET',
  path: '/audit-events',
  tag: 'audit',
  summary: "The project's security events, newest first, optionally of one user, of some types or in a time range.",
  access: 'admin',
  query: z.object({
    user_id: z.uuid().optional(),
    type: typeList.optional().meta({ description: 'Event types, separated by commas.' }),
    since: epochMillis.optional().meta({ description: 'Events at or after this time (epoch milliseconds).' }),
    until: epochMillis.optional().meta({ description: 'Events before this time (epoch milliseconds).' }),
    limit: z.coerce.number().int().min(1).max(1000).default(100),
    cursor: z.string().max(300).optional().meta({ description: 'next_cursor of the previous page.' }),
  }),
  answer: auditEventList,
  errors: [],
  handler: async ({ auth, query, deps }) => {
    const filters = {
      userId: query.user_id?.toLowerCase() ?? null,
      types: [...new Set(query.type ?? [])].sort(),
      since: query.since ?? null,
      until: query.until ?? null,
    };
    let beforeId: string | null = null;
    if (query.cursor !== undefined) [beforeId] = decodeCursor(query.cursor, filters, 1) as [string];
    // Cursors are not signed: a forged one must still name a bigint.
    if (beforeId !== null && !/^\d{1,18}$/.test(beforeId)) throw badCursor();
    const page = await listAuditEvents(deps.db, {
      projectId: auth.project.id,
      ...filters,
      since: filters.since === null ? null : new Date(filters.since),
      until: filters.until === null ? null : new Date(filters.until),
      beforeId,
      limit: query.limit,
    });
    const last = page.rows.at(-1);
    return {
      items: page.rows.map((row) => ({
        id: row.id,
        type: row.type as (typeof auditEventTypes)[number],
        occurred_at_millis: row.occurred_at.getTime(),
        user_id: row.user_id,
        actor: { type: row.actor_type as (typeof actorTypes)[number], id: row.actor_id },
        ip_address: row.ip,
        user_agent: row.user_agent,
        data: row.data,
      })),
      is_paginated: true as const,
      pagination: { next_cursor: page.more && last ? encodeCursor([last.id], filters) : null },
    };
  },
});

export const auditRoutes: Route[] = [listAuditEventsRoute];
