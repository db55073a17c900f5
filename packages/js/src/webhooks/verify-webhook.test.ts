/**
 * `verifyWebhook` against signatures made by the `standardwebhooks` package
 * (the Standard Webhooks reference implementation): what it signs passes,
 * with one secret or during a rotation's overlap; anything changed, too old
 * or signed with another secret is refused.
 */
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { verifyWebhook, type WebhookEvent, WebhookVerificationError } from './verify-webhook.js';

const secret = `whsec_${Buffer.from('a secret of 24 bytes!!!!').toString('base64')}`;
const otherSecret = `whsec_${Buffer.from('another secret, 24 bytes').toString('base64')}`;
const sentAt = new Date('2026-11-27T10:00:00Z');

const event = {
  type: 'user.created',
  timestamp: sentAt.toISOString(),
  data: { id: 'user-1', primary_email: 'ada@example.com', display_name: 'Ada' },
};

/** A webhook as the service sends it: the body, and headers signed by `signers` (the reference implementation). */
function signed(body = JSON.stringify(event), signers = [secret], id = 'msg_1', at = sentAt) {
  const signatures = signers.map((key) => new Webhook(key).sign(id, at, body)).join(' ');
  return {
    headers: {
      'webhook-id': id,
      'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
      'webhook-signature': signatures,
    },
    body,
  };
}

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(WebhookVerificationError);
  return (error as Error).message;
}

describe('verifyWebhook', () => {
  it('returns the event of a webhook signed with the secret, typed by its type', async () => {
    const verified: WebhookEvent = await verifyWebhook(signed(), secret, { now: sentAt });
    expect(verified).toEqual(event);
    // A user deleted before the message was sent comes as its id alone: narrow before reading the rest.
    if (verified.type === 'user.created' && 'primary_email' in verified.data) {
      expect(verified.data.primary_email).toBe('ada@example.com');
    } else throw new Error('expected the whole user');
  });

  it('reads a Fetch Request, its body as bytes, and headers in any case', async () => {
    const webhook = signed();
    const request = new Request('https://app.example.com/hooks', {
      method: 'POST',
      headers: webhook.headers,
      body: webhook.body,
    });
    expect(await verifyWebhook(request, secret, { now: sentAt })).toEqual(event);
    const upper = Object.fromEntries(
      Object.entries(webhook.headers).map(([name, value]) => [name.toUpperCase(), value]),
    );
    const bytes = new TextEncoder().encode(webhook.body);
    expect(await verifyWebhook({ headers: upper, body: bytes }, secret, { now: sentAt })).toEqual(event);
  });

  it('takes either signature during a rotation, and either secret of the receiver', async () => {
    const both = signed(undefined, [otherSecret, secret]);
    expect(await verifyWebhook(both, secret, { now: sentAt })).toEqual(event);
    expect(await verifyWebhook(signed(undefined, [otherSecret]), [secret, otherSecret], { now: sentAt })).toEqual(
      event,
    );
  });

  it('refuses another secret, a changed body, id or timestamp', async () => {
    expect(await refusal(verifyWebhook(signed(), otherSecret, { now: sentAt }))).toBe('no matching signature');
    const webhook = signed();
    const tampered = [
      { ...webhook, body: webhook.body.replace('ada@', 'eve@') },
      { ...webhook, headers: { ...webhook.headers, 'webhook-id': 'msg_2' } },
      {
        ...webhook,
        headers: { ...webhook.headers, 'webhook-timestamp': String(Number(webhook.headers['webhook-timestamp']) + 1) },
      },
      {
        ...webhook,
        headers: {
          ...webhook.headers,
          'webhook-signature': webhook.headers['webhook-signature'].replace('v1,', 'v2,'),
        },
      },
    ];
    for (const forged of tampered) {
      expect(await refusal(verifyWebhook(forged, secret, { now: sentAt }))).toBe('no matching signature');
    }
  });

  it('refuses a timestamp more than five minutes from now, either way', async () => {
    const webhook = signed();
    const at = (offsetSeconds: number) => ({ now: new Date(sentAt.getTime() + offsetSeconds * 1000) });
    expect(await verifyWebhook(webhook, secret, at(300))).toEqual(event);
    expect(await verifyWebhook(webhook, secret, at(-300))).toEqual(event);
    expect(await refusal(verifyWebhook(webhook, secret, at(301)))).toBe('webhook timestamp too far from now');
    expect(await refusal(verifyWebhook(webhook, secret, at(-301)))).toBe('webhook timestamp too far from now');
  });

  it('refuses missing or malformed headers, and a signed body that is no event', async () => {
    const webhook = signed();
    const { 'webhook-signature': _, ...unsigned } = webhook.headers;
    expect(await refusal(verifyWebhook({ headers: unsigned, body: webhook.body }, secret))).toBe(
      'missing webhook headers',
    );
    const garbled = { ...webhook.headers, 'webhook-timestamp': 'yesterday' };
    expect(await refusal(verifyWebhook({ headers: garbled, body: webhook.body }, secret, { now: sentAt }))).toBe(
      'webhook timestamp too far from now',
    );
    expect(await refusal(verifyWebhook(signed('[1,2]'), secret, { now: sentAt }))).toBe(
      'the body is not a webhook event',
    );
    expect(await refusal(verifyWebhook(signed('not json'), secret, { now: sentAt }))).toBe('the body is not JSON');
  });

  it('throws a TypeError for a secret that is not one', async () => {
    await expect(verifyWebhook(signed(), 'whsec_***', { now: sentAt })).rejects.toBeInstanceOf(TypeError);
  });
});
