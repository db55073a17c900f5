/**
 * Webhook delivery end to end: real changes through the API become signed
 * POSTs to a real receiver on loopback, verified with the `standardwebhooks`
 * package as a customer's receiver would.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createSealer } from '../crypto/encryption.js';
import { act, operatorContext, record } from '../events/recorder.js';
import { dbOf } from '../storage/open-storage.js';
import { authHeaders, call, goodPassword, newEmail, userHeaders } from '../test-support/api.js';
import { testServiceForSuite } from '../test-support/backends.js';
import {
  addWebhookEndpoint,
  startWebhookReceiver,
  verifyWebhook,
  type WebhookReceiver,
} from '../test-support/webhooks.js';
import type { TestService } from '../testing/index.js';
import { SoftwareAuthenticator } from '../testing/software-authenticator.js';
import { disableWebhookEndpoint } from './webhook-endpoint-store.js';
import { type WebhookEventType, webhookEvents } from './webhook-events.js';
import { newWebhookSecret, rotationOverlapMs, sealWebhookSecret, webhookSecretPurpose } from './webhook-secrets.js';
import { excerptBytes, maxAttempts, retryDelaysMs } from './webhook-worker.js';

/** Endpoints made by the running test, turned off after it so that later tests hear only their own. */
let made: { service: TestService; id: string }[] = [];

afterEach(async () => {
  for (const { service, id } of made) {
    await disableWebhookEndpoint(dbOf(service.storage), service.projectId, id, 'test over', service.clock.now());
  }
  made = [];
});

async function addEndpoint(service: TestService, url: string, eventTypes: string[] | null = null) {
  const endpoint = await addWebhookEndpoint(service, url, { eventTypes });
  made.push({ service, id: endpoint.id });
  return endpoint;
}

const server = (service: TestService) => ({ headers: authHeaders(service, 'server') });

async function ok(answer: Promise<{ status: number; text: string; body: unknown }>) {
  const got = await answer;
  expect([200, 201], got.text).toContain(got.status);
  // biome-ignore lint/suspicious/noExplicitAny: tests read answers loosely.
  return got.body as any;
}

async function newUser(service: TestService) {
  return ok(
    call(service, 'POST', '/users', {
      ...server(service),
      json: { primary_email: newEmail(), password: goodPassword, primary_email_auth_enabled: true },
    }),
  );
}

async function newTeam(service: TestService, name = 'Team') {
  return ok(call(service, 'POST', '/teams', { ...server(service), json: { display_name: name } }));
}

/** Messages of an endpoint as stored, oldest first. */
function storedMessages(service: TestService, endpointId: string) {
  return dbOf(service.storage)
    .selectFrom('webhook_messages')
    .selectAll()
    .where('endpoint_id', '=', endpointId)
    .orderBy('seq')
    .execute();
}

function attemptsOf(service: TestService, messageId: string) {
  return dbOf(service.storage)
    .selectFrom('webhook_attempts')
    .selectAll()
    .where('message_id', '=', messageId)
    .orderBy('attempted_at')
    .execute();
}

type Body = { type: WebhookEventType; timestamp: string; data: Record<string, unknown> };

