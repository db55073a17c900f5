/**
 * Wire types: the JSON the service sends and the SDK reads, with the wire's
 * own snake_case names (wire-protocol.md §15). SDK objects are mapped from these.
 */
import type { AuditEventType } from './events.js';

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export interface OAuthProviderLinkWire {
  id: string;
  account_id: string;
  email: string | null;
}

export interface ClientTeamWire {
  id: string;
  display_name: string;
  profile_image_url: string | null;
  client_metadata?: Json;
  client_read_only_metadata?: Json;
}

export interface ServerTeamWire extends ClientTeamWire {
  created_at_millis: number;
  server_metadata: Json;
}

/** The user as a client sees it (`GET /users/me` with client access). */
export interface ClientUserWire {
  id: string;
  primary_email: string | null;
  primary_email_verified: boolean;
  display_name: string | null;
  selected_team: ClientTeamWire | null;
  selected_team_id: string | null;
  profile_image_url: string | null;
  signed_up_at_millis: number;
  has_password: boolean;
  otp_auth_enabled: boolean;
  passkey_auth_enabled: boolean;
  client_metadata: Json;
  client_read_only_metadata: Json;
  oauth_providers: OAuthProviderLinkWire[];
  auth_with_email: boolean;
  requires_totp_mfa: boolean;
}

/** The user as server code sees it: the client view plus server-only fields. */
export interface ServerUserWire extends Omit<ClientUserWire, 'selected_team'> {
  selected_team: ServerTeamWire | null;
  primary_email_auth_enabled: boolean;
  server_metadata: Json;
  last_active_at_millis: number;
}

export interface ClientProjectConfigWire {
  sign_up_enabled: boolean;
  credential_enabled: boolean;
  magic_link_enabled: boolean;
  passkey_enabled: boolean;
  client_team_creation_enabled: boolean;
  client_user_deletion_enabled: boolean;
  /** The providers users may sign in with; `display_name` (an extension) names generic OpenID Connect providers. */
  enabled_oauth_providers: { id: string; display_name?: string }[];
}

/** `GET /projects/current` with client or server access. */
export interface ClientProjectWire {
  id: string;
  display_name: string;
  config: ClientProjectConfigWire;
}

export interface OAuthProviderConfigWire {
  id: string;
  enabled: boolean;
  type: 'shared' | 'standard';
  client_id?: string;
  client_secret?: string;
  facebook_config_id?: string;
  microsoft_tenant_id?: string;
  /** Extension: the issuer URL of a generic OpenID Connect provider (its `id` is then a slug of the operator's). */
  issuer?: string;
  /** Extension: the button label of a generic OpenID Connect provider. */
  display_name?: string;
}

export type EmailConfigWire =
  | { type: 'shared' }
  | {
      type: 'standard';
      host: string;
      port: number;
      username: string;
      password: string;
      sender_name: string;
      sender_email: string;
    };

/**
 * Extension: a project's limits on guessing. Sign-in failures are free before
 * a growing back-off; the other counts are per ten minutes.
 */
export interface RateLimitsWire {
  sign_in_failures_per_account: number;
  sign_in_failures_per_client: number;
  sign_ups_per_client: number;
  mails_per_address: number;
  mails_per_client: number;
  code_checks_per_client: number;
}

export interface AdminProjectConfigWire extends ClientProjectConfigWire {
  id: string;
  allow_localhost: boolean;
  create_team_on_sign_up: boolean;
  legacy_global_jwt_signing?: boolean;
  oauth_providers: OAuthProviderConfigWire[];
  domains: { domain: string; handler_path: string }[];
  email_config: EmailConfigWire;
  team_creator_default_permissions: { id: string }[];
  team_member_default_permissions: { id: string }[];
  /** Extension: absent from services that predate it. */
  rate_limits?: RateLimitsWire;
  /** Extension: every sign-in needs a TOTP second factor; users without one set it up to finish signing in. */
  mfa_required?: boolean;
  /** Extension: a sign-in from a browser the account has not used mails its owner (`new_device_sign_in`). */
  new_device_alert_enabled?: boolean;
}

/** `GET /projects/current` with admin access. */
export interface AdminProjectWire {
  id: string;
  display_name: string;
  /** Empty when the project has none. */
  description: string;
  created_at_millis: number;
  user_count: number;
  is_production_mode: boolean;
  config: AdminProjectConfigWire;
}

/** Answer of password sign-up and sign-in. */
export interface SignInResponseWire {
  access_token: string;
  refresh_token: string;
  user_id: string;
  is_new_user?: boolean;
}

/** Answer of `POST /auth/sessions` (server). */
export interface CreateSessionResponseWire {
  access_token: string;
  refresh_token: string;
}

/** Answer of `POST /auth/oauth/token` with `grant_type=refresh_token`. */
export interface RefreshResponseWire {
  access_token: string;
  token_type: 'Bearer';
  expires_in?: number;
  scope?: string;
  /** Only when the client asked for rotation (`refreshRotationField`): the token that replaces the one sent. */
  refresh_token?: string;
}

