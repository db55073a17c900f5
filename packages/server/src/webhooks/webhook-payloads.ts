/**
 * A webhook message's body, rendered when it is first sent
 * (`webhook-events.ts` says what each type's `data` holds and where from).
 * The worker keeps what this returns in the message's `payload`, so retries
 * and replays send the same bytes.
 */

import { findContactChannel } from '../contact-channels/contact-channel-store.js';
import { contactChannelView } from '../contact-channels/contact-channel-views.js';
import type { Db } from '../storage/db.js';
import type { JsonValue, WebhookMessageRow } from '../storage/schema.js';
import { findTeam } from '../teams/team-store.js';
import { serverTeamView } from '../teams/team-views.js';
import { attachSelectedTeam, findUser } from '../users/user-store.js';
import { serverUserView } from '../users/user-views.js';
import { factsData, type WebhookEventType, type WebhookFacts, webhookEvents } from './webhook-events.js';

/** The body of `message`: `{ type, timestamp, data }`, `data` read now for the types that show an object. */
export async function renderWebhookPayload(db: Db, message: WebhookMessageRow): Promise<JsonValue> {
  const type = message.event_type as WebhookEventType;
  const facts = message.event_data as WebhookFacts;
  const data = (await currentData(db, message.project_id, type, facts)) ?? factsData(type, facts);
  return { type, timestamp: message.created_at.toISOString(), data } as unknown as JsonValue;
}

/** The object the event is about as it is now, in its server view; null when its type shows facts, or it is gone. */
async function currentData(
  db: Db,
  projectId: string,
  type: WebhookEventType,
  facts: WebhookFacts,
): Promise<unknown | null> {
  const text = (value: unknown) => (typeof value === 'string' ? value : null);
  const userId = text(facts.user_id);
  switch (webhookEvents[type]?.source) {
    case 'user': {
      const user = userId ? await attachSelectedTeam(db, await findUser(db, projectId, userId)) : null;
      return user && serverUserView(user);
    }
    case 'team': {
      const teamId = text(facts.team_id);
      const team = teamId ? await findTeam(db, projectId, teamId) : null;
      return team && serverTeamView(team);
    }
    case 'contact_channel': {
      const channelId = text(facts.channel_id);
      const channel = userId && channelId ? await findContactChannel(db, projectId, userId, channelId) : null;
      return channel && contactChannelView(channel);
    }
    default:
      return null;
  }
}
