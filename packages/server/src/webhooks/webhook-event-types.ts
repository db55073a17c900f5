/**
 * The event types a webhook endpoint can subscribe to, by their public
 * (webhook) names: Stack Auth's catalogue where it has one, then what it
 * lacks. The one list: the endpoint routes check subscriptions against it,
 * and the delivery side maps events of the catalogue (`events/catalogue.ts`)
 * onto these names.
 */
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
