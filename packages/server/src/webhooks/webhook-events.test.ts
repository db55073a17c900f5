/** The webhook event table against the event catalogue. */
import { webhookEventTypes as protocolWebhookEventTypes } from '@latchkey/protocol';
import { describe, expect, it } from 'vitest';
import { eventCatalogue, eventTypes } from '../events/catalogue.js';
import { subscribableEventTypes, webhookEventOf, webhookEvents, webhookEventTypes } from './webhook-events.js';

describe('the webhook event types', () => {
  it("offer endpoints the protocol's types, in the same order", () => {
    expect(subscribableEventTypes).toEqual([...protocolWebhookEventTypes]);
  });

  it('map exactly the catalogue events offered to webhooks, each to one type', () => {
    const offered = eventTypes.filter((type) => eventCatalogue[type].webhook);
    const mapped = webhookEventTypes.flatMap((type) => [...webhookEvents[type].from]);
    expect([...mapped].sort()).toEqual([...offered].sort());
    expect(new Set(mapped).size).toBe(mapped.length);
    expect(eventTypes.filter((type) => !eventCatalogue[type].webhook).map(webhookEventOf)).toEqual(
      eventTypes.filter((type) => !eventCatalogue[type].webhook).map(() => null),
    );
  });

  it('include the types of the Stack catalogue under their Stack names', () => {
    expect(webhookEventTypes).toEqual(
      expect.arrayContaining([
        'user.created',
        'user.updated',
        'user.deleted',
        'team.created',
        'team.updated',
        'team.deleted',
        'team_membership.created',
        'team_membership.deleted',
        'team_permission.created',
        'team_permission.deleted',
      ]),
    );
    expect(webhookEventOf('team.member_added')).toBe('team_membership.created');
    expect(webhookEventOf('team_permission.revoked')).toBe('team_permission.deleted');
    expect(webhookEventOf('sign_up')).toBe('user.created');
  });
});