/** Answer of `POST /auth/oauth/token` with `grant_type=authorization_code` (wire-protocol.md §9.2). */
export interface AuthorizationCodeResponseWire {
  access_token: string;
  refresh_token: string;
  user_id: string;
  is_new_user: boolean;
  after_callback_redirect_url: string | null;
  token_type: 'Bearer';
  expires_in: number;
  scope: string;
}

/** Payload of an access token (wire-protocol.md §5.1). */
export interface AccessTokenClaims {
  sub: string;
  aud?: string;
  iss: string;
  iat: number;
  exp?: number;
  branchId: string;
  projectId?: string;
}

export interface SuccessWire {
  success: true;
}

export interface ListWire<T> {
  items: T[];
  is_paginated: boolean;
  pagination?: { next_cursor: string | null };
}

/** A page of `GET /users` (wire-protocol §12): `next_cursor` is opaque, `null` at the end. */
export interface UserPageWire extends ListWire<ServerUserWire> {
  is_paginated: true;
  pagination: { next_cursor: string | null };
}

/**
 * A session in `GET /auth/sessions` (a Latchkey extension; the Stack 2.7 SDK
 * has no session list). Timestamps in epoch ms; `is_current` marks the session
 * of the refresh token sent with the request.
 */
export interface SessionWire {
  id: string;
  user_id: string;
  created_at_millis: number;
  last_used_at_millis: number;
  expires_at_millis: number;
  ip: string | null;
  user_agent: string | null;
  /** The browser and operating system `user_agent` names (`Chrome`, `macOS`), null when it names none (ours). */
  browser: string | null;
  os: string | null;
  /** ISO 3166 alpha-2 code from the trusted country header when the session opened, else null (ours). */
  country: string | null;
  is_current: boolean;
  is_impersonation: boolean;
}

/** The last four characters of an API key: how a key set shows its keys after creation (wire-protocol §15.7). */
export interface ObfuscatedKeyWire {
  last_four: string;
}

/** A key set as list, read and update answers show it: each key as its last four characters; absent kinds omitted. */
export interface ApiKeySetWire {
  id: string;
  description: string;
  created_at_millis: number;
  expires_at_millis: number;
  manually_revoked_at_millis?: number;
  publishable_client_key?: ObfuscatedKeyWire;
  secret_server_key?: ObfuscatedKeyWire;
  super_secret_admin_key?: ObfuscatedKeyWire;
}

/** A key set as its creation answers it: the only time its keys are shown in full. */
export interface ApiKeySetFirstViewWire
  extends Omit<ApiKeySetWire, 'publishable_client_key' | 'secret_server_key' | 'super_secret_admin_key'> {
  publishable_client_key?: string;
  secret_server_key?: string;
  super_secret_admin_key?: string;
}

/** One day of a metrics series (`date` as `YYYY-MM-DD`, UTC). */
export interface MetricsDayWire {
  date: string;
  activity: number;
}

/** `GET /internal/metrics` (wire-protocol §15.9). */
export interface MetricsWire {
  total_users: number;
  daily_users: MetricsDayWire[];
  daily_active_users: MetricsDayWire[];
  users_by_country: Record<string, number>;
  recently_registered: ServerUserWire[];
  recently_active: ServerUserWire[];
  login_methods: { method: string; count: number }[];
}

/** A contact channel (wire-protocol §15.5): one e-mail address of a user. */
export interface ContactChannelWire {
  user_id: string;
  id: string;
  value: string;
  type: 'email';
  used_for_auth: boolean;
  is_verified: boolean;
  is_primary: boolean;
}

/**
 * Answer of `POST /auth/passkey/initiate-passkey-registration` and
 * `.../initiate-passkey-authentication` (wire-protocol §11): the WebAuthn
 * options for the browser, their RP id the placeholder the SDK replaces, and
 * the code to send back with the browser's response.
 */
export interface PasskeyCeremonyWire {
  options_json: Record<string, Json>;
  code: string;
}

/** A passkey of a user as `GET /users/{id}/passkeys` lists it (a Latchkey extension): never the key. */
export interface PasskeyWire {
  id: string;
  name: string;
  created_at_millis: number;
  last_used_at_millis: number | null;
}

/** A new TOTP secret (`POST /users/me/mfa/totp`, `POST /auth/mfa/setup`; Latchkey extensions), pending until a code proves it. */
export interface TotpEnrolmentWire {
  secret_base32: string;
  otpauth_uri: string;
}

/** Ten single-use recovery codes, shown once (`/users/me/mfa/totp/confirm`, `/users/me/mfa/recovery-codes`). */
export interface RecoveryCodesWire {
  recovery_codes: string[];
}

/** Answer of `POST /auth/otp/send-sign-in-code`: the code's last 39 characters (the mail shows the first six). */
export interface OtpSendResponseWire {
  nonce: string;
}

/**
 * The e-mail template types: the four of wire-protocol §15.8, and
 * `new_device_sign_in` (an extension: the alert of a sign-in from a browser
 * the account has not used, sent when the project's `new_device_alert_enabled` is on).
 */
