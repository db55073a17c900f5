/**
 * The audit log: what happened to a project's accounts and settings, who did
 * it, and from where. The events and what their `data` holds are rows of the
 * event catalogue (`events/catalogue.ts`); an action records them with
 * `record` (`events/recorder.ts`), which writes the row. Code not yet made of
 * actions (the sign-in endings) records an event with one call,
 * `audit(trx, input, type, { userId, data })`, in the transaction of the change
 * it describes, so a change that rolls back leaves no event and an event
 * never describes something that did not happen. Failures (a wrong password)
 * have no transaction and are written on their own.
 *
 * Nothing secret goes in: no password, code, token or key, and no e-mail
 * address typed at a failed sign-in (people type passwords there). `data`
 * holds only the small, named facts its catalogue row allows.
 */
import type { AuditEventType } from '../events/catalogue.js';
import { type ActorType, actorOf } from '../events/recorder.js';
import type { ClientInfo, RequestAuth } from '../http/env.js';
import { type Db, type Write, writeTogether } from '../storage/db.js';
import type { JsonValue } from '../storage/schema.js';
import { auditEventInsert } from './audit-store.js';

/** The longest user agent kept; longer ones are cut (a header can be 8 KB of nothing useful). */
const maxUserAgent = 300;

/**
 * What a handler passes: the parts of its route input that say who and where.
 * Routes without project authentication (the OAuth callback) name the project
 * and have no actor but the user the event is about.
 */
export interface AuditSource {
  auth: RequestAuth | null;
  userId?: string | null;
  client: ClientInfo;
  deps: { clock: { now(): number } };
  /** The project whose log gets the event, when not the caller's (default: `auth`'s project). */
  projectId?: string;
  /** Who acted, when no request says it. */
  actor?: { type: ActorType; id: string | null };
}

/** The event's facts besides who and where. */
export interface AuditFacts {
  /** The user the event is about (absent: the caller's own user, if any). */
  userId?: string | null;
  data?: Record<string, JsonValue>;
}

/**
 * Records one event of the caller's project, in `db` (pass the transaction of
 * the change it describes).
 *
 * @example
 * await audit(trx, input, 'password.changed', { data: { by: 'user' } });
 */
export async function audit(db: Db, source: AuditSource, type: AuditEventType, facts: AuditFacts = {}): Promise<void> {
  await writeTogether(db, [auditWrite(db, source, type, facts)]);
}

/**
 * The write `audit` sends, to send with others in one statement
 * (`writeTogether`, or a session store's `also`: with `onlyWith`, recorded only
 * when that part of the statement has rows).
 */
export function auditWrite(
  db: Db,
  source: AuditSource,
  type: AuditEventType,
  facts: AuditFacts = {},
  onlyWith?: string,
): Write {
  const auth = source.auth;
  const projectId = source.projectId ?? auth?.project.id;
  if (projectId === undefined) throw new Error('audit: no project to record the event in');
  const callerUserId = source.userId ?? auth?.userId ?? null;
  const actor = source.actor ?? actorOf(auth, callerUserId);
  return auditEventInsert(
    db,
    {
      project_id: projectId,
      type,
      occurred_at: new Date(source.deps.clock.now()),
      user_id: facts.userId === undefined ? callerUserId : facts.userId,
      actor_type: actor.type,
      actor_id: actor.id,
      ip: source.client.ip,
      user_agent: source.client.userAgent?.slice(0, maxUserAgent) ?? null,
      data: facts.data ?? {},
    },
    onlyWith,
  );
}
