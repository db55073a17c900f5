/**
 * `GET /audit-events` (ours): the project's audit log for its admins, newest
 * first, filtered by user, type and time, a page at a time. The log is
 * append-only: there is no route that changes or deletes an event.
 *
 * `GET /users/me/security-activity` (ours): the signed-in person's own
 * security events of the last 90 days, from the same log, with only what is
 * safe to show them (see `securityEventSchema`).
 */
import { z } from 'zod';
import { badCursor, decodeCursor, encodeCursor } from '../common/cursor.js';
import { deviceOf, maskedAddress } from '../common/device.js';
import { millis, paginatedList } from '../common/schemas.js';
import { type AuditEventType, auditEventTypes } from '../events/catalogue.js';
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

/**
 * The events a person sees in their Security activity: sign-ins and failed
 * ones, changes of their password, e-mail addresses, connected accounts,
 * passkeys and second factor, and sessions ended. Not what server code did
 * for the project (sessions it opened, impersonations, profile edits).
 */
const securityActivityTypes = [
  'sign_up',
  'sign_in.succeeded',
  'sign_in.failed',
  'mfa.failed',
  'password.changed',
  'password.reset',
  'password.set',
  'contact_channel.added',
  'contact_channel.verified',
  'contact_channel.updated',
  'contact_channel.removed',
  'oauth.connected',
  'oauth.disconnected',
  'passkey.added',
  'passkey.removed',
  'mfa.enabled',
  'mfa.disabled',
  'session.revoked',
  'session.refresh_token_reused',
] as const satisfies readonly AuditEventType[];

/** How far back the Security activity goes. */
const securityActivityDays = 90;
/** The most events it answers (the newest). */
const securityActivityLimit = 100;

/**
 * An event as its own person sees it: what, when, and from where as far as
 * they can recognise it (browser, OS, country, the address cut to its
 * network). Never who acted, the event's ids, nor the full address: a failed
 * sign-in's address is a stranger's.
 */
const securityEventSchema = z
  .strictObject({
    id: z.string(),
    type: z.enum(securityActivityTypes),
    occurred_at_millis: millis,
    browser: z.string().nullable(),
    os: z.string().nullable(),
    country: z.string().nullable().meta({ description: 'ISO 3166 alpha-2, from the trusted country header.' }),
    ip_address: z
      .string()
      .nullable()
      .meta({ description: 'The address cut to its network: `203.0.113.x`, `2001:db8:85a3::/48`.' }),
    method: z.string().nullable().meta({ description: 'How a sign-in (or failed one) was made: `password`, `otp`, …' }),
    provider: z.string().nullable().meta({ description: 'The OAuth provider of a sign-in or connection.' }),
  })
  .meta({ id: 'SecurityEvent' });

const listSecurityActivity = defineRoute({
  method: 'GET',
  path: '/users/me/security-activity',
  tag: 'audit',
  summary: `Latchkey extension: the signed-in user's own security events of the last ${securityActivityDays} days, newest first (at most ${securityActivityLimit}).`,
  access: 'client',
  user: true,
  answer: z
    .strictObject({ items: z.array(securityEventSchema), is_paginated: z.literal(false) })
    .meta({ id: 'SecurityEventList' }),
  errors: [],
  handler: async ({ auth, userId, deps }) => {
    const now = deps.clock.now();
    const page = await listAuditEvents(deps.db, {
      projectId: auth.project.id,
      userId,
      types: securityActivityTypes,
      since: new Date(now - securityActivityDays * 24 * 60 * 60_000),
      until: null,
      beforeId: null,
      limit: securityActivityLimit,
    });
    const text = (value: unknown) => (typeof value === 'string' ? value : null);
    return {
      is_paginated: false as const,
      items: page.rows.map((row) => ({
        id: row.id,
        type: row.type as (typeof securityActivityTypes)[number],
        occurred_at_millis: row.occurred_at.getTime(),
        ...deviceOf(row.user_agent),
        country: row.country,
        ip_address: maskedAddress(row.ip),
        method: text(row.data.method),
        provider: text(row.data.provider),
      })),
    };
  },
});

export const auditRoutes: Route[] = [listAuditEventsRoute, listSecurityActivity];
