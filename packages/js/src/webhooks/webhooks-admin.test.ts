/**
 * `AdminApp`'s webhook administration: the endpoint routes against the real
 * service (in-process), and the message routes over recorded answers.
 */
import { headers, isKnownError } from '@latchkey/protocol';
import { describe, expect, it } from 'vitest';
import { AdminApp } from '../admin-app.js';
import { jsonAnswer, knownErrorAnswer } from '../test-support/answers.js';
import { type RecordedRequest, recordRequest } from '../test-support/recorded-request.js';
import { createTestAdminApp } from '../test-support/server-apps.js';
import { useTestService } from '../test-support/service.js';
import { webhookAttemptsQuery } from './webhooks-admin.js';

const service = useTestService();

describe('AdminApp webhook endpoints', { timeout: 30_000 }, () => {
  it('creates an endpoint with its secret once, then lists, reads, changes and deletes it', async () => {
    const { app } = createTestAdminApp(service());
    const created = await app.createWebhookEndpoint({
      url: 'https://hooks.example.com/in',
      description: 'CRM',
      eventTypes: ['user.created'],
    });
    expect(created).toEqual({
      id: expect.any(String),
      url: 'https://hooks.example.com/in',
      description: 'CRM',
      eventTypes: ['user.created'],
      enabled: true,
      disabledReason: null,
      createdAt: expect.any(Date),
      updatedAt: expect.any(Date),
      secret: expect.stringMatching(/^whsec_/),
    });
    const { secret: _, ...endpoint } = created;
    expect(await app.listWebhookEndpoints()).toContainEqual(endpoint);
    expect(await app.getWebhookEndpoint(created.id)).toEqual(endpoint);

    const changed = await app.updateWebhookEndpoint(created.id, { eventTypes: null, enabled: false });
    expect(changed).toMatchObject({ id: created.id, eventTypes: null, enabled: false, description: 'CRM' });

    await app.deleteWebhookEndpoint(created.id);
    expect(await app.getWebhookEndpoint(created.id)).toBeNull();
    const error = await app.deleteWebhookEndpoint(created.id).catch((caught: unknown) => caught);
    expect(isKnownError(error, 'WEBHOOK_ENDPOINT_NOT_FOUND')).toBe(true);
  });

  it('rotates a secret, the old one signing for a day more', async () => {
    const { app } = createTestAdminApp(service());
    const created = await app.createWebhookEndpoint({ url: 'https://hooks.example.com/rotate' });
    const before = service().clock.now();
    const rotated = await app.rotateWebhookSecret(created.id);
    const after = service().clock.now();
    expect(rotated.secret).toMatch(/^whsec_/);
    expect(rotated.secret).not.toBe(created.secret);
    const overlap = rotated.previousSecretExpiresAt.getTime() - 24 * 60 * 60_000;
    expect(overlap).toBeGreaterThanOrEqual(before);
    expect(overlap).toBeLessThanOrEqual(after);
  });

  it('throws a refused URL as a KnownError, creating nothing', async () => {
    const { app } = createTestAdminApp(service());
    const before = await app.listWebhookEndpoints();
    const error = await app
      .createWebhookEndpoint({ url: 'ftp://hooks.example.com' })
      .catch((caught: unknown) => caught);
    expect(isKnownError(error, 'SCHEMA_ERROR')).toBe(true);
    expect(await app.listWebhookEndpoints()).toEqual(before);
  });

  it('gets a webhook token that opens the webhook routes without the admin key', async () => {
    const { app } = createTestAdminApp(service());
    const token = await app.getSvixToken();
    const answer = await fetch(`${service().url}/api/v1/webhooks/endpoints`, {
      headers: {
        [headers.projectId]: service().projectId,
        [headers.accessType]: 'admin',
        authorization: `Bearer ${token}`,
      },
    });
    expect(answer.status).toBe(200);
    const body = await answer.json();
    expect(body.items.length).toBe((await app.listWebhookEndpoints()).length);
  });
});

const message = {
  id: '9f0f3a52-8c1e-4f7e-9b43-3f0f6c1d2a10',
  event_type: 'user.created',
  status: 'failed',
  attempts: 3,
  next_attempt_at_millis: null,
  last_response_status: 500,
  last_error: 'the receiver answered 500',
  created_at_millis: 1_795_456_980_000,
  delivered_at_millis: null,
};

/** An `AdminApp` answered from `table` by `METHOD /path`, recording its requests. */
function answeredAdminApp(table: Record<string, Response>) {
  const requests: RecordedRequest[] = [];
  const app = new AdminApp({
    projectId: 'project-answers',
    baseUrl: 'https://auth.example.com',
    superSecretAdminKey: 'sak_answers',
    fetch: async (input, init) => {
      const request = recordRequest(input, init);
      requests.push(request);
      const answer = table[`${request.method} ${request.path.replace('/api/v1', '')}`];
      if (!answer) throw new TypeError('Failed to fetch');
      return answer.clone();
    },
  });
  return { app, requests };
}

