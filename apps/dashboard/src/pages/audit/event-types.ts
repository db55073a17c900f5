/**
 * The event types the service keeps in the audit log: the audited rows of its
 * event catalogue (packages/server/src/events/catalogue.ts), by feature, with
 * the words the filter shows.
 */
export const auditEventGroups: readonly { group: string; types: readonly string[] }[] = [
  { group: 'Sign-in', types: ['sign_up', 'sign_in.succeeded', 'sign_in.failed'] },
  { group: 'Passwords', types: ['password.changed', 'password.reset', 'password.set'] },
  {
    group: 'Sessions',
    types: ['session.created', 'session.revoked', 'session.refresh_token_reused', 'impersonation.started'],
  },
  { group: 'API keys', types: ['api_key.created', 'api_key.revoked'] },
  { group: 'Project', types: ['project.updated', 'project.deleted'] },
  { group: 'Users', types: ['user.created', 'user.updated', 'user.deleted'] },
  { group: 'Connected accounts', types: ['oauth.connected', 'oauth.disconnected'] },
  {
    group: 'Contact channels',
    types: [
      'contact_channel.added',
      'contact_channel.removed',
      'contact_channel.verified',
      'contact_channel.updated',
      'contact_channel.detached',
    ],
  },
  {
    group: 'E-mail',
    types: ['email.test_sent', 'email_template.created', 'email_template.updated', 'email_template.reset'],
  },
  {
    group: 'Teams',
    types: ['team.created', 'team.updated', 'team.deleted', 'team.member_added', 'team.member_removed'],
  },
  {
    group: 'Permissions',
    types: [
      'team_permission.granted',
      'team_permission.revoked',
      'permission_definition.created',
      'permission_definition.updated',
      'permission_definition.deleted',
    ],
  },
  { group: 'Invitations', types: ['team_invitation.sent', 'team_invitation.revoked', 'team_invitation.accepted'] },
  {
    group: 'Passkeys and MFA',
    types: [
      'passkey.added',
      'passkey.renamed',
      'passkey.removed',
      'mfa.enabled',
      'mfa.disabled',
      'mfa.failed',
      'mfa.recovery_code_used',
      'mfa.recovery_codes_regenerated',
    ],
  },
  {
    group: 'Webhooks',
    types: [
      'webhook_endpoint.created',
      'webhook_endpoint.updated',
      'webhook_endpoint.deleted',
      'webhook_endpoint.secret_rotated',
      'webhook_token.issued',
    ],
  },
];

export const auditEventTypes: readonly string[] = auditEventGroups.flatMap(({ types }) => types);
