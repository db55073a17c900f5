/**
 * The audit log: what happened to a project's accounts and settings, who did
 * it, and from where. A handler records an event with one call,
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
import type { ClientInfo, RequestAuth } from '../http/env.js';
import { type Db, type Write, writeTogether } from '../storage/db.js';
import type { JsonValue } from '../storage/schema.js';
import { auditEventInsert } from './audit-store.js';

/**
 * The events, and what their `data` holds:
 * - `sign_up` — `method` (`password`, `otp`, `oauth`; `password_reset`: a reset that met an address
 *   another account merely claimed made the prover an account of her own);
 * - `sign_in.succeeded` — `method`;
 * - `sign_in.failed` — `method`, `reason` (`wrong_password`, `unknown_account`, `no_password`, `wrong_code`:
 *   an e-mailed sign-in code whose typed part was wrong, the user the code was mailed for if any);
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
 * - `contact_channel.added` / `contact_channel.removed` / `contact_channel.verified` — `channel_id`;
 * - `contact_channel.updated` — `channel_id`, `fields` (the names of the fields changed: `value`,
 *   `used_for_auth`, `is_primary`, `is_verified`; never the address);
 * - `contact_channel.detached` — `channel_id`: an address the user had never proven was taken from
 *   them because its owner proved her mailbox (code sign-in, reset, provider sign-up);
 * - `email.test_sent` — `host`, `port`, `success`, `failure` (its category; never the password nor the peer's words);
 * - `project.deleted` — in the internal project's log (it outlives the project): `project_id`, `display_name`;
 * - `team.created` / `team.deleted` — `team_id`; `team.updated` — `team_id`, `fields` (names, never values);
 *   the user is the creator, or the acting user;
 * - `team.member_added` / `team.member_removed` — `team_id`; the user is the member (a creator is added too);
 * - `team_permission.granted` / `team_permission.revoked` — `team_id`, `permission_id`; the user is the member;
 * - `permission_definition.created` / `permission_definition.deleted` — `permission_id`;
 *   `permission_definition.updated` — `permission_id` (after a rename, the new one; `previous_id` the old), `fields`;
 * - `team_invitation.sent` / `team_invitation.revoked` / `team_invitation.accepted` — `team_id`,
 *   `invitation_id` (never the address or the code; the user of `accepted` is who joined);
 * - `email_template.created` (a type's first edit) / `email_template.updated` — `template_type`, `fields`
 *   (`subject`, `content`: which parts were given); `email_template.reset` — `template_type` (the edits
 *   dropped, the default used again: the only way a template is deleted).
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
  'contact_channel.updated',
  'contact_channel.detached',
  'email.test_sent',
  'project.deleted',
  'team.created',
  'team.updated',
  'team.deleted',
  'team.member_added',
  'team.member_removed',
  'team_permission.granted',
  'team_permission.revoked',
  'permission_definition.created',
  'permission_definition.updated',
  'permission_definition.deleted',
  'team_invitation.sent',
  'team_invitation.revoked',
  'team_invitation.accepted',
  'email_template.created',
  'email_template.updated',
  'email_template.reset',
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
  /** The project whose log gets the event, when not the caller's (default: `auth`'s project). */
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
function actorOf(auth: RequestAuth | null, userId: string | null): { type: ActorType; id: string | null } {
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