describe('AdminApp webhook messages (recorded answers)', () => {
  const endpointId = '2b8c6a1e-5d4f-4a3b-9c2d-1e0f9a8b7c6d';

  it('lists an endpoint page by page, with the cursor it was given', async () => {
    const { app, requests } = answeredAdminApp({
      [`GET /webhooks/endpoints/${endpointId}/messages`]: jsonAnswer({
        items: [message, { ...message, id: 'm-2', status: 'delivered', delivered_at_millis: 1_795_456_990_000 }],
        is_paginated: true,
        pagination: { next_cursor: 'next-page' },
      }),
    });
    const page = await app.listWebhookMessages(endpointId, { limit: 2, cursor: 'first' });
    expect(page.nextCursor).toBe('next-page');
    expect(page.items[0]).toEqual({
      id: message.id,
      eventType: 'user.created',
      status: 'failed',
      attempts: 3,
      nextAttemptAt: null,
      lastResponseStatus: 500,
      lastError: 'the receiver answered 500',
      createdAt: new Date(1_795_456_980_000),
      deliveredAt: null,
    });
    expect(page.items[1]?.deliveredAt).toEqual(new Date(1_795_456_990_000));
    expect(requests[0]?.query).toEqual({ limit: '2', cursor: 'first' });
    expect(requests[0]?.headers[headers.accessType]).toBe('admin');
  });

  it('lists the attempts of a message, also as a query', async () => {
    const { app, requests } = answeredAdminApp({
      [`GET /webhooks/messages/${message.id}/attempts`]: jsonAnswer({
        items: [
          {
            id: 'a-1',
            attempted_at_millis: 1_795_456_981_000,
            response_status: 500,
            latency_ms: 42,
            response_excerpt: 'oops',
            error: null,
          },
          {
            id: 'a-2',
            attempted_at_millis: 1_795_456_982_000,
            response_status: null,
            latency_ms: 10_000,
            response_excerpt: null,
            error: 'timed out',
          },
        ],
      }),
    });
    expect(await app.listWebhookAttempts(message.id)).toEqual([
      {
        id: 'a-1',
        attemptedAt: new Date(1_795_456_981_000),
        responseStatus: 500,
        latencyMs: 42,
        responseExcerpt: 'oops',
        error: null,
      },
      {
        id: 'a-2',
        attemptedAt: new Date(1_795_456_982_000),
        responseStatus: null,
        latencyMs: 10_000,
        responseExcerpt: null,
        error: 'timed out',
      },
    ]);
    const query = webhookAttemptsQuery(message.id);
    expect(query.key).toEqual(['webhookAttempts', message.id]);
    expect(await app.load(query)).toEqual(await app.listWebhookAttempts(message.id));
    expect(requests.map((request) => `${request.method} ${request.path.replace('/api/v1', '')}`)).toEqual(
      Array(3).fill(`GET /webhooks/messages/${message.id}/attempts`),
    );
  });

  it('replays a message and sends a test event, each posting {} and reading the message back', async () => {
    const pending = { ...message, status: 'pending', next_attempt_at_millis: 1_795_457_000_000 };
    const { app, requests } = answeredAdminApp({
      [`POST /webhooks/messages/${message.id}/replay`]: jsonAnswer(pending),
      [`POST /webhooks/endpoints/${endpointId}/test`]: jsonAnswer({ ...pending, event_type: 'webhook.test' }),
    });
    expect(await app.replayWebhookMessage(message.id)).toMatchObject({
      status: 'pending',
      nextAttemptAt: new Date(1_795_457_000_000),
    });
    expect((await app.sendTestWebhook(endpointId)).eventType).toBe('webhook.test');
    expect(requests.map((request) => request.body)).toEqual([{}, {}]);
  });

  it('refuses a malformed message, and throws a known error as one', async () => {
    const { app } = answeredAdminApp({
      [`POST /webhooks/messages/${message.id}/replay`]: jsonAnswer({ ...message, status: 'lost' }),
      'GET /webhooks/messages/unknown/attempts': knownErrorAnswer('SCHEMA_ERROR'),
    });
    await expect(app.replayWebhookMessage(message.id)).rejects.toThrow('status');
    const error = await app.listWebhookAttempts('unknown').catch((caught: unknown) => caught);
    expect(isKnownError(error, 'SCHEMA_ERROR')).toBe(true);
  });
});
