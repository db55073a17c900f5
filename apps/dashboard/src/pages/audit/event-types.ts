/**
 * The audit log's event types (`auditEventTypes` of `@latchkey/protocol`,
 * which the service's catalogue must match) grouped for the filter by the
 * part of their name before the dot, in the protocol's order, with the words
 * the filter shows for each group. A new type lands in its group, or in a
 * group of its own named by that part, with no change here.
 */
import { auditEventTypes } from '@latchkey/protocol';

const groupNames: Record<string, string> = {
  sign_up: 'Sign-in',
  sign_in: 'Sign-in',
  password: 'Passwords',
  session: 'Sessions',
  impersonation: 'Sessions',
  api_key: 'API keys',
  project: 'Project',
  user: 'Users',
  oauth: 'Connected accounts',
  contact_channel: 'Contact channels',
  email: 'E-mail',
  email_template: 'E-mail',
  team: 'Teams',
  team_permission: 'Permissions',
  permission_definition: 'Permissions',
  team_invitation: 'Invitations',
  passkey: 'Passkeys and MFA',
  mfa: 'Passkeys and MFA',
  webhook_endpoint: 'Webhooks',
  webhook_token: 'Webhooks',
};

function groupOf(type: string): string {
  const prefix = type.split('.')[0]!;
  return groupNames[prefix] ?? prefix;
}

export const auditEventGroups: readonly { group: string; types: readonly string[] }[] = [
  ...auditEventTypes.reduce((groups, type) => {
    const group = groupOf(type);
    groups.set(group, [...(groups.get(group) ?? []), type]);
    return groups;
  }, new Map<string, string[]>()),
].map(([group, types]) => ({ group, types }));
