import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Query } from '../../query.js';
import { QueryCache } from './query-cache.js';

function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** A query at `['k']` whose loads `load` answers. */
function query<T>(load: () => Promise<T>): Query<T, null> {
  return { key: ['k'], load };
}

const newCache = () => new QueryCache<null>(() => null);

describe('QueryCache', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('makes one load for concurrent reads of a key', async () => {
    const cache = newCache();
    const gate = deferred<string>();
    const k = query(vi.fn(() => gate.promise));
    const reads = [cache.load(k), cache.load(k), cache.load(k)];
    gate.resolve('v');
    expect(await Promise.all(reads)).toEqual(['v', 'v', 'v']);
    expect(k.load).toHaveBeenCalledTimes(1);
    await expect(cache.load(k)).resolves.toBe('v');
    expect(k.load).toHaveBeenCalledTimes(1);
  });

  it('tells subscribers about new values and exposes a stable snapshot', async () => {
    const cache = newCache();
    const listener = vi.fn();
    const value = { a: 1 };
    const k = query<unknown>(async () => value);
    cache.subscribe(k, listener);
    expect(cache.snapshot(k)).toBeUndefined();
    await vi.advanceTimersByTimeAsync(0);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(cache.snapshot(k)).toBe(cache.snapshot(k));
    cache.set(k, null);
    expect(listener).toHaveBeenCalledTimes(2);
    expect(cache.snapshot(k)).toBeNull();
  });

  it('reloads an invalidated key at once when subscribed, otherwise on the next read', async () => {
    const cache = newCache();
    let n = 0;
    const k = query(vi.fn(async () => ++n));
    await cache.load(k);
    await cache.invalidate(k.key);
    expect(k.load).toHaveBeenCalledTimes(1);
    await expect(cache.load(k)).resolves.toBe(2);
    const listener = vi.fn();
    cache.subscribe(k, listener);
    const reloads = [cache.invalidate(k.key), cache.invalidate(k.key)];
    await Promise.all(reloads); // settled once the subscribed value is reloaded
    expect(k.load).toHaveBeenCalledTimes(3);
    expect(cache.snapshot(k)).toBe(3);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('ignores a load that finishes after the value was set by a mutation', async () => {
    const cache = newCache();
    const gate = deferred<string>();
    const k = query(() => gate.promise);
    const pending = cache.load(k);
    cache.set(k, 'from mutation');
    gate.resolve('stale');
    await pending;
    expect(cache.snapshot(k)).toBe('from mutation');
  });

  it('drops an entry 5000 ms after its last subscriber leaves', async () => {
    const cache = newCache();
    const k = query(vi.fn(async () => 'v'));
    const stop = cache.subscribe(k, () => {});
    await cache.load(k);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(cache.snapshot(k)).toBe('v');
    stop();
    await vi.advanceTimersByTimeAsync(4999);
    expect(cache.snapshot(k)).toBe('v');
    await vi.advanceTimersByTimeAsync(1);
    expect(cache.snapshot(k)).toBeUndefined();
    await cache.load(k);
    expect(k.load).toHaveBeenCalledTimes(2);
  });

  it('keeps an entry when a subscriber comes back within 5000 ms', async () => {
    const cache = newCache();
    const k = query(async () => 'v');
    const stop = cache.subscribe(k, () => {});
    await vi.advanceTimersByTimeAsync(0);
    stop();
    await vi.advanceTimersByTimeAsync(3000);
    cache.subscribe(k, () => {});
    await vi.advanceTimersByTimeAsync(10_000);
    expect(cache.snapshot(k)).toBe('v');
  });

  it('keeps a failed load out of the cache so the next read tries again', async () => {
    const cache = newCache();
    const load = vi.fn(async () => 'up').mockRejectedValueOnce(new Error('down'));
    const k = query(load);
    await expect(cache.load(k)).rejects.toThrow('down');
    expect(cache.snapshot(k)).toBeUndefined();
    await expect(cache.load(k)).resolves.toBe('up');
  });

  it('regression: keeps an entry whose load outlasts the 5 s drop, so the loaded value is not lost', async () => {
    const cache = newCache();
    const gate = deferred<string>();
    const k = query(() => gate.promise);
    const read = cache.load(k); // a reader without a subscription (a suspended component)
    await vi.advanceTimersByTimeAsync(8_000);
    gate.resolve('slow');
    await expect(read).resolves.toBe('slow');
    expect(cache.snapshot(k)).toBe('slow');
    await vi.advanceTimersByTimeAsync(4_999);
    expect(cache.snapshot(k)).toBe('slow');
    await vi.advanceTimersByTimeAsync(1);
    expect(cache.snapshot(k)).toBeUndefined();
  });

  it('reset forgets the value (not loaded again) and reloads at once when subscribed', async () => {
    const cache = newCache();
    let n = 0;
    const k = query(vi.fn(async () => ++n));
    const seen: unknown[] = [];
    cache.subscribe(k, () => seen.push(cache.snapshot(k)));
    await cache.load(k);
    cache.reset(k.key);
    expect(cache.snapshot(k)).toBeUndefined();
    await vi.advanceTimersByTimeAsync(0);
    expect(seen).toEqual([1, undefined, 2]);
    expect(k.load).toHaveBeenCalledTimes(2);
  });
});
