/**
 * The event catalogue: one row per thing that can happen in a project, kept
 * as data the way the protocol keeps its errors. A row says what an event's
 * `data` holds (a zod shape: small, named facts, never a password, code,
 * token, key or address), whether the audit log keeps it, whether webhooks
 * will be offered it, and which caches it makes stale. The recorder
 * (`events/recorder.ts`) reads the row; an action only names the event.
 *
 * The names are the audit log's wire names (`GET /audit-events`): they never
 * change. Rows are grouped by feature, in feature order; a new row goes at
 * the end of its feature's group.
 *
 * Which cache a row names is dropped for the id the event carries:
 * - `project` — the project's config and keys as request authentication
 *   holds them: the event's `data.project_id`, else the project it is
 *   recorded in;
 * - `user` — the user as `GET /users/me` answers it: the event's user;
 * - `team` — users whose selected team is `data.team_id`.
 * Ended sessions are no cache row: the statement that deletes them tells the
 * other instances (`revokedNotice`), and the action tells this one
 * (`sessionsEnded`), whatever event it records.
 */
import type { AuditEventType as ProtocolAuditEventType } from '@latchkey/protocol';
import { z } from 'zod';

/** A cache an event can make stale (see the module documentation for the id each one takes). */
export type CacheName = 'project' | 'user' | 'team';

/** One row of the catalogue. */
export interface EventSpec {
  /** What the event's `data` holds. */
  readonly data: z.ZodType<Record<string, unknown>>;
  /** The audit log keeps it (`GET /audit-events`). */
  readonly audited: boolean;
  /** Webhooks are offered it, as the public type `webhooks/webhook-events.ts` maps it to. */
  readonly webhook: boolean;
  /** The caches it makes stale, on this instance and every other. */
  readonly invalidates: readonly CacheName[];
}

const none = z.strictObject({});
const fields = z.array(z.string());
const method = z.enum(['password', 'otp', 'oauth', 'password_reset', 'passkey']);
const mfaFactor = z.enum(['totp', 'recovery_code']);
const mfaStep = z.enum(['sign_in', 'setup', 'enrolment', 'disable', 'recovery_codes']);
const secondFactor = mfaFactor.optional();
const session = z.strictObject({ session_id: z.string() });
const keySet = z.strictObject({ key_set_id: z.string(), kinds: z.array(z.string()) });
const provider = z.strictObject({ provider: z.string() });
const channel = z.strictObject({ channel_id: z.string() });
const team = z.strictObject({ team_id: z.string() });
const teamPermission = z.strictObject({ team_id: z.string(), permission_id: z.string() });
const definition = z.strictObject({ permission_id: z.string() });
const invitation = z.strictObject({ team_id: z.string(), invitation_id: z.string() });
const template = z.strictObject({ template_type: z.string(), fields });

/** A row the audit log keeps. */
function row<D extends z.ZodType<Record<string, unknown>>>(
  data: D,
  invalidates: readonly CacheName[] = [],
  options: { webhook?: boolean } = {},
): EventSpec & { readonly data: D; readonly audited: true } {
  return { data, audited: true, webhook: options.webhook ?? false, invalidates };
}

/** The same row, kept out of the audit log. */
function unaudited<D extends z.ZodType<Record<string, unknown>>>(
  spec: EventSpec & { readonly data: D },
): EventSpec & { readonly data: D; readonly audited: false } {
  return { ...spec, audited: false };
}

