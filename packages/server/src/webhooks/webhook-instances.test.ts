/**
 * Webhook delivery when instances come and go: a worker that died mid-send,
 * a service stopped with messages pending, and two instances sharing one
 * PostgreSQL database.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leaseMs } from '../common/claim-loop.js';
import { createService } from '../service.js';
import { dbOf } from '../storage/open-storage.js';
import { authHeaders, call } from '../test-support/api.js';
import { testServiceForSuite } from '../test-support/backends.js';
import { postgresUp } from '../test-support/postgres.js';
import { twoInstances } from '../test-support/second-instance.js';
import {
  addWebhookEndpoint,
  type ReceivedWebhook,
  startWebhookReceiver,
  verifyWebhook,
  type WebhookReceiver,
} from '../test-support/webhooks.js';
import type { TestService } from '../testing/index.js';

async function newTeam(service: TestService, name: string): Promise<{ id: string }> {
  const answer = await call(service, 'POST', '/teams', {
    headers: authHeaders(service, 'server'),
    json: { display_name: name },
  });
  expect(answer.status, answer.text).toBe(201);
  return answer.body;
}

describe('webhook delivery after a crash or a restart', () => {
  const service = testServiceForSuite({ frozenClock: true });
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(() => receiver.close());

  it('sends again a message whose worker died while sending it, once the lease ran out', async () => {
    const endpoint = await addWebhookEndpoint(service, `${receiver.url}/crashed`, { eventTypes: ['team.created'] });
    const team = await newTeam(service, 'Crashed');
    const first = await receiver.next('/crashed');
    await service.deliverWebhooks();
    // As if the worker that sent it had died before recording the answer: `sending`, held until its lease ends.
    await dbOf(service.storage)
      .updateTable('webhook_messages')
      .set({ status: 'sending', delivered_at: null, next_attempt_at: new Date(service.clock.now() + leaseMs) })
      .where('endpoint_id', '=', endpoint.id)
      .execute();
    await service.deliverWebhooks();
    expect(receiver.received.filter((request) => request.path === '/crashed')).toHaveLength(1);
    service.clock.advance(leaseMs);
    await service.deliverWebhooks();
    const again = await receiver.next('/crashed');
    expect(again.headers['webhook-id']).toBe(first.headers['webhook-id']);
    expect(verifyWebhook(endpoint.secret, again, service.clock.now())).toMatchObject({ data: { id: team.id } });
  });

  it('delivers the messages a stopped service left pending once a new one starts on the database', async () => {
    const endpoint = await addWebhookEndpoint(service, `${receiver.url}/later`, { eventTypes: ['team.created'] });
    await service.service.close(); // its workers stop; requests still work
    const team = await newTeam(service, 'Pending');
    const pending = await dbOf(service.storage)
      .selectFrom('webhook_messages')
      .select('status')
      .where('endpoint_id', '=', endpoint.id)
      .execute();
    expect(pending.map((message) => message.status)).toEqual(['pending']);
    const arrived = receiver.next('/later');
    const restarted = createService({
      storage: service.storage,
      secret: service.secret,
      clock: service.clock,
      logger: false,
      development: true,
    });
    try {
      const request = await arrived; // the new instance's worker looks when it starts
      expect(verifyWebhook(endpoint.secret, request, service.clock.now())).toMatchObject({ data: { id: team.id } });
    } finally {
      await restarted.close();
    }
  });
});

describe.skipIf(!postgresUp)('webhook delivery by two instances on PostgreSQL', () => {
  const instances = twoInstances();
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(() => receiver.close());

  it('delivers each message once', async () => {
    const { first, second } = instances;
    const endpoints = [
      await addWebhookEndpoint(first, `${receiver.url}/a`, { eventTypes: ['team.created'] }),
      await addWebhookEndpoint(first, `${receiver.url}/b`, { eventTypes: ['team.created'] }),
      await addWebhookEndpoint(first, `${receiver.url}/c`, { eventTypes: ['team.created'] }),
    ];
    const teams = 12;
    for (let i = 0; i < teams; i++) await newTeam(i % 2 ? first : second, `Team ${i}`);
    await Promise.all([first.deliverWebhooks(), second.deliverWebhooks(), first.deliverWebhooks()]);
    await Promise.all([first.deliverWebhooks(), second.deliverWebhooks()]);
    const ids = receiver.received.map((request: ReceivedWebhook) => request.headers['webhook-id']);
    expect(ids).toHaveLength(teams * endpoints.length);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
