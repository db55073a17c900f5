/**
 * Table types for Kysely. Every table carries `project_id`. JSON columns are
 * written as JSON text (see `json()`), because the `pg` driver would turn a JS
 * array parameter into a PostgreSQL array rather than JSON.
 */
import type { ColumnType, Generated, Insertable, Selectable } from 'kysely';

/** A JSON value as stored in a `jsonb` column. */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** A `jsonb` column: read as `T`, written as JSON text. */
type JsonColumn<T> = ColumnType<T, string, string>;

interface ProjectsTable {
  id: string;
  display_name: string;
  description: string | null;
  created_at: Date;
  is_production_mode: boolean;
  config: JsonColumn<Record<string, JsonValue>>;
}

interface ApiKeySetsTable {
  id: string;
  project_id: string;
  description: string;
  created_at: Date;
  expires_at: Date;
  manually_revoked_at: Date | null;
  publishable_client_key_hash: string | null;
  publishable_client_key_last_four: string | null;
  secret_server_key_hash: string | null;
  secret_server_key_last_four: string | null;
  super_secret_admin_key_hash: string | null;
  super_secret_admin_key_last_four: string | null;
}

interface SigningKeysTable {
  project_id: string;
  kid: string;
  public_jwk: JsonColumn<Record<string, JsonValue>>;
  private_jwk_encrypted: string;
  active: boolean;
  created_at: Date;
}

interface UsersTable {
  project_id: string;
  id: string;
  display_name: string | null;
  primary_email: string | null;
  primary_email_verified: boolean;
  primary_email_auth_enabled: boolean;
  profile_image_url: string | null;
  password_hash: string | null;
  client_metadata: JsonColumn<JsonValue>;
  client_read_only_metadata: JsonColumn<JsonValue>;
  server_metadata: JsonColumn<JsonValue>;
  signed_up_at: Date;
  last_active_at: Date;
  selected_team_id: string | null;
  requires_totp_mfa: Generated<boolean>;
  otp_auth_enabled: Generated<boolean>;
  passkey_auth_enabled: Generated<boolean>;
  /** ISO 3166 alpha-2 code of the country the user last signed in from (trusted header), or null. */
  country_code: Generated<string | null>;
  /** The connected provider accounts as the user view shows them, kept by `oauth/oauth-account-store.ts`. */
  oauth_providers: ColumnType<{ id: string; account_id: string; email: string | null }[], string | undefined, string>;
  /** The user's id in the system they were imported from (`import/`), unique in the project; null otherwise. */
  external_id: Generated<string | null>;
}

interface SessionsTable {
  id: string;
  project_id: string;
  user_id: string;
  refresh_token_hash: string;
  created_at: Date;
  expires_at: Date;
  last_used_at: Date;
  /** Client address and user agent when the session was opened (null when unknown). */
  ip: string | null;
  user_agent: string | null;
  /** The country it was opened from (the trusted country header's code), null when unknown. */
  country: Generated<string | null>;
  /** Opened by server code for the user (`POST /auth/sessions` with `is_impersonation`). */
  is_impersonation: Generated<boolean>;
  /** The refresh token this session's current one replaced (`sessions/refresh-rotation.ts`), or null. */
  previous_refresh_token_hash: Generated<string | null>;
  /** When the current refresh token replaced the previous one, or null (never rotated). */
  refresh_token_rotated_at: Generated<Date | null>;
}

/** Users of the `internal` project who own a project (their access tokens are its admin tokens). */
interface ProjectOwnersTable {
  project_id: string;
  user_project_id: Generated<string>;
  user_id: string;
  created_at: Date;
}

/** One row per user per UTC day on which the user signed in or refreshed a session. */
interface UserActivityDaysTable {
  project_id: string;
  user_id: string;
  /** `YYYY-MM-DD`; read back as text (`to_char`), written as text. */
  day: ColumnType<Date, string, string>;
}

/** A user's e-mail address. The primary one is mirrored into `users.primary_email*`. */
interface ContactChannelsTable {
  id: string;
  project_id: string;
  user_id: string;
  type: 'email';
  value: string;
  is_verified: boolean;
  is_primary: boolean;
  /** Signs in: the project's one sign-in channel for the address. */
  used_for_auth: boolean;
  /** A client asked for sign-in with this unverified address: `used_for_auth` turns on when it is verified. */
  auth_pending: Generated<boolean>;
  created_at: Date;
}

