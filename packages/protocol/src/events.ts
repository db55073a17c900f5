/**
 * The names of events as they cross the wire: the types the audit log keeps
 * (`GET /audit-events`: each event's `type`, and the `types` filter) and the
 * webhook event types an endpoint subscribes to (`event_types`). They never
 * change. The service's event catalogue and webhook table must name exactly
 * these (its compiler and tests check); clients read them from here (the
 * dashboard's filters and forms) instead of keeping copies.
 */

/** The audit log's event types, in the service's catalogue order (grouped by feature). */
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
  'project.deleted',
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
  'passkey.added',
  'passkey.renamed',
  'passkey.removed',
  'mfa.enabled',
  'mfa.disabled',
  'mfa.failed',
  'mfa.recovery_code_used',
  'mfa.recovery_codes_regenerated',
  'webhook_endpoint.created',
  'webhook_endpoint.updated',
  'webhook_endpoint.deleted',
  'webhook_endpoint.secret_rotated',
  'webhook_token.issued',
] as const;

/** One of the audit log's event types. */
export type AuditEventType = (typeof auditEventTypes)[number];

/** The webhook event types an endpoint can subscribe to (the test message's `webhook.test` is not one). */
export const webhookEventTypes = [
  'user.created',
  'user.updated',
  'user.deleted',
  'team.created',
  'team.updated',
  'team.deleted',
  'team_membership.created',
  'team_membership.deleted',
  'team_permission.created',
  'team_permission.deleted',
  'contact_channel.created',
  'contact_channel.updated',
  'contact_channel.deleted',
  'session.created',
  'session.revoked',
  'user.signed_in',
  'user.password_changed',
  'user.mfa_enabled',
  'user.mfa_disabled',
  'passkey.added',
  'passkey.removed',
] as const;

/** One of the webhook event types an endpoint can subscribe to. */
export type WebhookEventType = (typeof webhookEventTypes)[number];
