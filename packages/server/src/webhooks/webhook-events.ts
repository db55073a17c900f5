/**
 * The webhook event types: the public names an endpoint subscribes to and
 * receives, which events of our catalogue (`events/catalogue.ts`, rows with
 * `webhook: true`) each one is made of, and the schema of its `data`.
 *
 * A message's body is `{ type, timestamp, data }` (`timestamp`: when the
 * event happened, ISO 8601). What `data` holds:
 * - `user.created`, `user.updated`: the user as `GET /users/{id}` answers a
 *   server; `team.created`, `team.updated`: the team in the server view;
 *   `contact_channel.created`, `contact_channel.updated`: the channel. These
 *   are read from the current state when the message is first sent (not
 *   when the event happened), then kept, so a retry or a replay sends the
 *   same bytes; an object gone by then is sent as its recorded facts
 *   (`{ id, … }`).
 * - every other type (`*.deleted`, memberships, permissions, sessions,
 *   sign-ins…): the facts recorded with the event, as their schemas say.
 */
import type { WebhookEventType as SubscribableType } from '@latchkey/protocol';
import { z } from 'zod';
import { contactChannelSchema } from '../contact-channels/contact-channel-views.js';
import type { EventType } from '../events/catalogue.js';
import { serverTeamSchema } from '../teams/team-views.js';
import { serverUserSchema } from '../users/user-views.js';

/** What a message's `data` is read from when first sent: an object's current state, or the recorded facts. */
type WebhookSource = 'user' | 'team' | 'contact_channel' | 'facts';

interface WebhookEventSpec {
  /** The catalogue events that become it. */
  readonly from: readonly EventType[];
  /** What `data` holds (the OpenAPI document's `webhooks` section shows it). */
  readonly data: z.ZodType;
  readonly source: WebhookSource;
  /** One line for the OpenAPI document. */
  readonly summary: string;
}

const id = z.uuid();
const deleted = (what: string) => z.object({ id }).meta({ description: `The ${what} that was deleted.` });
/** An object read when the message is first sent; its id alone when it was deleted before that. */
const current = (view: z.ZodType, what: string, more: Record<string, z.ZodType> = {}) =>
  z.union([
    view,
    z
      .object({ id, ...more })
      .meta({ description: `The ${what}'s id alone: it was deleted before the message was first sent.` }),
  ]);
const userFact = z.object({ user_id: id });
const membership = z.object({ team_id: id, user_id: id });
const permission = z.object({ id: z.string(), team_id: id, user_id: id });
const channelGone = z.object({ id, user_id: id });
const session = z.object({ id, user_id: id });
const passkey = z.object({ id, user_id: id });
const signedIn = z.object({
  user_id: id,
  method: z.enum(['password', 'otp', 'oauth', 'password_reset', 'passkey']),
  provider: z.string().optional(),
  second_factor: z.enum(['totp', 'recovery_code']).optional(),
});

/**
 * Every webhook event type, by its public name: exactly the protocol's
 * `webhookEventTypes` (which clients read) and the test message's type; a
 * name missing or extra here does not compile.
 */
export const webhookEvents = {
  'user.created': {
    from: ['user.created', 'sign_up'],
    data: current(serverUserSchema, 'user'),
    source: 'user',
    summary: 'A user was created (by sign-up, a server or an admin).',
  },
  'user.updated': {
    from: ['user.updated', 'user.profile_updated'],
    data: current(serverUserSchema, 'user'),
    source: 'user',
    summary: 'A user changed their profile, or a server or admin changed the user.',
  },
  'user.deleted': { from: ['user.deleted'], data: deleted('user'), source: 'facts', summary: 'A user was deleted.' },
  'team.created': {
    from: ['team.created'],
    data: current(serverTeamSchema, 'team'),
    source: 'team',
    summary: 'A team was created.',
  },
  'team.updated': {
    from: ['team.updated'],
    data: current(serverTeamSchema, 'team'),
    source: 'team',
    summary: 'A team was changed.',
  },
  'team.deleted': { from: ['team.deleted'], data: deleted('team'), source: 'facts', summary: 'A team was deleted.' },
  'team_membership.created': {
    from: ['team.member_added'],
    data: membership,
    source: 'facts',
    summary: 'A user joined a team.',
  },
  'team_membership.deleted': {
    from: ['team.member_removed'],
    data: membership,
    source: 'facts',
    summary: 'A user left or was removed from a team.',
  },
  'team_permission.created': {
    from: ['team_permission.granted'],
    data: permission,
    source: 'facts',
    summary: 'A member was granted a team permission (`id`: the permission).',
  },
  'team_permission.deleted': {
    from: ['team_permission.revoked'],
    data: permission,
    source: 'facts',
    summary: 'A team permission of a member was revoked.',
  },
  'contact_channel.created': {
    from: ['contact_channel.added'],
    data: current(contactChannelSchema, 'contact channel', { user_id: id }),
    source: 'contact_channel',
    summary: 'A contact channel was added to a user.',
  },
  'contact_channel.updated': {
    from: ['contact_channel.updated', 'contact_channel.verified'],
    data: current(contactChannelSchema, 'contact channel', { user_id: id }),
    source: 'contact_channel',
    summary: 'A contact channel was changed or verified.',
  },
  'contact_channel.deleted': {
    from: ['contact_channel.removed', 'contact_channel.detached'],
    data: channelGone,
    source: 'facts',
    summary: 'A contact channel was removed (or taken by the user who proved the address).',
  },
  'session.created': {
    from: ['session.created', 'impersonation.started'],
    data: session,
    source: 'facts',
    summary: 'A server opened a session for a user.',
  },
  'session.revoked': {
    from: ['session.revoked', 'session.refresh_token_reused'],
    data: session,
    source: 'facts',
    summary: 'A session ended (sign-out, revocation, or a reused refresh token).',
  },
  'user.signed_in': {
    from: ['sign_in.succeeded'],
    data: signedIn,
    source: 'facts',
    summary: 'A user signed in.',
  },
  'user.password_changed': {
    from: ['password.changed', 'password.reset', 'password.set'],
    data: userFact,
    source: 'facts',
    summary: "A user's password was changed, reset or set.",
  },
  'user.mfa_enabled': {
    from: ['mfa.enabled'],
    data: userFact,
    source: 'facts',
    summary: 'A user turned on a second factor.',
  },
  'user.mfa_disabled': {
    from: ['mfa.disabled'],
    data: userFact,
    source: 'facts',
    summary: 'A user turned off their second factor.',
  },
  'passkey.added': { from: ['passkey.added'], data: passkey, source: 'facts', summary: 'A user added a passkey.' },
  'passkey.removed': {
    from: ['passkey.removed'],
    data: passkey,
    source: 'facts',
    summary: 'A passkey was removed.',
  },
  'webhook.test': {
    from: [],
    data: z.object({ endpoint_id: id }),
    source: 'facts',
    summary: 'A test message an admin asked for (`POST /webhooks/endpoints/{endpoint_id}/test`).',
  },
} as const satisfies Record<SubscribableType | 'webhook.test', WebhookEventSpec>;

