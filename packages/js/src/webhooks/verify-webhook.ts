/**
 * `verifyWebhook`: checks that a POST came from the service, in the Standard
 * Webhooks form any Svix-compatible library reads (`webhook-id`,
 * `webhook-timestamp`, `webhook-signature: v1,<base64 HMAC-SHA256 of
 * "id.timestamp.body">`, `whsec_` secrets), refuses a timestamp more than
 * five minutes from now (a replayed capture), and returns the event, typed by
 * its `type`.
 *
 * The HMAC is checked with Web Crypto (`crypto.subtle.verify`), which
 * compares in constant time, rather than with the `standardwebhooks`
 * package: the same check in a few dozen lines and no dependency, and it runs
 * wherever server code does (Node, Deno, Bun, workers). The tests sign with
 * that package, so the two agree.
 */
import type { ContactChannelWire, ServerTeamWire, ServerUserWire } from '@latchkey/protocol';
import { headerReader } from '../internal/session/request-tokens.js';
import type { HeadersLike } from '../server-types.js';

/** How far a webhook's timestamp may be from now, either way. */
const toleranceSeconds = 5 * 60;

/** An object deleted before its message was first sent: its id alone (`'display_name' in data` tells them apart). */
export interface WebhookObjectGone {
  id: string;
}

/**
 * The `data` of each event type, as the service sends it (wire names, as in
 * the API's answers). Users, teams and contact channels are the server's
 * view of them as they were when the message was first sent, as Stack Auth
 * sends them (or, deleted before that, their ids alone: `WebhookObjectGone`); the events
 * Stack Auth lacks carry the ids of what changed.
 *
 * @example
 * ```ts
 * const onCreated = (user: WebhookEventData['user.created']) => {
 *   if ('primary_email' in user) crm.upsert(user.id, user.primary_email); // else: deleted meanwhile
 * };
 * ```
 */
export interface WebhookEventData {
  'user.created': ServerUserWire | WebhookObjectGone;
  'user.updated': ServerUserWire | WebhookObjectGone;
  'user.deleted': { id: string };
  'team.created': ServerTeamWire | WebhookObjectGone;
  'team.updated': ServerTeamWire | WebhookObjectGone;
  'team.deleted': { id: string };
  'team_membership.created': { team_id: string; user_id: string };
  'team_membership.deleted': { team_id: string; user_id: string };
  /** `id`: the permission's id (`'deploy'`), not a UUID. */
  'team_permission.created': { id: string; team_id: string; user_id: string };
  'team_permission.deleted': { id: string; team_id: string; user_id: string };
  'contact_channel.created': ContactChannelWire | (WebhookObjectGone & { user_id: string });
  'contact_channel.updated': ContactChannelWire | (WebhookObjectGone & { user_id: string });
  'contact_channel.deleted': { id: string; user_id: string };
  'session.created': { id: string; user_id: string };
  'session.revoked': { id: string; user_id: string };
  'user.signed_in': {
    user_id: string;
    method: 'password' | 'otp' | 'oauth' | 'password_reset' | 'passkey';
    /** With `method: 'oauth'`: the provider's id. */
    provider?: string;
    /** When the sign-in took a second factor. */
    second_factor?: 'totp' | 'recovery_code';
  };
  'user.password_changed': { user_id: string };
  'user.mfa_enabled': { user_id: string };
  'user.mfa_disabled': { user_id: string };
  'passkey.added': { id: string; user_id: string };
  'passkey.removed': { id: string; user_id: string };
  /** Sent only when an admin asks for a test (`POST /webhooks/endpoints/{endpoint_id}/test`). */
  'webhook.test': { endpoint_id: string };
}

/**
 * A public webhook event type, one an endpoint subscribes to (every key of
 * `WebhookEventData` but `webhook.test`, which goes to any endpoint tested).
 *
 * @example
 * ```ts
 * const subscribed: WebhookEventType[] = ['user.created', 'user.deleted'];
 * ```
 */
export type WebhookEventType = Exclude<keyof WebhookEventData, 'webhook.test'>;

/**
 * A verified webhook: narrow it by `type` to read its `data`.
 *
 * @example
 * ```ts
 * const event: WebhookEvent = await verifyWebhook(request, secret);
 * if (event.type === 'user.created' && 'primary_email' in event.data) console.log(event.data.primary_email);
 * ```
 */
export type WebhookEvent = {
  [T in keyof WebhookEventData]: {
    type: T;
    data: WebhookEventData[T];
    /** When the event happened (ISO 8601). */
    timestamp: string;
  };
}[keyof WebhookEventData];

