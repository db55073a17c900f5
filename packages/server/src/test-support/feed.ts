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
