/**
 * The project's audit log for administrators (`GET /audit-events`, ours):
 * sign-ins and their failures, sign-ups, password changes, sessions ended,
 * key sets made and revoked, configuration changes, impersonation, each with
 * who acted and from where. `AdminApp` mounts it.
 */
import type { AuditEventWire } from '@latchkey/protocol';
import type { AdminScope, AudienceScope } from '../internal/audience.js';
import type { Send } from '../internal/core.js';
import { type Fields, optionalObject, readFields } from '../internal/decode/fields.js';
import { everyItem } from '../internal/pagination.js';
import type { Query } from '../query.js';
import type { Page } from '../server-types.js';

/**
 * Who acted: a signed-in user (`id` the user), a server or admin key (`id`
 * its key set), a dashboard owner's admin token (`id` the owner), nobody yet
 * (a sign-in before it succeeded), or an operator working on the database
 * itself (the CLI).
 *
 * @example
 * ```ts
 * const byKeys = events.filter((event) => event.actor.type === 'server');
 * ```
 */
export interface AuditActor {
  type: 'user' | 'server' | 'admin' | 'anonymous' | 'operator';
  id: string | null;
}

/**
 * One security event. `data` holds the event's small facts (a sign-in's
 * `method`, a failure's `reason`, the names of config fields changed), never
 * a secret.
 *
 * @example
 * ```ts
 * const failures: AuditEvent[] = (await adminApp.listAuditEvents({ userId, types: ['sign_in.failed'] })).items;
 * ```
 */
export interface AuditEvent {
  id: string;
  /** `sign_in.succeeded`, `sign_in.failed`, `sign_up`, `password.changed`, `session.revoked`, `api_key.created`, ... */
  type: string;
  occurredAt: Date;
  /** The user the event is about. */
  userId: string | null;
  actor: AuditActor;
  ipAddress: string | null;
  userAgent: string | null;
  data: Record<string, unknown>;
}

/**
 * Which events to list, newest first: all filters optional.
 *
 * @example
 * ```ts
 * const options: ListAuditEventsOptions = { userId, since: new Date(Date.now() - 86_400_000), limit: 50 };
 * ```
 */
export interface ListAuditEventsOptions {
  userId?: string;
  types?: readonly string[];
  /** At or after this time. */
  since?: Date;
  /** Before this time. */
  until?: Date;
  /** Events per page (1 to 1000, default 100). */
  limit?: number;
  /** `nextCursor` of the previous page. */
  cursor?: string;
}

/**
 * What an administrator reads of the audit log.
 *
 * @example
 * ```ts
 * const page = await adminApp.listAuditEvents({ types: ['sign_in.failed'] });
 * for await (const event of adminApp.auditEvents({ userId })) console.log(event.type, event.occurredAt);
 * ```
 */
export interface AuditLog {
  /** One page of events, newest first; pass `nextCursor` back as `cursor` for the next. */
  listAuditEvents(options?: ListAuditEventsOptions): Promise<Page<AuditEvent>>;
  /** Every event matching `options`, newest first, fetching pages as they are consumed. */
  auditEvents(options?: Omit<ListAuditEventsOptions, 'cursor'>): AsyncGenerator<AuditEvent, void, undefined>;
}

/** `GET /audit-events`. */
function listAuditEvents(send: Send, options: ListAuditEventsOptions = {}): Promise<Page<AuditEvent>> {
  const query = {
    user_id: options.userId,
    type: options.types && options.types.length > 0 ? options.types.join(',') : undefined,
    since: options.since?.getTime().toString(),
    until: options.until?.getTime().toString(),
    limit: options.limit?.toString(),
    cursor: options.cursor,
  };
  return send({ method: 'GET', path: '/audit-events', query }, decodeAuditEventPage);
}

/** Decodes a page of `GET /audit-events`. */
function decodeAuditEventPage(body: unknown): Page<AuditEvent> {
  return readFields<{ items: AuditEventWire[]; pagination?: { next_cursor: string | null } }, Page<AuditEvent>>(
    body,
    (page) => ({
      items: page.list('items', readAuditEvent),
      nextCursor: optionalObject(page, 'pagination', (p) => p.stringOrNull('next_cursor')) ?? null,
    }),
  );
}

function readAuditEvent(event: Fields<AuditEventWire>): AuditEvent {
  return {
    id: event.nonEmptyString('id'),
    type: event.string('type'),
    occurredAt: new Date(event.number('occurred_at_millis')),
    userId: event.stringOrNull('user_id'),
    actor: event.object('actor', (actor) => ({
      type: actor.value('type', isActorType, 'an actor type'),
      id: actor.stringOrNull('id'),
    })),
    ipAddress: event.stringOrNull('ip_address'),
    userAgent: event.stringOrNull('user_agent'),
    data: event.value('data', isPlainObject, 'an object'),
  };
}

const actorTypes: readonly unknown[] = [
  'user',
  'server',
  'admin',
  'anonymous',
  'operator',
] satisfies AuditActor['type'][];

function isActorType(value: unknown): boolean {
  return actorTypes.includes(value);
}

function isPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * One page of audit events, newest first, as a query of `AdminApp`; every
 * write of the app re-reads it while subscribed.
 *
 * @example
 * ```ts
 * const failures = await adminApp.load(auditEventsQuery({ types: ['sign_in.failed'], limit: 50 }));
 * ```
 */
export function auditEventsQuery(options: ListAuditEventsOptions = {}): Query<Page<AuditEvent>, AdminScope> {
  const { userId, types, since, until, limit, cursor } = options;
  const key = [
    'auditEvents',
    userId ?? null,
    types?.join(',') ?? null,
    since?.getTime() ?? null,
    until?.getTime() ?? null,
    limit ?? null,
    cursor ?? null,
  ];
  return { key, load: ({ send }) => listAuditEvents(send, options) };
}

/** Mounts the audit log on an audience with admin access. */
export function auditLog(scope: AudienceScope): AuditLog {
  const { send } = scope;
  return {
    listAuditEvents: (options) => listAuditEvents(send, options),
    auditEvents: (options = {}) =>
      everyItem('auditEvents', (cursor) => listAuditEvents(send, { ...options, ...(cursor ? { cursor } : {}) })),
  };
}
