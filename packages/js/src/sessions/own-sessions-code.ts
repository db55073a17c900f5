/**
 * The code of the signed-in user's sessions and security activity, loaded on
 * the first call of one of their methods or queries (`own-sessions.ts`).
 */
import type { AuditEventType, SecurityEventWire } from '@latchkey/protocol';
import type { WithScope } from '../auth/deferred.js';
import { type Fields, readFields } from '../internal/decode/fields.js';
import type { ClientScope } from '../users/account-data.js';
import { type SecurityEvent, type SessionActions, securityActivityQuery, sessionsQuery } from './own-sessions.js';
import { listSessions, revokeSession, type UserSession } from './sessions-api.js';

/** The methods of the sessions slice (`own-sessions.ts` loads them on a call). */
export const methods: WithScope<SessionActions> = {
  listSessions: (scope) => scope.data.load(sessionsQuery),
  async revokeOtherSessions(scope) {
    const others = (await ownSessions(scope)).filter((session) => !session.isCurrent);
    // One by one: each is the existing revocation, and a failure stops with the rest still listed.
    for (const session of others) await revokeSession(scope.send, session.id);
    await reloadAfterRevoking(scope);
  },
  listSecurityActivity: (scope) => scope.data.load(securityActivityQuery),
};

/** The signed-in user's sessions, each able to end itself (`sessionsQuery` loads them). */
export async function ownSessions(scope: ClientScope): Promise<UserSession[]> {
  const sessions = await listSessions(scope.send, 'me');
  return sessions.map((session) => ({
    ...session,
    async revoke() {
      await revokeSession(scope.send, session.id);
      // This device's session is over: signed out here too (the account's data is forgotten).
      if (session.isCurrent) scope.core.session.clear();
      else await reloadAfterRevoking(scope);
    },
  }));
}

/** The sessions and the activity (which now shows the sessions ended), read again. */
async function reloadAfterRevoking(scope: ClientScope): Promise<void> {
  await Promise.all([scope.data.reload(sessionsQuery), scope.data.reload(securityActivityQuery)]);
}

/** The signed-in user's security events (`securityActivityQuery` loads them). */
export function securityActivity(scope: ClientScope): Promise<SecurityEvent[]> {
  return scope.send({ method: 'GET', path: '/users/me/security-activity' }, decodeSecurityActivity);
}

/** Decodes the answer of `GET /users/me/security-activity` (`{items: [...]}`). */
function decodeSecurityActivity(body: unknown): SecurityEvent[] {
  return readFields<{ items: SecurityEventWire[] }, SecurityEvent[]>(body, (list) => list.list('items', readEvent));
}

function readEvent(event: Fields<SecurityEventWire>): SecurityEvent {
  return {
    id: event.string('id'),
    type: event.string('type') as AuditEventType,
    occurredAt: new Date(event.number('occurred_at_millis')),
    browser: event.stringOrNull('browser'),
    os: event.stringOrNull('os'),
    country: event.stringOrNull('country'),
    ipAddress: event.stringOrNull('ip_address'),
    method: event.stringOrNull('method'),
    provider: event.stringOrNull('provider'),
  };
}
