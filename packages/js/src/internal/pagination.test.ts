import { describe, expect, it, vi } from 'vitest';
import { MalformedAnswerError } from '../errors.js';
import { everyItem } from './pagination.js';

const pages: Record<string, { items: number[]; nextCursor: string | null }> = {
  first: { items: [1, 2], nextCursor: 'c2' },
  c2: { items: [3], nextCursor: 'c3' },
  c3: { items: [], nextCursor: null },
};

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of items) all.push(item);
  return all;
}

describe('everyItem', () => {
  it('yields the items of every page, following the cursors to the end', async () => {
    const fetchPage = vi.fn(async (cursor: string | undefined) => pages[cursor ?? 'first']!);
    expect(await collect(everyItem('GET /users', fetchPage))).toEqual([1, 2, 3]);
    expect(fetchPage.mock.calls).toEqual([[undefined], ['c2'], ['c3']]);
  });

  it('fetches a page only once the previous one is consumed', async () => {
    const fetchPage = vi.fn(async (cursor: string | undefined) => pages[cursor ?? 'first']!);
    for await (const item of everyItem('GET /users', fetchPage)) {
      if (item === 2) break;
    }
    expect(fetchPage).toHaveBeenCalledTimes(1);
  });

  it('stops with a MalformedAnswerError when the service repeats the cursor it was given', async () => {
    const loop = async (cursor: string | undefined) => ({ items: [0], nextCursor: cursor ?? 'same' });
    const error = await collect(everyItem('GET /users', loop)).catch((e) => e);
    expect(error).toBeInstanceOf(MalformedAnswerError);
    expect(error.message).toBe(
      "The service's answer to GET /users is malformed: pagination.next_cursor repeats the cursor of the page it ends",
    );
  });
});