/** A public webhook event type. */
export type WebhookEventType = keyof typeof webhookEvents;

/** Every webhook event type, in table order. */
export const webhookEventTypes = Object.keys(webhookEvents) as [WebhookEventType, ...WebhookEventType[]];

/** The types an endpoint can subscribe to: every one but `webhook.test`, which only the test route sends. */
export const subscribableEventTypes = webhookEventTypes.filter(
  (type): type is Exclude<WebhookEventType, 'webhook.test'> => type !== 'webhook.test',
) as [Exclude<WebhookEventType, 'webhook.test'>, ...Exclude<WebhookEventType, 'webhook.test'>[]];

const byCatalogueType = new Map<EventType, WebhookEventType>(
  webhookEventTypes.flatMap((type) => webhookEvents[type].from.map((from) => [from, type] as const)),
);

/** The webhook event type the catalogue event `type` becomes, or null when webhooks are not offered it. */
export function webhookEventOf(type: EventType): WebhookEventType | null {
  return byCatalogueType.get(type) ?? null;
}

/**
 * The facts a message keeps from its event (`event_data`): the catalogue
 * row's data and the user it is about, from which `data` is made
 * (`factsData`) or the object to read is found.
 */
export type WebhookFacts = Record<string, unknown> & { user_id?: string | null };

/** `data` made of the recorded facts, for a type whose source is `facts` (and the fallback of the others). */
export function factsData(type: WebhookEventType, facts: WebhookFacts): Record<string, unknown> {
  const user = facts.user_id ?? null;
  switch (type) {
    case 'user.created':
    case 'user.updated':
    case 'user.deleted':
      return { id: user };
    case 'team.created':
    case 'team.updated':
    case 'team.deleted':
      return { id: facts.team_id };
    case 'team_membership.created':
    case 'team_membership.deleted':
      return { team_id: facts.team_id, user_id: user };
    case 'team_permission.created':
    case 'team_permission.deleted':
      return { id: facts.permission_id, team_id: facts.team_id, user_id: user };
    case 'contact_channel.created':
    case 'contact_channel.updated':
    case 'contact_channel.deleted':
      return { id: facts.channel_id, user_id: user };
    case 'session.created':
    case 'session.revoked':
      return { id: facts.session_id, user_id: user };
    case 'user.signed_in': {
      const { method, provider, second_factor } = facts;
      return { user_id: user, method, ...(provider ? { provider } : {}), ...(second_factor ? { second_factor } : {}) };
    }
    case 'user.password_changed':
    case 'user.mfa_enabled':
    case 'user.mfa_disabled':
      return { user_id: user };
    case 'passkey.added':
    case 'passkey.removed':
      return { id: facts.passkey_id, user_id: user };
    case 'webhook.test':
      return { endpoint_id: facts.endpoint_id };
  }
}

/** A message's body as sent, for the OpenAPI document: `type`, `timestamp` and `data` of `type`'s schema. */
function webhookPayloadSchema(type: WebhookEventType): z.ZodType {
  return z
    .object({ type: z.literal(type), timestamp: z.iso.datetime(), data: webhookEvents[type].data })
    .meta({ description: webhookEvents[type].summary });
}

/** Every type's body, for the OpenAPI document's `webhooks` section. */
export function webhookMessages(): Record<WebhookEventType, { summary: string; body: z.ZodType }> {
  return Object.fromEntries(
    webhookEventTypes.map((type) => [type, { summary: webhookEvents[type].summary, body: webhookPayloadSchema(type) }]),
  ) as Record<WebhookEventType, { summary: string; body: z.ZodType }>;
}
