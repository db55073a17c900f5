import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Query, QueryKey } from '../../query.js';
import { createDataStore } from './data-store.js';

/** The scope the queries load with: here, a name they put in their values. */
const scope = { name: 'scope' };
type Scope = typeof scope;

function setup() {
  return { data: createDataStore({}, () => scope) };
}

/** A query counting its loads, syncs and watchers; `key` may carry a parameter. */
function countingQuery(key: QueryKey, value: (n: number) => unknown = (n) => `${key.join(':')}#${n}`) {
  const counts = { loads: 0, syncs: 0, watching: 0 };
  const query: Query<unknown, Scope> = {
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
    const { query, counts } = countingQuery(['user']);
    const values = await Promise.all([data.load(query), data.load(query)]);
    expect(values).toEqual(['user#1', 'user#1']);
    expect(counts).toMatchObject({ loads: 1, syncs: 2 });
  });

  it('loads on subscription when nothing is loaded, and watches only while subscribed', async () => {
    const { data } = setup();
    const { query, counts } = countingQuery(['user']);
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
    const teamA = countingQuery(['team', 'a', 'members']).query;
    const teamB = countingQuery(['team', 'b', 'members']).query;
    await Promise.all([data.load(teamA), data.load(teamB)]);
    expect([data.snapshot(teamA), data.snapshot(teamB)]).toEqual(['team:a:members#1', 'team:b:members#1']);
  });

  it('loads with the scope it was made with', async () => {
    const { data } = setup();
    const query: Query<string, Scope> = { key: ['who'], load: async (given) => given.name };
    await expect(data.load(query)).resolves.toBe('scope');
  });

  it('invalidates and resets a key with every key below it, and no other', async () => {
    const { data } = setup();
    const members = countingQuery(['team', 'a', 'members']);
    const invitations = countingQuery(['team', 'a', 'invitations']);
    const otherTeam = countingQuery(['team', 'ab', 'members']);
    const stops = [members, invitations, otherTeam].map(({ query }) => data.subscribe(query, () => {}));
    await vi.advanceTimersByTimeAsync(0);
    await data.invalidate(['team', 'a']);
    expect([members.counts.loads, invitations.counts.loads, otherTeam.counts.loads]).toEqual([2, 2, 1]);
    expect(data.snapshot(members.query)).toBe('team:a:members#2');
    data.reset(['team', 'a', 'members']);
    expect(data.snapshot(members.query)).toBeUndefined();
    expect(data.snapshot(invitations.query)).toBe('team:a:invitations#2');
    await data.invalidate([]);
    expect(otherTeam.counts.loads).toBe(2);
    for (const stop of stops) stop();
  });

  it('sets, reloads, invalidates and resets through the same query', async () => {
    const { data } = setup();
    const { query, counts } = countingQuery(['user']);
    const listener = vi.fn();
    data.subscribe(query, listener);
    await vi.advanceTimersByTimeAsync(0);
    data.set(query, null);
    expect(data.snapshot(query)).toBeNull();
    await expect(data.reload(query)).resolves.toBe('user#2');
    await data.invalidate(query.key);
    expect(data.snapshot(query)).toBe('user#3');
    data.reset(query.key);
    expect(data.snapshot(query)).toBeUndefined();
    await vi.advanceTimersByTimeAsync(0);
    expect(data.snapshot(query)).toBe('user#4');
    expect(counts.loads).toBe(4);
    expect(listener).toHaveBeenCalledTimes(6); // user#1, null, user#2, user#3, reset, user#4
  });

  it('drops a value 5 s after its last subscriber leaves', async () => {
    const { data } = setup();
    const { query } = countingQuery(['project']);
    const stop = data.subscribe(query, () => {});
    await vi.advanceTimersByTimeAsync(0);
    stop();
    await vi.advanceTimersByTimeAsync(4999);
    expect(data.snapshot(query)).toBe('project#1');
    await vi.advanceTimersByTimeAsync(1);
    expect(data.snapshot(query)).toBeUndefined();
  });
});
