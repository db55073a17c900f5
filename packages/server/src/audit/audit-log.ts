/**
 * The audit log: what happened to a project's accounts and settings, who did
 * it, and from where (issue 11). A handler records an event with one call,
 * `audit(trx, input, type, { userId, data })`, in the transaction of the change
 * it describes, so a change that rolls back leaves no event and an event
 * never describes something that did not happen. Failures (a wrong password)
 * have no transaction and are written on their own.
 *
 * Nothing secret goes in: no password, code, token or key, and no e-mail
 * address typed at a failed sign-in (people type passwords there). `data`
 * holds only the small, named facts each type documents below.
 */
import type { AccessType } from '@latchkey/protocol';
import type { RequestAuth } from '../http/env.js';
import type { ClientInfo } from '../http/route.js';
import { type Db, type Write, writeTogether } from '../storage/db.js';
import type { JsonValue } from '../storage/schema.js';
import { auditEventInsert } from './audit-store.js';

/**
 * The events, and what their `data` holds:
 * - `sign_up` — `method` (`password`, `otp`, `oauth`);
 * - `sign_in.succeeded` — `method`;
 * - `sign_in.failed` — `method`, `reason` (`wrong_password`, `unknown_account`, `no_password`, `wrong_code`);
 * - `password.changed` — `by` (`user`, `server`); `password.reset`; `password.set`;
 * - `session.created` — `session_id` (a session server code opened for the user);
 * - `session.revoked` — `session_id`, `current` (the caller's own session: a sign-out);
 * - `session.refresh_token_reused` — `session_id` (a replaced refresh token came back after its grace
 *   window: the session was ended, `sessions/refresh-rotation.ts`);
 * - `impersonation.started` — `session_id` (the same, marked as an impersonation);
 * - `api_key.created` / `api_key.revoked` — `key_set_id`, `kinds` (never the keys);
 * - `project.updated` — `fields` (the names of the config fields changed, never their values);
 * - `user.created` / `user.updated` (`fields`) / `user.deleted` — by server or admin;
 * - `oauth.connected` / `oauth.disconnected` — `provider`;
 * - `contact_channel.added` / `contact_channel.removed` / `contact_channel.verified` — `channel_id`.
 */
export const auditEventTypes = [
  'sign_up',
  'sign_in.succeeded',
  'sign_in.failed',
  'password.changed',
  'password.reset',
  'password.set',
  'session.created',
  'session.revoked',
  'session.refresh_token_reused',
  'impersonation.started',
  'api_key.created',
  'api_key.revoked',
  'project.updated',
  'user.created',
  'user.updated',
  'user.deleted',
  'oauth.connected',
  'oauth.disconnected',
  'contact_channel.added',
  'contact_channel.removed',
  'contact_channel.verified',
] as const;

export type AuditEventType = (typeof auditEventTypes)[number];

/**
 * Who acted: a signed-in user (client), a server or admin key, a dashboard
 * owner, nobody yet (a sign-in), or an operator with the database itself (the
 * CLI's `keys`, `users` and `projects` commands, through `operations.ts`).
 */
export type ActorType = 'user' | 'server' | 'admin' | 'anonymous' | 'operator';

export const actorTypes = ['user', 'server', 'admin', 'anonymous', 'operator'] as const satisfies readonly ActorType[];

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
  projectId?: string;
  /** Who acted, when no request says it (`operatorSource`). */
  actor?: { type: ActorType; id: string | null };
}

/**
 * The source of an operation run with the database itself (the CLI), not
 * through a request: the actor is the operator, with no address.
 *
 * @example
 * await audit(trx, operatorSource(projectId), 'api_key.revoked', { userId: null, data });
 */
export function operatorSource(projectId: string, now = Date.now()): AuditSource {
  return {
    auth: null,
    projectId,
    client: { ip: null, userAgent: 'latchkey operations' },
    deps: { clock: { now: () => now } },
    actor: { type: 'operator', id: null },
  };
}

/** The event's facts besides who and where. */
export interface AuditFacts {
  /** The user the event is about (absent: the caller's own user, if any). */
  userId?: string | null;
  data?: Record<string, JsonValue>;
}

/** The actor of a request: the access type decides it; a client without a user is anonymous. */
export function actorOf(auth: RequestAuth | null, userId: string | null): { type: ActorType; id: string | null } {
  const accessType: AccessType | undefined = auth?.accessType;
  if (accessType === 'server') return { type: 'server', id: auth?.actorId ?? null };
  if (accessType === 'admin') return { type: 'admin', id: auth?.actorId ?? null };
  return userId ? { type: 'user', id: userId } : { type: 'anonymous', id: null };
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
  const projectId = auth?.project.id ?? source.projectId;
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
