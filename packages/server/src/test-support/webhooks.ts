/**
 * Webhooks in tests: an endpoint stored as the admin routes store one
 * (`addWebhookEndpoint`), and a receiver on loopback (node:http) that keeps
 * every request it gets and answers each with the next scripted answer (200
 * when none is left), checking signatures with the `standardwebhooks`
 * package, as a customer's receiver would.
 *
 * @example
 * const receiver = await startWebhookReceiver();
 * receiver.answerWith({ status: 500 }, { status: 500 });
 * const first = await receiver.next('/hook');
 * expect(verifyWebhook(secret, first, service.clock.now())).toMatchObject({ type: 'team.created' });
 */
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { createSealer } from '../crypto/encryption.js';
import { dbOf } from '../storage/open-storage.js';
import type { TestService } from '../testing/index.js';
import { insertWebhookEndpoint } from '../webhooks/webhook-endpoint-store.js';
import { newWebhookSecret, sealWebhookSecret, webhookSecretPurpose } from '../webhooks/webhook-secrets.js';

/** An endpoint `addWebhookEndpoint` made, with its secret in the clear. */
export interface TestEndpoint {
  id: string;
  secret: string;
}

/**
 * Stores an endpoint of the test project (or `projectId`) posting to `url`,
 * subscribed to `eventTypes` (default: all), with a new secret sealed as the
 * service seals it.
 */
export async function addWebhookEndpoint(
  service: TestService,
  url: string,
  options: { eventTypes?: string[] | null; projectId?: string } = {},
): Promise<TestEndpoint> {
  const id = crypto.randomUUID();
  const secret = newWebhookSecret();
  await insertWebhookEndpoint(dbOf(service.storage), {
    id,
    projectId: options.projectId ?? service.projectId,
    url,
    description: 'test',
    eventTypes: options.eventTypes ?? null,
    secretSealed: sealWebhookSecret(createSealer(service.secret, webhookSecretPurpose), id, secret),
    enabled: true,
    now: service.clock.now(),
  });
  return { id, secret };
}

/** A request the receiver got. */
export interface ReceivedWebhook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** An answer the receiver gives. */
interface ScriptedAnswer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
}

export interface WebhookReceiver {
  /** `http://127.0.0.1:<port>`. */
  url: string;
  port: number;
  /** Every request so far, in order. */
  received: ReceivedWebhook[];
  /** The answers to give next, in order. */
  answerWith(...answers: ScriptedAnswer[]): void;
  /** The first request (to `path`, when given) not yet taken by `next`; resolves when one arrives. */
  next(path?: string): Promise<ReceivedWebhook>;
  close(): Promise<void>;
}

export async function startWebhookReceiver(): Promise<WebhookReceiver> {
  const received: ReceivedWebhook[] = [];
  const taken = new Set<ReceivedWebhook>();
  const script: ScriptedAnswer[] = [];
  const waiting: { path: string | undefined; resolve: (request: ReceivedWebhook) => void }[] = [];
  const matches = (request: ReceivedWebhook, path: string | undefined) =>
    !taken.has(request) && (path === undefined || request.path === path);
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const got = { path: request.url ?? '/', headers: request.headers, body: Buffer.concat(chunks).toString('utf8') };
      received.push(got);
      const answer = script.shift() ?? { status: 200, body: 'ok' };
      response.writeHead(answer.status, answer.headers ?? {});
      response.end(answer.body ?? '');
      const waiter = waiting.findIndex((entry) => matches(got, entry.path));
      if (waiter >= 0) {
        taken.add(got);
        waiting.splice(waiter, 1)[0]!.resolve(got);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    received,
    answerWith: (...answers) => script.push(...answers),
    next: (path) => {
      const ready = received.find((request) => matches(request, path));
      if (ready) {
        taken.add(ready);
        return Promise.resolve(ready);
      }
      return new Promise((resolve) => waiting.push({ path, resolve }));
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/**
 * The body of `request` when its signature verifies with `secret`, judged at
 * `now` (the service clock: the package checks the timestamp's age against
 * `Date.now`); throws otherwise.
 */
export function verifyWebhook(secret: string, request: ReceivedWebhook, now: number): unknown {
  const realNow = Date.now;
  Date.now = () => now;
  try {
    return new Webhook(secret).verify(request.body, request.headers as Record<string, string>);
  } finally {
    Date.now = realNow;
  }
}
