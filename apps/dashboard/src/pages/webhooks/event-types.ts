/**
 * The event types an endpoint may subscribe to (docs/guides/webhooks.md;
 * the service's `subscribableEventTypes`), with the words the form shows.
 */
export const webhookEventTypes: readonly { type: string; summary: string }[] = [
  { type: 'user.created', summary: 'A user was created' },
  { type: 'user.updated', summary: 'A user was changed' },
  { type: 'user.deleted', summary: 'A user was deleted' },
  { type: 'user.signed_in', summary: 'A user signed in' },
  { type: 'user.password_changed', summary: 'A password was changed' },
  { type: 'user.mfa_enabled', summary: 'Two-factor sign-in turned on' },
  { type: 'user.mfa_disabled', summary: 'Two-factor sign-in turned off' },
  { type: 'team.created', summary: 'A team was created' },
  { type: 'team.updated', summary: 'A team was changed' },
  { type: 'team.deleted', summary: 'A team was deleted' },
  { type: 'team_membership.created', summary: 'A user joined a team' },
  { type: 'team_membership.deleted', summary: 'A user left a team' },
  { type: 'team_permission.created', summary: 'A team permission was granted' },
  { type: 'team_permission.deleted', summary: 'A team permission was revoked' },
  { type: 'contact_channel.created', summary: 'A contact channel was added' },
  { type: 'contact_channel.updated', summary: 'A contact channel was changed' },
  { type: 'contact_channel.deleted', summary: 'A contact channel was removed' },
  { type: 'session.created', summary: 'A server opened a session' },
  { type: 'session.revoked', summary: 'A session ended' },
  { type: 'passkey.added', summary: 'A passkey was added' },
  { type: 'passkey.removed', summary: 'A passkey was removed' },
];