/** A verification, reset, magic-link or invitation code: only hashes are stored. */
interface VerificationCodesTable {
  id: string;
  project_id: string;
  purpose: string;
  /** SHA-256 of the code without its first six characters (the part a magic-link caller already holds). */
  lookup_hash: string;
  /** SHA-256 of the whole code. */
  code_hash: string;
  data: JsonColumn<Record<string, JsonValue>>;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
  attempts: Generated<number>;
  /** The team a team invitation is for; null once that team is deleted (see `data.team_id`). */
  team_id: Generated<string | null>;
}

type OutboxStatus = 'queued' | 'sending' | 'sent' | 'failed';

/** A mail to deliver: rendered when queued, in the transaction that wrote what it carries. */
interface EmailOutboxTable {
  id: string;
  project_id: string;
  /** The template type (`password_reset`, ...) or `test`. */
  kind: string;
  recipient: string;
  /** The subject in clear, as admins list it: a code or link in it is masked (the sent subject is sealed). */
  subject: string;
  /** Clear bodies of mails queued before bodies were sealed (migration 0011); null for every newer mail. */
  html: string | null;
  text_body: string | null;
  /**
   * Subject, HTML and text, sealed (`mail/sealed-mail.ts`); null once delivered
   * over SMTP or given up on, so no delivered or dead code is kept.
   */
  sealed_content: string | null;
  status: Generated<OutboxStatus>;
  /** `smtp` or `mailbox` (the dev mailbox), set when delivered. */
  transport: string | null;
  attempts: Generated<number>;
  next_attempt_at: Date;
  last_error: string | null;
  created_at: Date;
  sent_at: Date | null;
}

/** A project's edited e-mail template; a type without a row uses the default. */
interface EmailTemplatesTable {
  project_id: string;
  type: string;
  subject: string;
  content: JsonColumn<JsonValue>;
  updated_at: Date;
}

/** Hits of a rate-limited key within a fixed window. */
interface RateLimitCountersTable {
  key: string;
  window_start: Date;
  hits: Generated<number>;
}

/** A team of a project. */
interface TeamsTable {
  id: string;
  project_id: string;
  display_name: string;
  profile_image_url: string | null;
  client_metadata: JsonColumn<JsonValue>;
  client_read_only_metadata: JsonColumn<JsonValue>;
  server_metadata: JsonColumn<JsonValue>;
  created_at: Date;
  /** The team's id in the system it was imported from, unique in the project; null otherwise. */
  external_id: Generated<string | null>;
}

/** A user's membership of a team, and their profile in it (null fields fall back to the user's). */
interface TeamMembersTable {
  project_id: string;
  team_id: string;
  user_id: string;
  display_name: string | null;
  profile_image_url: string | null;
  created_at: Date;
}

/** A permission a project defines; the five `$...` system permissions are rows with `is_system`. */
interface TeamPermissionDefinitionsTable {
  project_id: string;
  id: string;
  description: string | null;
  is_system: Generated<boolean>;
  created_at: Date;
}

/** `permission_id` contains `contained_id`: holding the first grants the second (the graph is acyclic). */
interface TeamPermissionInclusionsTable {
  project_id: string;
  permission_id: string;
  contained_id: string;
}

/** A permission granted directly to a member of a team. */
interface TeamMemberPermissionsTable {
  project_id: string;
  team_id: string;
  user_id: string;
  permission_id: string;
}

interface OAuthAccountsTable {
  project_id: string;
  provider_id: string;
  /** The provider's subject for the person. */
  account_id: string;
  user_id: string;
  email: string | null;
  access_token_sealed: string | null;
  refresh_token_sealed: string | null;
  access_token_expires_at: Date | null;
  /** Space-separated scopes the provider granted. */
  scopes: Generated<string>;
  created_at: Date;
  updated_at: Date;
}

interface AttemptFailuresTable {
  key: string;
  failures: number;
  last_failure_at: Date;
}

