/**
 * The webhook worker: delivers the messages of `webhook_messages`, at least
 * once, on every instance (the loop, lease and back-off every outbox shares:
 * `common/claim-loop.ts`). An endpoint gets its messages oldest first, one at
 * a time: a later one waits while an earlier one waits for its retry
 * (`claimDueWebhookMessages`).
 *
 * A message is signed the Standard Webhooks way (`webhook-id` = `msg_<id>`,
 * the same on every attempt and replay; `webhook-timestamp`;
 * `webhook-signature`, one `v1,<base64 HMAC-SHA256>` per secret that signs
 * now, space-separated: two during a rotation's overlap) and POSTed through
 * the outbound guard (`net/outbound-guard.ts`: private, loopback and
 * link-local addresses are refused when connecting, unless the operator
 * allows the private network). A redirect is not followed (it fails the
 * attempt), the attempt has `timeoutMs` in all, and at most
 * `excerptBytes` of the answer are read and kept. A 2xx answer delivers;
 * anything else is tried again after `retryDelaysMs` (about a day in all),
 * after which the message fails for good and its endpoint is turned off with
 * the reason (an admin turns it back on; its later messages wait meanwhile).
 * Every attempt is kept in `webhook_attempts`.
 */
import type { Logger } from 'pino';
import { Webhook } from 'standardwebhooks';
import { ClaimLoop, leaseMs, retryAt } from '../common/claim-loop.js';
import type { Clock } from '../common/clock.js';
import type { Sealer } from '../crypto/encryption.js';
import { isAddressNotAllowed, type OutboundNetwork } from '../net/outbound-guard.js';
import type { ChangeFeed } from '../storage/change-feed.js';
import type { Db } from '../storage/db.js';
import type { WebhookMessageRow } from '../storage/schema.js';
import { disableWebhookEndpoint, findWebhookEndpoint } from './webhook-endpoint-store.js';
import {
  claimDueWebhookMessages,
  recordWebhookAttempt,
  releaseWebhookMessages,
  saveWebhookPayload,
} from './webhook-message-store.js';
import { renderWebhookPayload } from './webhook-payloads.js';
import { signingSecrets } from './webhook-secrets.js';

const second = 1000;
const minute = 60 * second;
const hour = 60 * minute;

/** Waits after the 1st, 2nd, ... failed attempt: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h (a little over a day). */
export const retryDelaysMs: readonly number[] = [
  5 * second,
  5 * minute,
  30 * minute,
  2 * hour,
  5 * hour,
  10 * hour,
  10 * hour,
];

/** Attempts before a message fails for good. */
export const maxAttempts = retryDelaysMs.length + 1;

/** An attempt's whole time: connecting, sending and reading the answer. */
const timeoutMs = 10 * second;

/** The most of an answer read and kept. */
export const excerptBytes = 2048;

/** The `webhook-id` of a message: the same on every attempt and replay. */
export function webhookMessageId(id: string): string {
  return `msg_${id}`;
}

/** Options of `WebhookWorker`. */
export interface WebhookWorkerOptions {
  db: Db;
  clock: Clock;
  feed: ChangeFeed;
  /** Opens the endpoints' signing secrets (`webhook-secrets.ts`). */
  sealer: Sealer;
  outbound: OutboundNetwork;
  logger: Logger | null;
  /** Real-time interval of the safety-net pass, which also sends retries that came due (default 10 s). */
  pollIntervalMs?: number;
}

/** Delivers webhook messages; `start` it once, `close` it before closing the storage. */
export class WebhookWorker {
  readonly #loop: ClaimLoop<WebhookMessageRow>;

