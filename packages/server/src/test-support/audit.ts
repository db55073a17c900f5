/** Reading the audit log in tests, as an admin reads it: `GET /audit-events`. */
import { expect } from 'vitest';
import type { TestService } from '../testing/index.js';
import { authHeaders, call } from './api.js';

/** An event as `GET /audit-events` answers it. */
export interface AuditEvent {
  id: string;
  type: string;
  occurred_at_millis: number;
  user_id: string | null;
  actor: { type: string; id: string | null };
  ip_address: string | null;
  user_agent: string | null;
  data: Record<string, unknown>;
}

/**
 * The events `GET /audit-events?<query>` answers (one page), newest first.
 *
 * @example
 * const [latest] = await auditEvents(service, { user_id: user.user_id, type: 'sign_in.failed' });
 */
export async function auditEvents(service: TestService, query: Record<string, string> = {}): Promise<AuditEvent[]> {
  const answer = await call(service, 'GET', `/audit-events?${new URLSearchParams(query)}`, {
    headers: authHeaders(service, 'admin'),
  });
  expect(answer.status, answer.text).toBe(200);
  return answer.body.items;
}

/** The types of the user's events, oldest first (the order they happened in). */
export async function auditTrail(service: TestService, userId: string): Promise<string[]> {
  return (await auditEvents(service, { user_id: userId })).map((event) => event.type).reverse();
}
