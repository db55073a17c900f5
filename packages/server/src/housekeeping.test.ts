/** Housekeeping removes expired codes and old finished mails, and nothing that is still of use. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueCode } from './codes/codes.js';
import { pruneOnce, retention } from './housekeeping.js';
import { enqueueMail } from './mail/outbox-store.js';
import { outboxSealer } from './mail/sealed-mail.js';
import { dbOf } from './storage/open-storage.js';
import { startTestService, type TestService } from './testing/index.js';
import { insertWebhookEndpoint } from './webhooks/webhook-endpoint-store.js';
import { insertWebhookMessage } from './webhooks/webhook-message-store.js';

let service: TestService;
beforeAll(async () => {
  service = await startTestService();
});
afterAll(() => service.close());

const db = () => dbOf(service.storage);
const ids = async (table: 'verification_codes' | 'email_outbox') =>
  (await db().selectFrom(table).select('id').execute()).map((row) => row.id).sort();

describe('pruneOnce', () => {
  it('deletes codes a day after they expired, finished mails after 30 days and the bodies the dev mailbox keeps after a week, day-old failure counters, audit events after 400 days and finished webhook messages after 30 days, keeping the rest', async () => {
    const now = service.clock.now();
    const long = now - retention.finishedMailsMs - 60_000;
    const issue = (at: number) =>
      issueCode(db(), { projectId: service.projectId, purpose: 'magic_link', data: {}, now: at });
    const stale = await issue(now - retention.expiredCodesMs - 11 * 60_000); // expired over a day ago
    const late = await issue(now - 11 * 60_000); // expired a minute ago: still says "expired"
    const fresh = await issue(now);
    const mail = (at: number) =>
      enqueueMail(db(), outboxSealer(service.secret), {
        projectId: service.projectId,
        kind: 'test',
        to: 'a@example.com',
        subject: 's',
        html: '',
        text: '',
        now: at,
      });
    const old = await mail(long);
    const recent = await mail(now);
    const waiting = await mail(long);
    const lastWeek = await mail(now - retention.mailBodiesMs - 60_000);
    await service.deliverMail(); // all four delivered to the dev mailbox, which keeps their bodies: `sent`
    // One old mail still waiting for a retry must stay.
    await db()
      .updateTable('email_outbox')
      .set({ status: 'queued', next_attempt_at: new Date(now + 60 * 60_000) })
      .where('id', '=', waiting.id)
      .execute();

    await db()
      .insertInto('attempt_failures')
      .values([
        { key: 'old', failures: 7, last_failure_at: new Date(now - retention.attemptFailuresMs - 1) },
        { key: 'recent', failures: 7, last_failure_at: new Date(now - 60_000) },
      ])
      .execute();

    const event = (type: string, at: number) => ({
      project_id: service.projectId,
      type,
      occurred_at: new Date(at),
      user_id: null,
      actor_type: 'server',
      actor_id: null,
      ip: null,
      user_agent: null,
      data: '{}',
    });
    await db()
      .insertInto('audit_events')
      .values([event('user.deleted', now - retention.auditEventsMs - 1), event('user.created', now - 60_000)])
      .execute();

    // Webhook messages: finished ones go after 30 days, with their attempts; an old one still pending stays.
    const endpointId = crypto.randomUUID();
    await insertWebhookEndpoint(db(), {
      id: endpointId,
      projectId: service.projectId,
      url: 'https://example.com/hook',
      description: '',
      eventTypes: null,
      secretSealed: 'sealed',
      enabled: false,
      now,
    });
    const message = async (at: number, status: 'delivered' | 'failed' | 'pending') => {
      const row = await insertWebhookMessage(db(), {
        projectId: service.projectId,
        endpointId,
        type: 'webhook.test',
        payload: {},
        now: at,
      });
      await db().updateTable('webhook_messages').set({ status }).where('id', '=', row.id).execute();
      return row.id;
    };
    const oldWebhook = now - retention.finishedWebhookMessagesMs - 60_000;
    await message(oldWebhook, 'delivered');
    const pendingWebhook = await message(oldWebhook, 'pending');
    const recentWebhook = await message(now - 60_000, 'failed');

    expect(await pruneOnce(db(), now)).toEqual({
      codes: 1,
      mails: 1,
      mailBodies: 1,
      failures: 1,
      auditEvents: 1,
      webhookMessages: 1,
    });
    const webhookIds = await db()
      .selectFrom('webhook_messages')
      .select('id')
      .where('endpoint_id', '=', endpointId)
      .execute();
    expect(webhookIds.map((row) => row.id).sort()).toEqual([pendingWebhook, recentWebhook].sort());
    const events = await db()
      .selectFrom('audit_events')
      .select('type')
      .where('type', 'in', ['user.deleted', 'user.created'])
      .execute();
    expect(events.map((row) => row.type)).toEqual(['user.created']);
    expect((await db().selectFrom('attempt_failures').select('key').execute()).map((row) => row.key)).toEqual([
      'recent',
    ]);
    expect(await ids('verification_codes')).toEqual([late.id, fresh.id].sort());
    expect(await ids('email_outbox')).toEqual([recent.id, waiting.id, lastWeek.id].sort());
    const bodies = await db().selectFrom('email_outbox').select(['id', 'sealed_content']).execute();
    const kept = bodies.filter((row) => row.sealed_content !== null).map((row) => row.id);
    expect(kept.sort()).toEqual([recent.id, waiting.id].sort()); // a week on, the dev mailbox's body is gone
    expect((await ids('email_outbox')).includes(old.id)).toBe(false);
    expect((await ids('verification_codes')).includes(stale.id)).toBe(false);
  });
});
