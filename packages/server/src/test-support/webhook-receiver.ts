/**
 * A webhook receiver on loopback (node:http) for tests: it keeps every
 * request it gets and answers each with the next scripted answer (200 when
 * none is left), and checks signatures with the `standardwebhooks` package,
 * as a customer's receiver would.
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