  constructor(private readonly options: WebhookWorkerOptions) {
    const { db, clock } = options;
    this.#loop = new ClaimLoop({
      queue: {
        name: 'webhook',
        wakeOn: 'webhook',
        // A batch holds at most one message per endpoint: a slow endpoint does not hold up the others.
        concurrent: true,
        claim: (limit) => {
          const now = clock.now();
          return claimDueWebhookMessages(db, { now, leaseUntil: now + leaseMs, limit });
        },
        deliver: (row) => this.#deliver(row),
        release: (rows) =>
          releaseWebhookMessages(
            db,
            rows.map((row) => row.id),
            clock.now(),
          ),
      },
      feed: options.feed,
      logger: options.logger,
      pollIntervalMs: options.pollIntervalMs ?? 10_000,
    });
  }

  /** Listens for new messages, starts the safety-net timer and runs a pass. */
  start(): void {
    this.#loop.start();
  }

  /** Runs passes until no message is due (by the service clock); resolves when done. */
  deliverNow(): Promise<void> {
    return this.#loop.deliverNow();
  }

  /** Stops listening and the timer, and waits for the message being sent. */
  close(): Promise<void> {
    return this.#loop.close();
  }

  async #deliver(message: WebhookMessageRow): Promise<void> {
    const { db, clock, sealer, outbound, logger } = this.options;
    const endpoint = await findWebhookEndpoint(db, message.project_id, message.endpoint_id);
    if (!endpoint) return; // Deleted meanwhile: its messages went with it.
    let payload = message.payload;
    if (payload === null) {
      payload = await renderWebhookPayload(db, message);
      await saveWebhookPayload(db, message.id, payload);
    }
    // Keys sorted: the stored body comes back from the database in its own key order, and every attempt sends the same bytes.
    const body = sortedJson(payload);
    const sentAt = clock.now();
    const id = webhookMessageId(message.id);
    const started = performance.now();
    let responseStatus: number | null = null;
    let excerpt: string | null = null;
    let error: string | null = null;
    try {
      const signature = signingSecrets(sealer, endpoint, sentAt)
        .map((secret) => sign(secret, id, sentAt, body))
        .join(' ');
      const response = await outbound.fetch(endpoint.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Latchkey-Webhooks/1',
          'webhook-id': id,
          'webhook-timestamp': String(Math.floor(sentAt / 1000)),
          'webhook-signature': signature,
        },
        body,
        redirect: 'manual',
        signal: AbortSignal.timeout(timeoutMs),
      });
      responseStatus = response.status;
      excerpt = await readExcerpt(response);
      if (responseStatus >= 300 && responseStatus < 400)
        error = `the endpoint redirected (${responseStatus}); redirects are not followed`;
      else if (responseStatus < 200 || responseStatus >= 300) error = `the endpoint answered ${responseStatus}`;
    } catch (failure) {
      error = describeFailure(failure);
    }
    const delivered = error === null;
    const now = clock.now();
    const next = delivered ? null : retryAt(message.attempts, retryDelaysMs, now);
    await recordWebhookAttempt(db, message, {
      now,
      responseStatus,
      latencyMs: performance.now() - started,
      excerpt,
      error,
      delivered,
      retryAt: next,
    });
    if (!delivered) {
      logger?.warn(
        { messageId: message.id, attempts: message.attempts, gaveUp: next === null, error },
        'webhook delivery failed',
      );
    }
    if (!delivered && next === null) {
      const reason = `a message failed ${message.attempts} times over a day; last: ${error}`;
      await disableWebhookEndpoint(db, endpoint.project_id, endpoint.id, reason.slice(0, 500), now);
    }
  }
}

/** `value` as JSON text with every object's keys sorted. */
function sortedJson(value: unknown): string {
  return JSON.stringify(value, (_, item: unknown) =>
    item && typeof item === 'object' && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

/**
 * The `webhook-signature` entry of one secret: signed with the
 * `standardwebhooks` package, the Standard Webhooks reference implementation
 * (the same code receivers verify with), so our signing cannot drift from the
 * scheme's details (secret decoding, the signed content's form).
 */
function sign(secret: string, id: string, at: number, body: string): string {
  return new Webhook(secret).sign(id, new Date(at), body);
}

/** The start of an answer's body, at most `excerptBytes`, as text; the rest is not read. */
async function readExcerpt(response: Response): Promise<string | null> {
  if (!response.body) return null;
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    while (size < excerptBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      size += value.byteLength;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  const bytes = Buffer.concat(chunks).subarray(0, excerptBytes);
  return bytes.length === 0 ? null : bytes.toString('utf8');
}

/** What went wrong, in words for the admin (never a secret: the request carried none but the signature). */
function describeFailure(failure: unknown): string {
  if (isAddressNotAllowed(failure)) {
    return "the endpoint's address is on a private, loopback or link-local network, which this server may not reach";
  }
  const error = failure as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (error?.name === 'TimeoutError' || error?.name === 'AbortError') return `no answer within ${timeoutMs / 1000} s`;
  const cause = error?.cause;
  const detail = cause?.code ?? cause?.message ?? error?.message ?? String(failure);
  return `the request failed: ${detail}`.slice(0, 500);
}