export type EmailTemplateTypeWire =
  | 'email_verification'
  | 'password_reset'
  | 'magic_link'
  | 'team_invitation'
  | 'new_device_sign_in';

/** An e-mail template (wire-protocol §15.8); `content` is an editor document passed through untouched. */
export interface EmailTemplateWire {
  type: EmailTemplateTypeWire;
  subject: string;
  content: Json;
  is_default: boolean;
}

/** Answer of `POST /email-templates/{type}/preview`: the template rendered with sample variables. */
export interface EmailPreviewWire {
  subject: string;
  html: string;
  text: string;
}

/** Answer of `POST /internal/send-test-email` (wire-protocol §14.7): `error_message` when `success` is false. */
export interface SendTestEmailResponseWire {
  success: boolean;
  error_message?: string;
}

/** A mail of the project's outbox as `GET /internal/emails` lists it (no bodies): its delivery status. */
export interface SentEmailWire {
  id: string;
  kind: string;
  recipient: string;
  subject: string;
  status: 'queued' | 'sending' | 'sent' | 'failed';
  attempts: number;
  last_error: string | null;
  created_at_millis: number;
  sent_at_millis: number | null;
}

/** A security event of the project's audit log, as `GET /audit-events` (ours) lists it. */
export interface AuditEventWire {
  id: string;
  type: string;
  occurred_at_millis: number;
  user_id: string | null;
  actor: { type: 'user' | 'server' | 'admin' | 'anonymous' | 'operator'; id: string | null };
  ip_address: string | null;
  user_agent: string | null;
  data: Record<string, unknown>;
}

/**
 * One of the signed-in user's own security events, as
 * `GET /users/me/security-activity` (ours) lists them: what and when, and
 * from where as far as the person can recognise it. `ip_address` is cut to
 * its network (`203.0.113.x`, `2001:db8:85a3::/48`); `method` is how a
 * sign-in was made, `provider` the OAuth provider of a sign-in or connection.
 */
export interface SecurityEventWire {
  id: string;
  type: AuditEventType;
  occurred_at_millis: number;
  browser: string | null;
  os: string | null;
  country: string | null;
  ip_address: string | null;
  method: string | null;
  provider: string | null;
}

/** A webhook endpoint as `/webhooks/endpoints` (ours) shows it: never its secret. `event_types` null: every type. */
export interface WebhookEndpointWire {
  id: string;
  url: string;
  description: string;
  event_types: string[] | null;
  enabled: boolean;
  disabled_reason: string | null;
  created_at_millis: number;
  updated_at_millis: number;
}

/** The answer of `POST /webhooks/endpoints`: the endpoint and its signing secret, shown this once. */
export interface WebhookEndpointFirstViewWire extends WebhookEndpointWire {
  secret: string;
}

/** The answer of `POST /webhooks/endpoints/{id}/rotate-secret`. */
export interface WebhookSecretRotationWire {
  secret: string;
  previous_secret_expires_at_millis: number;
}

/** A message to a webhook endpoint and where its delivery is (`GET /webhooks/endpoints/{id}/messages`). */
export interface WebhookMessageWire {
  id: string;
  event_type: string;
  status: 'pending' | 'sending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at_millis: number | null;
  last_response_status: number | null;
  last_error: string | null;
  created_at_millis: number;
  delivered_at_millis: number | null;
}

/** One delivery attempt of a webhook message (`GET /webhooks/messages/{id}/attempts`). */
export interface WebhookAttemptWire {
  id: string;
  attempted_at_millis: number;
  response_status: number | null;
  latency_ms: number;
  response_excerpt: string | null;
  error: string | null;
}

/** A member's profile in a team (wire-protocol §15.3) as a client sees it. */
export interface ClientTeamMemberProfileWire {
  team_id: string;
  user_id: string;
  display_name: string | null;
  profile_image_url: string | null;
  /** Latchkey extension, for callers who may read the members: the member's primary e-mail. */
  primary_email?: string | null;
  /** Latchkey extension, for callers who may read the members: the permissions granted directly. */
  permission_ids?: string[];
}

/** A member's profile as server code sees it: with the whole user. */
export interface ServerTeamMemberProfileWire extends ClientTeamMemberProfileWire {
  user: ServerUserWire;
}

/** A permission a user holds in a team (wire-protocol §15.4). */
export interface TeamPermissionWire {
  id: string;
  user_id: string;
  team_id: string;
}

/** A permission definition (wire-protocol §15.4); the five `$...` system permissions are listed too. */
export interface TeamPermissionDefinitionWire {
  id: string;
  description?: string;
  contained_permission_ids: string[];
}

/** A pending team invitation (wire-protocol §15.10). */
export interface TeamInvitationWire {
  id: string;
  team_id: string;
  recipient_email: string;
  expires_at_millis: number;
}

/** `POST /team-memberships/{team}/{user}`. */
export interface TeamMembershipWire {
  team_id: string;
  user_id: string;
}

/** `POST /team-invitations/accept/details`. */
export interface TeamInvitationDetailsWire {
  team_id: string;
  team_display_name: string;
}
