import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createDataStore, type DataQuery } from './data-store.js';
import { QueryCache } from './query-cache.js';

function setup() {
  const cache = new QueryCache();
  return { cache, data: createDataStore(cache) };
}

/** A query counting its loads, syncs and watchers; `key` may carry a parameter. */
function countingQuery(key: string, value: (n: number) => unknown = (n) => `${key}#${n}`) {
  const counts = { loads: 0, syncs: 0, watching: 0 };
  const query: DataQuery<unknown> = {
    key,
    load: async () => value(++counts.loads),
    sync: () => void counts.syncs++,
    watch: () => {
      counts.watching++;
      return () => void counts.watching--;
    },
  };
  return { query, counts };
}

describe('the data store', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('loads once for concurrent reads, syncing before each read', async () => {
    const { data } = setup();
    const { query, counts } = countingQuery('user');
    const values = await Promise.all([data.load(query), data.load(query)]);
    expect(values).toEqual(['user#1', 'user#1']);
    expect(counts).toMatchObject({ loads: 1, syncs: 2 });
  });

  it('loads on subscription when nothing is loaded, and watches only while subscribed', async () => {
    const { data } = setup();
    const { query, counts } = countingQuery('user');
    const listener = vi.fn();
    expect(data.snapshot(query)).toBeUndefined();
    const stop = data.subscribe(query, listener);
    expect(counts.watching).toBe(1);
    await vi.advanceTimersByTimeAsync(0);
    expect(data.snapshot(query)).toBe('user#1');
    expect(listener).toHaveBeenCalledOnce();
    data.subscribe(query, () => {})();
    expect(counts).toMatchObject({ loads: 1, watching: 1 });
    stop();
    expect(counts.watching).toBe(0);
  });

  it('keeps keys with a parameter apart', async () => {
    const { data } = setup();
    const teamA = countingQuery('team-members:a').query;
    const teamB = countingQuery('team-members:b').query;
    await Promise.all([data.load(teamA), data.load(teamB)]);
    expect([data.snapshot(teamA), data.snapshot(teamB)]).toEqual(['team-members:a#1', 'team-members:b#1']);
  });

  it('sets, reloads, invalidates and resets through the same query', async () => {
    const { data } = setup();
    const { query, counts } = countingQuery('user');
    const listener = vi.fn();
    data.subscribe(query, listener);
    await vi.advanceTimersByTimeAsync(0);
    data.set(query, null);
    expect(data.snapshot(query)).toBeNull();
    await expect(data.reload(query)).resolves.toBe('user#2');
    data.invalidate(query);
    await vi.advanceTimersByTimeAsync(0);
    expect(data.snapshot(query)).toBe('user#3');
    data.reset(query);
    expect(data.snapshot(query)).toBeUndefined();
    await vi.advanceTimersByTimeAsync(0);
    expect(data.snapshot(query)).toBe('user#4');
    expect(counts.loads).toBe(4);
    expect(listener).toHaveBeenCalledTimes(6); // user#1, null, user#2, user#3, reset, user#4
  });

  it('drops a value 5 s after its last subscriber leaves', async () => {
    const { data } = setup();
    const { query } = countingQuery('project');
    const stop = data.subscribe(query, () => {});
    await vi.advanceTimersByTimeAsync(0);
    stop();
    await vi.advanceTimersByTimeAsync(4999);
    expect(data.snapshot(query)).toBe('project#1');
    await vi.advanceTimersByTimeAsync(1);
    expect(data.snapshot(query)).toBeUndefined();
  });
});