export interface AuditEventsTable {
  /** bigserial: read as a string (it may pass 2^53), ordered as a number. */
  id: Generated<string>;
  project_id: string;
  type: string;
  occurred_at: Date;
  /** The user the event is about, when there is one. */
  user_id: string | null;
  /** `user`, `server`, `admin` or `anonymous`: the access the request had (`audit/audit-log.ts`). */
  actor_type: string;
  /** The acting user (client or dashboard owner) or API key set, when known. */
  actor_id: string | null;
  ip: string | null;
  user_agent: string | null;
  /** The country of the request (the trusted country header's code), null when unknown. */
  country: Generated<string | null>;
  data: JsonColumn<Record<string, JsonValue>>;
}

/** A user's passkey (WebAuthn credential); ids and the key are base64url text. */
interface PasskeysTable {
  id: string;
  project_id: string;
  user_id: string;
  /** The authenticator's credential id, unique in the project. */
  credential_id: string;
  /** The credential's COSE public key. */
  public_key: string;
  /** The last signature counter seen (bigint: read as a string on PostgreSQL). */
  counter: ColumnType<string | number, number, number>;
  /** How the browser may reach the authenticator (`internal`, `hybrid`, `usb`...), as it said at registration. */
  transports: JsonColumn<string[]>;
  name: string;
  /** The authenticator model's AAGUID (all zeros when it does not say). */
  aaguid: string;
  /** The credential is synced or backed up (a multi-device passkey). */
  backed_up: boolean;
  created_at: Date;
  last_used_at: Date | null;
}

/** A user's TOTP (`mfa/`): the active and the enrolling secret, sealed, and the last step a code was accepted for. */
interface UserMfaTable {
  project_id: string;
  user_id: string;
  totp_secret_sealed: string | null;
  pending_totp_secret_sealed: string | null;
  last_totp_step: number | null;
  updated_at: Date;
}

/** A recovery code of a user: its hash, and when it was used. */
interface MfaRecoveryCodesTable {
  project_id: string;
  user_id: string;
  code_hash: string;
  created_at: Date;
  used_at: Date | null;
}

/** A project's webhook endpoint (`webhooks/`): where, which event types (null: all), its sealed signing secrets. */
interface WebhookEndpointsTable {
  id: string;
  project_id: string;
  url: string;
  description: Generated<string>;
  event_types: string[] | null;
  secret_sealed: string;
  /** The secret before the last rotation: it signs too until `previous_secret_expires_at`. */
  previous_secret_sealed: string | null;
  previous_secret_expires_at: Date | null;
  enabled: Generated<boolean>;
  /** Why the service turned the endpoint off (it kept failing); null when on or turned off by an admin. */
  disabled_reason: string | null;
  created_at: Date;
  updated_at: Date;
}

/** The delivery state of a webhook message. */
export type WebhookMessageStatus = 'pending' | 'sending' | 'delivered' | 'failed';

/** One event for one endpoint, written in the transaction of the change; `payload` is the body it is sent with. */
interface WebhookMessagesTable {
  id: string;
  /** The order messages were written in (an endpoint gets them in this order). */
  seq: Generated<string>;
  project_id: string;
  endpoint_id: string;
  event_type: string;
  /** The event's facts as recorded (ids and data of the catalogue row). */
  event_data: JsonColumn<Record<string, JsonValue>>;
  /** The body sent (and sent again on a retry or replay); null until first rendered, and after retention. */
  payload: JsonColumn<JsonValue | null>;
  status: Generated<WebhookMessageStatus>;
  attempts: Generated<number>;
  next_attempt_at: Date;
  last_response_status: number | null;
  last_error: string | null;
  created_at: Date;
  delivered_at: Date | null;
}

/** One attempt to deliver a webhook message. */
interface WebhookAttemptsTable {
  id: string;
  message_id: string;
  project_id: string;
  attempted_at: Date;
  response_status: number | null;
  latency_ms: number;
  /** The start of the response body, capped. */
  response_excerpt: string | null;
  error: string | null;
}

interface MigrationsTable {
  id: string;
  checksum: string;
  applied_at: Date;
}

