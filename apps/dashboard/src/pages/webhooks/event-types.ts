/**
 * The event types an endpoint may subscribe to (`webhookEventTypes` of
 * `@latchkey/protocol`, which the service's webhook table must match), with
 * the words the form shows for each.
 */
import { webhookEventTypes as types, type WebhookEventType } from '@latchkey/protocol';

const summaries: Record<WebhookEventType, string> = {
  'user.created': 'A user was created',
  'user.updated': 'A user was changed',
  'user.deleted': 'A user was deleted',
  'user.signed_in': 'A user signed in',
  'user.password_changed': 'A password was changed',
  'user.mfa_enabled': 'Two-factor sign-in turned on',
  'user.mfa_disabled': 'Two-factor sign-in turned off',
  'team.created': 'A team was created',
  'team.updated': 'A team was changed',
  'team.deleted': 'A team was deleted',
  'team_membership.created': 'A user joined a team',
  'team_membership.deleted': 'A user left a team',
  'team_permission.created': 'A team permission was granted',
  'team_permission.deleted': 'A team permission was revoked',
  'contact_channel.created': 'A contact channel was added',
  'contact_channel.updated': 'A contact channel was changed',
  'contact_channel.deleted': 'A contact channel was removed',
  'session.created': 'A server opened a session',
  'session.revoked': 'A session ended',
  'passkey.added': 'A passkey was added',
  'passkey.removed': 'A passkey was removed',
};

export const webhookEventTypes: readonly { type: WebhookEventType; summary: string }[] = types.map((type) => ({
  type,
  summary: summaries[type],
}));
