/** Paging through a cursor-paginated list (wire-protocol.md §12) one item at a time. */
import { MalformedAnswerError } from '../errors.js';
import type { Page } from '../server-types.js';

/**
 * Yields every item of every page, fetching the next page only when the
 * caller has consumed the current one. A service that hands back the cursor
 * it was given would loop forever: that is reported as a malformed answer.
 */
export async function* everyItem<T>(
  call: string,
  fetchPage: (cursor: string | undefined) => Promise<Page<T>>,
): AsyncGenerator<T, void, undefined> {
  let cursor: string | undefined;
  do {
    const page = await fetchPage(cursor);
    yield* page.items;
    if (page.nextCursor !== null && page.nextCursor === cursor) {
      throw new MalformedAnswerError(call, 'pagination.next_cursor', 'repeats the cursor of the page it ends');
    }
    cursor = page.nextCursor ?? undefined;
  } while (cursor !== undefined);
}
