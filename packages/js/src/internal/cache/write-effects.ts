/**
 * What a write changes, for the caches of the server-side audiences: after
 * every successful request other than a `GET`, the audience invalidates the
 * query keys (and the keys below them) that this table gives for the
 * resource written to, the first segment of its path (`internal/<second>`
 * below `/internal`). Every write is also recorded in the audit log and may
 * send mail or change the metrics. A resource the table does not know
 * invalidates everything: data is never left stale by a write we forgot.
 */

import type { QueryKey } from '../../query.js';
import type { Send } from '../core.js';
import type { DataStore } from './data-store.js';

const changes: Readonly<Record<string, readonly string[]>> = {
  users: ['users', 'user', 'teams', 'team'],
  'contact-channels': ['users', 'user'],
  'connected-accounts': ['users', 'user'],
  auth: ['users', 'user'],
  teams: ['teams', 'team', 'users', 'user'],
  'team-memberships': ['teams', 'team', 'users', 'user'],
  'team-member-profiles': ['team'],
  'team-permissions': ['team', 'user'],
  'team-permission-definitions': ['permissionDefinitions', 'team', 'user'],
  'team-invitations': ['team'],
  'email-templates': ['emailTemplates'],
  projects: ['project'],
  'internal/api-keys': ['apiKeySets'],
  'internal/projects': ['ownedProjects'],
  'internal/send-test-email': [],
};

/** What every write may change besides its resource. */
const everyWrite = ['auditEvents', 'sentEmails', 'metrics'];

/** Requests sent as a `POST` that change nothing: a template preview, a provider access token. */
const reads = /\/(preview|access-token)$/;

/** The keys a successful `method` request to `path` (below `/api/v1`) makes out of date. */
export function keysChangedBy(method: string, path: string): QueryKey[] {
  if (method === 'GET' || reads.test(path)) return [];
  const [first = '', second = ''] = path.split('?')[0]!.split('/').filter(Boolean);
  const resource = first === 'internal' ? `${first}/${second}` : first;
  const roots = changes[resource];
  if (!roots) return [[]];
  return [...roots, ...everyWrite].map((root) => [root]);
}

/** `send`, followed after each successful write by the invalidation of what it changed (awaited). */
export function invalidatingWrites<S>(send: Send, data: DataStore<S>): Send {
  return async (request, decode) => {
    const answer = await send(request, decode);
    await Promise.all(keysChangedBy(request.method, request.path).map((key) => data.invalidate(key)));
    return answer;
  };
}
