/** Waiting on a storage's change feed: tests wait for the event, never for time. */
import { changeFeedOf, type FeedEvent } from '../storage/change-feed.js';
import type { Storage } from '../storage/open-storage.js';

/** Resolves with the first event of `storage`'s feed that `matches`; rejects after `limitMs` (default 1 s). */
export function nextFeedEvent(
  storage: Storage,
  matches: (event: FeedEvent) => boolean,
  limitMs = 1_000,
): Promise<FeedEvent> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      stop();
      reject(new Error(`no such event reached the feed within ${limitMs} ms`));
    }, limitMs);
    const stop = changeFeedOf(storage).subscribe((event) => {
      if (!matches(event)) return;
      clearTimeout(timer);
      stop();
      resolve(event);
    });
  });
}

/**
 * Records what `storage`'s feed is told directly by this process (the
 * recorder's announcements after a commit), apart from what comes back
 * through the database: a test that finds an event here knows this instance
 * did not wait for the database's notification. `stop()` restores the feed.
 *
 * @example
 * const told = toldLocally(service.storage);
 * await call(service, 'PATCH', '/users/me', { ... });
 * expect(told.events).toContainEqual({ type: 'users', userIds: [userId] });
 * told.stop();
 */
export function toldLocally(storage: Storage): { events: FeedEvent[]; stop(): void } {
  const feed = changeFeedOf(storage);
  const announce = feed.announce;
  const events: FeedEvent[] = [];
  feed.announce = (event) => {
    events.push(event);
    announce(event);
  };
  return {
    events,
    stop: () => {
      feed.announce = announce;
    },
  };
}