export interface Database {
  projects: ProjectsTable;
  api_key_sets: ApiKeySetsTable;
  signing_keys: SigningKeysTable;
  users: UsersTable;
  sessions: SessionsTable;
  project_owners: ProjectOwnersTable;
  user_activity_days: UserActivityDaysTable;
  contact_channels: ContactChannelsTable;
  verification_codes: VerificationCodesTable;
  email_outbox: EmailOutboxTable;
  email_templates: EmailTemplatesTable;
  rate_limit_counters: RateLimitCountersTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  team_permission_definitions: TeamPermissionDefinitionsTable;
  team_permission_inclusions: TeamPermissionInclusionsTable;
  team_member_permissions: TeamMemberPermissionsTable;
  oauth_accounts: OAuthAccountsTable;
  attempt_failures: AttemptFailuresTable;
  audit_events: AuditEventsTable;
  passkeys: PasskeysTable;
  user_mfa: UserMfaTable;
  mfa_recovery_codes: MfaRecoveryCodesTable;
  webhook_endpoints: WebhookEndpointsTable;
  webhook_messages: WebhookMessagesTable;
  webhook_attempts: WebhookAttemptsTable;
  latchkey_migrations: MigrationsTable;
}

export type ProjectRow = Selectable<ProjectsTable>;
export type ApiKeySetRow = Selectable<ApiKeySetsTable>;
export type UserRow = Selectable<UsersTable>;
export type SessionRow = Selectable<SessionsTable>;
export type ContactChannelRow = Selectable<ContactChannelsTable>;
export type VerificationCodeRow = Selectable<VerificationCodesTable>;
export type OutboxRow = Selectable<EmailOutboxTable>;
export type TeamRow = Selectable<TeamsTable>;
export type OAuthAccountRow = Selectable<OAuthAccountsTable>;
export type AuditEventRow = Selectable<AuditEventsTable>;
export type TeamMemberRow = Selectable<TeamMembersTable>;
export type UserMfaRow = Selectable<UserMfaTable>;
export type PermissionDefinitionRow = Selectable<TeamPermissionDefinitionsTable>;
export type PasskeyRow = Selectable<PasskeysTable>;
export type WebhookEndpointRow = Selectable<WebhookEndpointsTable>;
export type WebhookMessageRow = Selectable<WebhookMessagesTable>;
export type WebhookAttemptRow = Selectable<WebhookAttemptsTable>;

/** JSON text for a `jsonb` column. */
export function json(value: unknown): string {
  return JSON.stringify(value ?? null);
}

/** The three metadata columns users and teams share. */
export interface MetadataChanges {
  client_metadata?: JsonValue;
  client_read_only_metadata?: JsonValue;
  server_metadata?: JsonValue;
}

/**
 * The SET of an update whose metadata columns are `jsonb`: the metadata given
 * become JSON text, the other fields pass as they are, absent ones stay absent.
 */
export function withMetadataColumns<T extends MetadataChanges>(changes: T) {
  const { client_metadata, client_read_only_metadata, server_metadata, ...plain } = changes;
  return {
    ...plain,
    ...(client_metadata !== undefined ? { client_metadata: json(client_metadata) } : {}),
    ...(client_read_only_metadata !== undefined ? { client_read_only_metadata: json(client_read_only_metadata) } : {}),
    ...(server_metadata !== undefined ? { server_metadata: json(server_metadata) } : {}),
  };
}

/**
 * True for a PostgreSQL unique-constraint violation (SQLSTATE 23505), from `pg`
 * or PGlite; with `constraint`, only a violation of that constraint or index,
 * so that an unrelated duplicate is not reported as the one the caller expects.
 */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const { code, constraint: violated } = error as { code?: unknown; constraint?: unknown };
  return code === '23505' && (constraint === undefined || violated === constraint);
}

/** The unique index that allows one sign-in e-mail per project, case-insensitively (on contact channels). */
export const authEmailIndex = 'contact_channels_auth_idx';
/** The unique index that allows an address once per user, case-insensitively. */
export const userEmailIndex = 'contact_channels_value_idx';

/** A row to insert into `table`, as Kysely types it (for bulk writes built outside the stores). */
export type NewRow<T extends keyof Database> = Insertable<Database[T]>;