/**
 * Why a webhook was refused: no or malformed webhook headers, a timestamp too
 * far from now, no signature made with these secrets, or a body that is not
 * an event.
 *
 * @example
 * ```ts
 * try { await verifyWebhook(request, secret); } catch (error) { if (error instanceof WebhookVerificationError) return new Response(null, { status: 400 }); }
 * ```
 */
export class WebhookVerificationError extends Error {
  override readonly name = 'WebhookVerificationError';
}

/**
 * A webhook as it arrived: a Fetch `Request`, or its headers with the raw
 * body (exactly the bytes received: parse the JSON only after verifying).
 *
 * @example
 * ```ts
 * const received: ReceivedWebhook = { headers: req.headers, body: req.rawBody };
 * ```
 */
export type ReceivedWebhook = Request | { headers: HeadersLike; body: string | Uint8Array };

/**
 * Verifies a webhook from the service with the endpoint's secret (`whsec_…`),
 * or several (the new and the old one while a rotation overlaps), and
 * returns its event. Throws `WebhookVerificationError` when it is not one.
 * A `Request`'s body is read: pass a clone if you read it again.
 *
 * @example
 * ```ts
 * import { verifyWebhook } from '@latchkey/js/server';
 *
 * export async function POST(request: Request) {
 *   const event = await verifyWebhook(request, process.env.LATCHKEY_WEBHOOK_SECRET!);
 *   if (event.type === 'user.deleted') await db.users.delete(event.data.id);
 *   return new Response(null, { status: 204 });
 * }
 * ```
 */
export async function verifyWebhook(
  webhook: ReceivedWebhook,
  secrets: string | readonly string[],
  options: { now?: Date } = {},
): Promise<WebhookEvent> {
  const header = headerReader(webhook.headers);
  const id = header('webhook-id');
  const timestamp = header('webhook-timestamp');
  const signatures = header('webhook-signature');
  if (!id || !timestamp || !signatures) throw new WebhookVerificationError('missing webhook headers');
  const sentAt = /^\d{1,12}$/.test(timestamp) ? Number(timestamp) : Number.NaN;
  const now = Math.floor((options.now?.getTime() ?? Date.now()) / 1000);
  if (!(Math.abs(now - sentAt) <= toleranceSeconds)) {
    throw new WebhookVerificationError('webhook timestamp too far from now');
  }
  const body = await bodyText(webhook);
  const signed = new TextEncoder().encode(`${id}.${timestamp}.${body}`);
  const offered = signatures
    .split(' ')
    .flatMap((entry) => (entry.startsWith('v1,') ? [base64Bytes(entry.slice(3))] : []))
    .filter((bytes): bytes is Uint8Array<ArrayBuffer> => bytes !== null);
  const keys = await Promise.all((typeof secrets === 'string' ? [secrets] : [...secrets]).map(hmacKey));
  for (const key of keys) {
    for (const signature of offered) {
      if (await crypto.subtle.verify('HMAC', key, signature, signed)) return parseEvent(body);
    }
  }
  throw new WebhookVerificationError('no matching signature');
}

async function bodyText(webhook: ReceivedWebhook): Promise<string> {
  if (webhook instanceof Request) return webhook.text();
  return typeof webhook.body === 'string' ? webhook.body : new TextDecoder().decode(webhook.body);
}

async function hmacKey(secret: string): Promise<CryptoKey> {
  const key = base64Bytes(secret.startsWith('whsec_') ? secret.slice(6) : secret);
  if (!key || key.length === 0) throw new TypeError('verifyWebhook: a secret is not a whsec_ secret');
  return crypto.subtle.importKey('raw', key, { name: 'HMAC', hash: 'SHA-256' }, false, ['verify']);
}

function base64Bytes(text: string): Uint8Array<ArrayBuffer> | null {
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(text)) return null;
  try {
    return Uint8Array.from(atob(text), (char) => char.charCodeAt(0));
  } catch {
    return null;
  }
}

function parseEvent(body: string): WebhookEvent {
  let event: unknown;
  try {
    event = JSON.parse(body);
  } catch {
    throw new WebhookVerificationError('the body is not JSON');
  }
  const candidate = event as { type?: unknown; data?: unknown } | null;
  if (typeof candidate?.type !== 'string' || typeof candidate.data !== 'object' || candidate.data === null) {
    throw new WebhookVerificationError('the body is not a webhook event');
  }
  return event as WebhookEvent;
}
