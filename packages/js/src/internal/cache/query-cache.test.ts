import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { QueryCache } from './query-cache.js';

function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('QueryCache', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('makes one load for concurrent reads of a key', async () => {
    const cache = new QueryCache();
    const gate = deferred<string>();
    const load = vi.fn(() => gate.promise);
    const reads = [cache.fetch('k', load), cache.fetch('k', load), cache.fetch('k', load)];
    gate.resolve('v');
    expect(await Promise.all(reads)).toEqual(['v', 'v', 'v']);
    expect(load).toHaveBeenCalledTimes(1);
    await expect(cache.fetch('k', load)).resolves.toBe('v');
    expect(load).toHaveBeenCalledTimes(1);
  });

  it('tells subscribers about new values and exposes a stable snapshot', async () => {
    const cache = new QueryCache();
    const listener = vi.fn();
    cache.subscribe('k', listener);
    expect(cache.peek('k')).toBeUndefined();
    const value = { a: 1 };
    await cache.fetch('k', async () => value);
    expect(listener).toHaveBeenCalledTimes(1);
    expect(cache.peek('k')).toBe(cache.peek('k'));
    cache.set('k', null);
    expect(listener).toHaveBeenCalledTimes(2);
    expect(cache.peek('k')).toBeNull();
  });

  it('reloads an invalidated key at once when subscribed, otherwise on the next read', async () => {
    const cache = new QueryCache();
    let n = 0;
    const load = vi.fn(async () => ++n);
    await cache.fetch('k', load);
    cache.invalidate('k');
    expect(load).toHaveBeenCalledTimes(1);
    await expect(cache.fetch('k', load)).resolves.toBe(2);
    const listener = vi.fn();
    cache.subscribe('k', listener);
    cache.invalidate('k');
    cache.invalidate('k');
    await vi.advanceTimersByTimeAsync(0);
    expect(load).toHaveBeenCalledTimes(3);
    expect(cache.peek('k')).toBe(3);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('ignores a load that finishes after the value was set by a mutation', async () => {
    const cache = new QueryCache();
    const gate = deferred<string>();
    const pending = cache.fetch('k', () => gate.promise);
    cache.set('k', 'from mutation');
    gate.resolve('stale');
    await pending;
    expect(cache.peek('k')).toBe('from mutation');
  });

  it('drops an entry 5000 ms after its last subscriber leaves', async () => {
    const cache = new QueryCache();
    const load = vi.fn(async () => 'v');
    const stop = cache.subscribe('k', () => {});
    await cache.fetch('k', load);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(cache.peek('k')).toBe('v');
    stop();
    await vi.advanceTimersByTimeAsync(4999);
    expect(cache.peek('k')).toBe('v');
    await vi.advanceTimersByTimeAsync(1);
    expect(cache.peek('k')).toBeUndefined();
    await cache.fetch('k', load);
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('keeps an entry when a subscriber comes back within 5000 ms', async () => {
    const cache = new QueryCache();
    const stop = cache.subscribe('k', () => {});
    cache.set('k', 'v');
    stop();
    await vi.advanceTimersByTimeAsync(3000);
    cache.subscribe('k', () => {});
    await vi.advanceTimersByTimeAsync(10_000);
    expect(cache.peek('k')).toBe('v');
  });

  it('keeps a failed load out of the cache so the next read tries again', async () => {
    const cache = new QueryCache();
    await expect(cache.fetch('k', async () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(cache.needsLoad('k')).toBe(true);
    await expect(cache.fetch('k', async () => 'up')).resolves.toBe('up');
  });

  it('regression: keeps an entry whose load outlasts the 5 s drop, so the loaded value is not lost', async () => {
    const cache = new QueryCache();
    const gate = deferred<string>();
    const read = cache.fetch('k', () => gate.promise); // a reader without a subscription (a suspended component)
    await vi.advanceTimersByTimeAsync(8_000);
    gate.resolve('slow');
    await expect(read).resolves.toBe('slow');
    expect(cache.peek('k')).toBe('slow');
    await vi.advanceTimersByTimeAsync(4_999);
    expect(cache.peek('k')).toBe('slow');
    await vi.advanceTimersByTimeAsync(1);
    expect(cache.peek('k')).toBeUndefined();
  });

  it('reset forgets the value (not loaded again) and reloads at once when subscribed', async () => {
    const cache = new QueryCache();
    let n = 0;
    const load = vi.fn(async () => ++n);
    const seen: unknown[] = [];
    cache.subscribe('k', () => seen.push(cache.peek('k')));
    await cache.fetch('k', load);
    cache.reset('k');
    expect(cache.peek('k')).toBeUndefined();
    expect(cache.needsLoad('k')).toBe(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(seen).toEqual([1, undefined, 2]);
  });
});