/** Every event, by its wire name. */
export const eventCatalogue = {
  // Sign-in: `method` is how; `password_reset` is a reset that made the prover an account of her own.
  // `provider`: the provider of an OAuth sign-in.
  // `second_factor`: what proved the second step of a sign-in that needed one (`mfa/`).
  sign_up: row(z.strictObject({ method, provider: z.string().optional(), second_factor: secondFactor }), ['user'], {
    webhook: true,
  }),
  'sign_in.succeeded': row(
    z.strictObject({ method, provider: z.string().optional(), second_factor: secondFactor }),
    ['user'],
    { webhook: true },
  ),
  // `reason`: wrong_password, unknown_account, no_password, wrong_code (the user the code was mailed for, if any).
  'sign_in.failed': row(z.strictObject({ method, reason: z.string() })),

  // Passwords: `by` is `user` (their own change) or `server`.
  'password.changed': row(z.strictObject({ by: z.enum(['user', 'server']) }), ['user'], { webhook: true }),
  'password.reset': row(none, ['user'], { webhook: true }),
  'password.set': row(none, ['user'], { webhook: true }),

  // Sessions: `created` is one server code opened for the user; `current` is the caller's own (a sign-out).
  'session.created': row(session, [], { webhook: true }),
  'session.revoked': row(z.strictObject({ session_id: z.string(), current: z.boolean() }), [], { webhook: true }),
  // A replaced refresh token came back after its grace window: the session was ended.
  'session.refresh_token_reused': row(session, [], { webhook: true }),
  'impersonation.started': row(session, [], { webhook: true }),
  // A refresh wrote the session's use (at most once a minute), and with it the user's last activity (which the
  // server view shows): not a security event, so not audited.
  'session.used': unaudited(row(session, ['user'])),

  // API key sets: the kinds of key the set holds, never the keys.
  'api_key.created': row(keySet, ['project']),
  'api_key.revoked': row(keySet, ['project']),

  // Projects: `fields` names what changed, never the values (configs hold secrets).
  'project.updated': row(z.strictObject({ fields }), ['project']),
  // Kept in the internal project's log, which outlives the project.
  'project.deleted': row(z.strictObject({ project_id: z.string(), display_name: z.string() }), ['project']),
  // Not audited: an instance may have cached "no such project" for the id.
  'project.created': unaudited(row(z.strictObject({ project_id: z.string() }), ['project'])),

  // Users, by server or admin (sign-ups are `sign_up`).
  'user.created': row(none, [], { webhook: true }),
  'user.updated': row(z.strictObject({ fields }), ['user'], { webhook: true }),
  'user.deleted': row(none, ['user'], { webhook: true }),
  // The signed-in user changed their own profile (`PATCH /users/me`): not a security event, so not audited.
  'user.profile_updated': unaudited(row(z.strictObject({ fields }), ['user'], { webhook: true })),

  // Connected accounts.
  'oauth.connected': row(provider, ['user']),
  'oauth.disconnected': row(provider, ['user']),
  // A link of an account connected to the user already: its e-mail (which the user view shows) and tokens were
  // stored again. Not audited: nothing was connected.
  'oauth.account_updated': unaudited(row(provider, ['user'])),

  // Contact channels: `updated` names the fields changed (`value`, `used_for_auth`, `is_primary`,
  // `is_verified`), never the address; `detached` is an address the user never proved, taken because
  // its owner proved her mailbox.
  'contact_channel.added': row(
    z.strictObject({ channel_id: z.string(), used_for_auth: z.boolean().optional(), verified: z.boolean().optional() }),
    ['user'],
    { webhook: true },
  ),
  'contact_channel.removed': row(channel, ['user'], { webhook: true }),
  'contact_channel.verified': row(channel, ['user'], { webhook: true }),
  'contact_channel.updated': row(z.strictObject({ channel_id: z.string(), fields }), ['user'], { webhook: true }),
  'contact_channel.detached': row(channel, ['user'], { webhook: true }),

  // Mail: `failure` is a category, never the password nor the peer's words.
  'email.test_sent': row(
    z.strictObject({ host: z.string(), port: z.number(), success: z.boolean(), failure: z.string().optional() }),
  ),

  // Teams: the user is the creator or the acting user; for members, the member.
  'team.created': row(team, [], { webhook: true }),
  'team.updated': row(z.strictObject({ team_id: z.string(), fields }), ['team'], { webhook: true }),
  'team.deleted': row(team, ['team'], { webhook: true }),
  'team.member_added': row(team, [], { webhook: true }),
  'team.member_removed': row(team, ['user'], { webhook: true }),
  // A member's name or picture in one team (`fields`: which): not a security event, so not audited.
  'team.member_profile_updated': unaudited(row(z.strictObject({ team_id: z.string(), fields }))),

  // Permissions: an update after a rename names the new id, `previous_id` the old.
  'team_permission.granted': row(teamPermission, [], { webhook: true }),
  'team_permission.revoked': row(teamPermission, [], { webhook: true }),
  'permission_definition.created': row(definition, ['project']),
  'permission_definition.updated': row(
    z.strictObject({ permission_id: z.string(), previous_id: z.string().optional(), fields }),
    ['project'],
  ),
  'permission_definition.deleted': row(definition, ['project']),

  // Invitations: never the address or the code; the user of `accepted` is who joined.
  'team_invitation.sent': row(invitation),
  'team_invitation.revoked': row(invitation),
  'team_invitation.accepted': row(invitation, ['user']),

  // E-mail templates: `created` is a type's first edit; `reset` drops the edits (the only deletion).
  'email_template.created': row(template),
  'email_template.updated': row(template),
  'email_template.reset': row(z.strictObject({ template_type: z.string() })),

  // Passkeys: the passkey's id, never its credential id or key. `added` and `removed` may turn the user's
  // `passkey_auth_enabled` on or off.
  'passkey.added': row(z.strictObject({ passkey_id: z.string() }), ['user'], { webhook: true }),
  'passkey.renamed': row(z.strictObject({ passkey_id: z.string() })),
  'passkey.removed': row(z.strictObject({ passkey_id: z.string() }), ['user'], { webhook: true }),
  // Multi-factor (TOTP): `by` is `user` (their own enrolment, or the setup a project's policy asked for at sign-in)
  // or `server`; `during` is what the code was for. Never a secret or a code.
  'mfa.enabled': row(z.strictObject({ by: z.enum(['user', 'server']) }), ['user'], { webhook: true }),
  'mfa.disabled': row(z.strictObject({ by: z.enum(['user', 'server']) }), ['user'], { webhook: true }),
  'mfa.failed': row(z.strictObject({ factor: mfaFactor, during: mfaStep })),
  'mfa.recovery_code_used': row(z.strictObject({ remaining: z.number().int() })),
  'mfa.recovery_codes_regenerated': row(none),

  // Webhook endpoints, by admins: the endpoint's id, never its URL (which may carry the receiver's own token) nor
  // its secret; `updated` names the fields changed. `webhook_token.issued`: someone took a webhook token
  // (`POST /webhooks/svix-token`), a credential for the project's webhook routes.
  'webhook_endpoint.created': row(z.strictObject({ endpoint_id: z.string() })),
  'webhook_endpoint.updated': row(z.strictObject({ endpoint_id: z.string(), fields })),
  'webhook_endpoint.deleted': row(z.strictObject({ endpoint_id: z.string() })),
  'webhook_endpoint.secret_rotated': row(z.strictObject({ endpoint_id: z.string() })),
  'webhook_token.issued': row(none),
} as const satisfies Record<string, EventSpec>;

/** The name of an event. */
export type EventType = keyof typeof eventCatalogue;

/** What an event of `type` carries in `data`, as an action passes it. */
export type EventData<T extends EventType> = z.input<(typeof eventCatalogue)[T]['data']>;

/** Every event type, in catalogue order. */
export const eventTypes = Object.keys(eventCatalogue) as EventType[];

/** An event the audit log keeps. */
export type AuditEventType = {
  [T in EventType]: (typeof eventCatalogue)[T]['audited'] extends true ? T : never;
}[EventType];

/**
 * The audit log's names are the protocol's (`auditEventTypes` of
 * `@latchkey/protocol`, which clients read): a row audited or not, added or
 * renamed, without the same change there fails to compile here.
 */
const auditNamesAgree: SameNames<AuditEventType, ProtocolAuditEventType> = true;
void auditNamesAgree;

/** `true` when `A` and `B` are the same set of names, else `false`. */
type SameNames<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** The types the audit log keeps, in catalogue order: what `GET /audit-events` may answer and filter by. */
export const auditEventTypes = eventTypes.filter((type): type is AuditEventType => eventCatalogue[type].audited) as [
  AuditEventType,
  ...AuditEventType[],
];
