/** The admin routes about webhook messages: list, attempts, replay, test. */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders, call, expectKnownError } from '../test-support/api.js';
import { otherProjectForSuite, testServiceForSuite } from '../test-support/backends.js';
import {
  addWebhookEndpoint,
  startWebhookReceiver,
  verifyWebhook,
  type WebhookReceiver,
} from '../test-support/webhooks.js';
import type { TestService } from '../testing/index.js';

const addEndpoint = (service: TestService, url: string, projectId = service.projectId) =>
  addWebhookEndpoint(service, url, { eventTypes: ['team.created'], projectId });

describe('webhook message routes', () => {
  const service = testServiceForSuite({ frozenClock: true });
  const other = otherProjectForSuite(service);
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(() => receiver.close());
  const admin = () => ({ headers: authHeaders(service, 'admin') });

  it('lists an endpoint’s messages newest first, a page at a time, with their attempts', async () => {
    const endpoint = await addEndpoint(service, `${receiver.url}/list`);
    receiver.answerWith({ status: 500, body: 'not yet' });
    for (const name of ['One', 'Two', 'Three']) {
      await call(service, 'POST', '/teams', { headers: authHeaders(service, 'server'), json: { display_name: name } });
    }
    await service.deliverWebhooks();
    const first = await call(service, 'GET', `/webhooks/endpoints/${endpoint.id}/messages?limit=2`, admin());
    expect(first.status, first.text).toBe(200);
    expect(first.body.items.map((item: { event_type: string }) => item.event_type)).toEqual([
      'team.created',
      'team.created',
    ]);
    const cursor = first.body.pagination.next_cursor;
    const second = await call(
      service,
      'GET',
      `/webhooks/endpoints/${endpoint.id}/messages?limit=2&cursor=${cursor}`,
      admin(),
    );
    expect(second.body.items).toHaveLength(1);
    expect(second.body.pagination.next_cursor).toBeNull();
    const oldest = second.body.items[0];
    // The oldest failed once and waits for its retry; the others wait behind it.
    expect(oldest).toMatchObject({
      id: expect.stringMatching(/^msg_/),
      status: 'pending',
      attempts: 1,
      last_response_status: 500,
      last_error: 'the endpoint answered 500',
      delivered_at_millis: null,
      next_attempt_at_millis: expect.any(Number),
    });
    expect(first.body.items.map((item: { attempts: number }) => item.attempts)).toEqual([0, 0]);
    const attempts = await call(service, 'GET', `/webhooks/messages/${oldest.id}/attempts`, admin());
    expect(attempts.body.items).toEqual([
      {
        id: expect.any(String),
        attempted_at_millis: service.clock.now(),
        response_status: 500,
        latency_ms: expect.any(Number),
        response_excerpt: 'not yet',
        error: 'the endpoint answered 500',
      },
    ]);
  });

  it('sends a test message, and replays it under the same webhook-id', async () => {
    const endpoint = await addEndpoint(service, `${receiver.url}/test`);
    const queued = await call(service, 'POST', `/webhooks/endpoints/${endpoint.id}/test`, { ...admin(), json: {} });
    expect(queued.status, queued.text).toBe(200);
    expect(queued.body).toMatchObject({ event_type: 'webhook.test', status: 'pending', attempts: 0 });
    const sent = await receiver.next('/test');
    expect(verifyWebhook(endpoint.secret, sent, service.clock.now())).toEqual({
      type: 'webhook.test',
      timestamp: expect.any(String),
      data: { endpoint_id: endpoint.id },
    });
    expect(sent.headers['webhook-id']).toBe(queued.body.id);
    await service.deliverWebhooks();
    const replayed = await call(service, 'POST', `/webhooks/messages/${queued.body.id}/replay`, {
      ...admin(),
      json: {},
    });
    expect(replayed.body).toMatchObject({ id: queued.body.id, status: 'pending', attempts: 0 });
    const again = await receiver.next('/test');
    expect(again.headers['webhook-id']).toBe(sent.headers['webhook-id']);
    expect(again.body).toBe(sent.body);
    await service.deliverWebhooks();
    const attempts = await call(service, 'GET', `/webhooks/messages/${queued.body.id}/attempts`, admin());
    expect(attempts.body.items.map((item: { response_status: number }) => item.response_status)).toEqual([200, 200]);
  });

  it('answers not found for unknown ids and another project’s', async () => {
    const theirs = await addEndpoint(service, `${receiver.url}/theirs`, other.projectId);
    for (const id of [randomUUID(), 'not-an-id', theirs.id]) {
      const list = await call(service, 'GET', `/webhooks/endpoints/${id}/messages`, admin());
      expectKnownError(list, 'WEBHOOK_ENDPOINT_NOT_FOUND', 404);
      const test = await call(service, 'POST', `/webhooks/endpoints/${id}/test`, { ...admin(), json: {} });
      expectKnownError(test, 'WEBHOOK_ENDPOINT_NOT_FOUND', 404);
    }
    for (const id of [`msg_${randomUUID()}`, 'msg_x']) {
      expectKnownError(
        await call(service, 'GET', `/webhooks/messages/${id}/attempts`, admin()),
        'WEBHOOK_MESSAGE_NOT_FOUND',
        404,
      );
      const replay = await call(service, 'POST', `/webhooks/messages/${id}/replay`, { ...admin(), json: {} });
      expectKnownError(replay, 'WEBHOOK_MESSAGE_NOT_FOUND', 404);
    }
  });

  it('is for admins only', async () => {
    const endpoint = await addEndpoint(service, `${receiver.url}/admin`);
    const answer = await call(service, 'GET', `/webhooks/endpoints/${endpoint.id}/messages`, {
      headers: authHeaders(service, 'server'),
    });
    expectKnownError(answer, 'INSUFFICIENT_ACCESS_TYPE', 401);
  });
});