describe('webhook delivery', () => {
  const service = testServiceForSuite({ frozenClock: true, projectConfig: { passkey_enabled: true } });
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(() => receiver.close());

  it('sends every event type once, signed, with the documented payload', async () => {
    const endpoint = await addEndpoint(service, `${receiver.url}/all`);
    const seen = receiver.received.length;
    const user = await newUser(service);
    const path = `/users/${user.id}`;
    await ok(call(service, 'PATCH', path, { ...server(service), json: { display_name: 'Ada' } }));
    await ok(call(service, 'PATCH', path, { ...server(service), json: { password: 'another-horse-2' } }));
    const tokens = await ok(
      call(service, 'POST', '/auth/password/sign-in', {
        headers: authHeaders(service),
        json: { email: user.primary_email, password: 'another-horse-2' },
      }),
    );
    await ok(
      call(service, 'PATCH', path, {
        ...server(service),
        json: { totp_secret_base64: randomBytes(20).toString('base64') },
      }),
    );
    await ok(call(service, 'PATCH', path, { ...server(service), json: { totp_secret_base64: null } }));
    const own = { headers: userHeaders(service, tokens) };
    const started = await ok(
      call(service, 'POST', '/auth/passkey/initiate-passkey-registration', { ...own, json: {} }),
    );
    const credential = new SoftwareAuthenticator().register(started.options_json, { origin: 'http://localhost:3000' });
    await ok(call(service, 'POST', '/auth/passkey/register', { ...own, json: { credential, code: started.code } }));
    const [passkey] = (await ok(call(service, 'GET', '/users/me/passkeys', own))).items;
    await ok(call(service, 'DELETE', `/users/me/passkeys/${passkey.id}`, own));
    await ok(call(service, 'POST', '/auth/sessions', { ...server(service), json: { user_id: user.id } }));
    const sessions = await ok(call(service, 'GET', `/auth/sessions?user_id=${user.id}`, server(service)));
    const opened = sessions.items.at(-1).id as string;
    await ok(call(service, 'DELETE', `/auth/sessions/${opened}`, server(service)));
    const team = await newTeam(service, 'Engineers');
    await ok(call(service, 'PATCH', `/teams/${team.id}`, { ...server(service), json: { display_name: 'Builders' } }));
    const membership = `/team-memberships/${team.id}/${user.id}`;
    await ok(call(service, 'POST', membership, { ...server(service), json: {} }));
    await ok(
      call(service, 'POST', '/team-permission-definitions', {
        headers: authHeaders(service, 'admin'),
        json: { id: 'deploy' },
      }),
    );
    const permission = `/team-permissions/${team.id}/${user.id}/deploy`;
    await ok(call(service, 'POST', permission, { ...server(service), json: {} }));
    await ok(call(service, 'DELETE', permission, server(service)));
    await ok(call(service, 'DELETE', membership, server(service)));
    const channel = await ok(
      call(service, 'POST', '/contact-channels', {
        ...server(service),
        json: { user_id: user.id, type: 'email', value: newEmail('second'), used_for_auth: false, is_verified: false },
      }),
    );
    const channelPath = `/contact-channels/${user.id}/${channel.id}`;
    await ok(call(service, 'PATCH', channelPath, { ...server(service), json: { is_verified: true } }));
    await ok(call(service, 'DELETE', channelPath, server(service)));
    await ok(call(service, 'DELETE', `/teams/${team.id}`, server(service)));
    await ok(call(service, 'DELETE', path, server(service)));

    await service.deliverWebhooks();
    const got = receiver.received.slice(seen);
    const bodies = got.map((request) => verifyWebhook(endpoint.secret, request, service.clock.now()) as Body);
    expect(bodies.map((body) => body.type)).toEqual([
      'user.created',
      'user.updated',
      'user.password_changed',
      'user.signed_in',
      'user.mfa_enabled',
      'user.mfa_disabled',
      'passkey.added',
      'passkey.removed',
      'session.created',
      'session.revoked',
      'team.created',
      'team.updated',
      'team_membership.created',
      'team_permission.created',
      'team_permission.deleted',
      'team_membership.deleted',
      'contact_channel.created',
      'contact_channel.updated',
      'contact_channel.deleted',
      'team.deleted',
      'user.deleted',
    ]);
    for (const body of bodies) {
      expect(webhookEvents[body.type].data.safeParse(body.data).success, body.type).toBe(true);
      expect(new Date(body.timestamp).toISOString()).toBe(body.timestamp);
    }
    const of = (type: WebhookEventType) => bodies.find((body) => body.type === type)!.data;
    // Objects as they were when first sent: the worker sends as soon as the change commits.
    expect(of('user.created')).toMatchObject({ id: user.id, primary_email: user.primary_email });
    expect(of('team.created')).toMatchObject({ id: team.id });
    expect(of('team_membership.created')).toEqual({ team_id: team.id, user_id: user.id });
    expect(of('team_permission.created')).toEqual({ id: 'deploy', team_id: team.id, user_id: user.id });
    expect(of('contact_channel.deleted')).toEqual({ id: channel.id, user_id: user.id });
    expect(of('session.revoked')).toEqual({ id: opened, user_id: user.id });
    expect(of('user.signed_in')).toEqual({ user_id: user.id, method: 'password' });
    expect(of('user.deleted')).toEqual({ id: user.id });
    expect(of('passkey.added')).toEqual({ id: passkey.id, user_id: user.id });
    expect(of('passkey.removed')).toEqual({ id: passkey.id, user_id: user.id });
    expect(new Set(got.map((request) => request.headers['webhook-id'])).size).toBe(got.length);
  });

  it('sends an object as it is at the first attempt, in its server view', async () => {
    const endpoint = await addEndpoint(service, `${receiver.url}/objects`, ['user.created', 'team.created']);
    const user = await newUser(service);
    const team = await newTeam(service, 'Readers');
    await service.deliverWebhooks();
    const userBody = verifyWebhook(endpoint.secret, await receiver.next('/objects'), service.clock.now()) as Body;
    const teamBody = verifyWebhook(endpoint.secret, await receiver.next('/objects'), service.clock.now()) as Body;
    const shown = await ok(call(service, 'GET', `/users/${user.id}`, server(service)));
    expect(userBody).toEqual({ type: 'user.created', timestamp: expect.any(String), data: shown });
    expect(teamBody.data).toEqual(await ok(call(service, 'GET', `/teams/${team.id}`, server(service))));
    // Metadata never written is null in the payloads as in the answers.
    const unset = { client_metadata: null, client_read_only_metadata: null, server_metadata: null };
    expect(userBody.data).toMatchObject(unset);
    expect(teamBody.data).toMatchObject(unset);
  });

  it('retries a failed delivery with the same webhook-id and body, and keeps later messages waiting behind it', async () => {
    const endpoint = await addEndpoint(service, `${receiver.url}/flaky`, ['team.created']);
    receiver.answerWith({ status: 500, body: 'down' }, { status: 500, body: 'still down' });
    const seen = receiver.received.length;
    const first = await newTeam(service, 'First');
    await service.deliverWebhooks();
    const second = await newTeam(service, 'Second');
    await service.deliverWebhooks();
    expect(receiver.received.length - seen).toBe(1); // the second waits behind the first's retry
    service.clock.advance(retryDelaysMs[0]!);
    await service.deliverWebhooks();
    service.clock.advance(retryDelaysMs[1]!);
    await service.deliverWebhooks();
    const got = receiver.received.slice(seen);
    expect(got.map((request) => (JSON.parse(request.body) as Body).data.id)).toEqual([
      first.id,
      first.id,
      first.id,
      second.id,
    ]);
    expect(new Set(got.slice(0, 3).map((request) => request.headers['webhook-id'])).size).toBe(1);
    expect(new Set(got.slice(0, 3).map((request) => request.body)).size).toBe(1);
    expect(got[0]!.headers['webhook-id']).toMatch(/^msg_[0-9a-f-]{36}$/);
    // Each verified when it arrived: the clock moved past the first attempts' timestamps since.
    for (const request of got)
      verifyWebhook(endpoint.secret, request, Number(request.headers['webhook-timestamp']) * 1000);
    const [message] = await storedMessages(service, endpoint.id);
    expect(message).toMatchObject({ status: 'delivered', attempts: 3, last_response_status: 200, last_error: null });
    const attempts = await attemptsOf(service, message!.id);
    expect(attempts.map((attempt) => [attempt.response_status, attempt.response_excerpt])).toEqual([
      [500, 'down'],
      [500, 'still down'],
      [200, 'ok'],
    ]);
    expect(attempts[0]!.error).toMatch(/answered 500/);
  });

  it('gives up after the last retry and turns the endpoint off with the reason', async () => {
    const endpoint = await addEndpoint(service, `${receiver.url}/broken`, ['team.created']);
    receiver.answerWith(...retryDelaysMs.map(() => ({ status: 503 })), { status: 503 });
    await newTeam(service, 'Doomed');
    await service.deliverWebhooks();
    for (const delay of retryDelaysMs) {
      service.clock.advance(delay);
      await service.deliverWebhooks();
    }
    const [message] = await storedMessages(service, endpoint.id);
    expect(message).toMatchObject({ status: 'failed', attempts: maxAttempts, last_response_status: 503 });
    const row = await dbOf(service.storage)
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('id', '=', endpoint.id)
      .executeTakeFirstOrThrow();
    expect(row.enabled).toBe(false);
    expect(row.disabled_reason).toMatch(new RegExp(`failed ${maxAttempts} times.*answered 503`));
  });

  it('sends the waiting messages at once when an admin turns the endpoint back on', async () => {
    const endpoint = await addEndpoint(service, `${receiver.url}/revived`, ['team.created']);
    const patch = (enabled: boolean) =>
      ok(
        call(service, 'PATCH', `/webhooks/endpoints/${endpoint.id}`, {
          headers: authHeaders(service, 'admin'),
          json: { enabled },
        }),
      );
    receiver.answerWith({ status: 500, body: 'down' });
    const first = await newTeam(service, 'Waiting');
    await service.deliverWebhooks();
    expect((await receiver.next('/revived')).body).toContain(first.id);
    const second = await newTeam(service, 'Behind');
    await patch(false);
    await service.deliverWebhooks();
    expect(receiver.received.filter((request) => request.path === '/revived')).toHaveLength(1);
    await patch(true);
    // Neither the clock nor deliverWebhooks moves: the first waited for a retry 5 s on, the poll is 10 s away.
    const retried = await receiver.next('/revived');
    const after = await receiver.next('/revived');
    expect(
      [retried, after].map((request) => (verifyWebhook(endpoint.secret, request, service.clock.now()) as Body).data.id),
    ).toEqual([first.id, second.id]);
  }, 8_000); // under the 10 s safety-net poll: only the wake-up can deliver in time

  it('writes no message for a change that rolled back', async () => {
    const endpoint = await addEndpoint(service, `${receiver.url}/rollback`, ['team.created']);
    const ctx = operatorContext(dbOf(service.storage), null, service.projectId, service.clock);
    await expect(
      act(ctx, async (tx) => {
        await record(tx, 'team.created', { userId: null, data: { team_id: randomUUID() } });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect(await storedMessages(service, endpoint.id)).toEqual([]);
    await act(ctx, (tx) => record(tx, 'team.created', { userId: null, data: { team_id: randomUUID() } }));
    expect(await storedMessages(service, endpoint.id)).toHaveLength(1);
  });

  it('signs with both secrets while a rotation overlaps', async () => {
    const endpoint = await addEndpoint(service, `${receiver.url}/rotated`, ['team.created']);
    const next = newWebhookSecret();
    const sealer = createSealer(service.secret, webhookSecretPurpose);
    const db = dbOf(service.storage);
    const row = await db
      .selectFrom('webhook_endpoints')
      .selectAll()
      .where('id', '=', endpoint.id)
      .executeTakeFirstOrThrow();
    await db
      .updateTable('webhook_endpoints')
      .set({
        secret_sealed: sealWebhookSecret(sealer, endpoint.id, next),
        previous_secret_sealed: row.secret_sealed,
        previous_secret_expires_at: new Date(service.clock.now() + rotationOverlapMs),
      })
      .where('id', '=', endpoint.id)
      .execute();
    await newTeam(service, 'Rotated');
    const request = await receiver.next('/rotated');
    expect(String(request.headers['webhook-signature']).split(' ')).toHaveLength(2);
    expect(verifyWebhook(next, request, service.clock.now())).toMatchObject({ type: 'team.created' });
    expect(verifyWebhook(endpoint.secret, request, service.clock.now())).toMatchObject({ type: 'team.created' });
    expect(() => verifyWebhook(newWebhookSecret(), request, service.clock.now())).toThrow();
  });

  it('does not follow a redirect, and keeps only the start of a long answer', async () => {
    const endpoint = await addEndpoint(service, `${receiver.url}/moved`, ['team.created']);
    receiver.answerWith(
      { status: 302, headers: { location: `${receiver.url}/elsewhere` } },
      { status: 200, body: 'x'.repeat(10_000) },
    );
    const seen = receiver.received.length;
    await newTeam(service, 'Moved');
    await service.deliverWebhooks();
    expect(receiver.received.slice(seen).map((request) => request.path)).toEqual(['/moved']);
    service.clock.advance(retryDelaysMs[0]!);
    await service.deliverWebhooks();
    const [message] = await storedMessages(service, endpoint.id);
    const attempts = await attemptsOf(service, message!.id);
    expect(attempts[0]).toMatchObject({
      response_status: 302,
      error: expect.stringMatching(/redirects are not followed/),
    });
    expect(attempts[1]).toMatchObject({ response_status: 200, error: null });
    expect(attempts[1]!.response_excerpt).toBe('x'.repeat(excerptBytes));
  });
});

describe('webhook delivery to a private address the operator did not allow', () => {
  const service = testServiceForSuite({ frozenClock: true, allowPrivateNetwork: false });
  let receiver: WebhookReceiver;
  beforeAll(async () => {
    receiver = await startWebhookReceiver();
  });
  afterAll(() => receiver.close());

  it('refuses a name that resolves to 127.0.0.1 when connecting, records why, and sends nothing', async () => {
    const endpoint = await addEndpoint(service, `http://localhost:${receiver.port}/hook`, ['team.created']);
    await newTeam(service, 'Private');
    await service.deliverWebhooks();
    expect(receiver.received).toEqual([]);
    const [message] = await storedMessages(service, endpoint.id);
    expect(message).toMatchObject({ status: 'pending', attempts: 1, last_response_status: null });
    const [attempt] = await attemptsOf(service, message!.id);
    expect(attempt!.error).toMatch(/private, loopback or link-local/);
  });
});
