/**
 * `useAppData(key)`: one key of the SDK's `AppData` (the user, the project,
 * later teams…), as a thin `useSyncExternalStore` adapter over
 * `app.subscribe`, `app.getSnapshot` and `app.load`. Caching, shared loads
 * and invalidation are the SDK's; this hook only decides what a render does
 * while the data is not there yet:
 *
 * - `suspend: true`: the render suspends until the data is loaded and a failed
 *   load is thrown to the nearest error boundary (the page waits for it);
 * - `suspend: false`: the render goes on with `{ status: 'loading' }`, then
 *   re-renders with `ready` or `failed` (a detail the page can show later).
 */
import type { AppData, AppDataKey, ClientApp } from '@latchkey/js';
import { useCallback, useSyncExternalStore } from 'react';
import { useApp } from '../provider.js';
import { WorkTracker } from './suspense.js';

/**
 * Data that may still be loading, for renders that do not suspend.
 * `loading` also while `enabled` is false and nothing is cached.
 */
export type AppDataState<T> =
  | { status: 'loading'; data?: undefined; error?: undefined }
  | { status: 'ready'; data: T; error?: undefined }
  | { status: 'failed'; data?: undefined; error: unknown };

export interface UseAppDataOptions {
  /** Suspend while loading (see the module notes). */
  suspend: boolean;
  /** `false`: only read what is cached, never load (default true). For `suspend: false` only. */
  enabled?: boolean;
}

/** One key of an app's data, shared by every component of that app and key. */
interface Slot {
  app: ClientApp;
  key: AppDataKey;
}

const slots = new WeakMap<ClientApp, Map<AppDataKey, Slot>>();

function slotOf(app: ClientApp, key: AppDataKey): Slot {
  const byKey = slots.get(app) ?? new Map<AppDataKey, Slot>();
  slots.set(app, byKey);
  const slot = byKey.get(key) ?? { app, key };
  byKey.set(key, slot);
  return slot;
}

const load = (slot: Slot) => slot.app.load(slot.key);
/** Loads that suspended renders wait for. */
const suspendedLoads = new WorkTracker<Slot>(load);
/** Loads that non-suspending renders watch, to learn of a failure. */
const watchedLoads = new WorkTracker<Slot>(load);

export function useAppData<K extends AppDataKey>(key: K, options: { suspend: true }): AppData[K];
export function useAppData<K extends AppDataKey>(
  key: K,
  options: { suspend: false; enabled?: boolean },
): AppDataState<AppData[K]>;
export function useAppData<K extends AppDataKey>(
  key: K,
  { suspend, enabled = true }: UseAppDataOptions,
): AppData[K] | AppDataState<AppData[K]> {
  const app = useApp();
  const slot = slotOf(app, key);
  const subscribe = useCallback(
    (listener: () => void) => (enabled || suspend ? app.subscribe(key, listener) : () => {}),
    [app, key, enabled, suspend],
  );
  const read = useCallback(() => app.getSnapshot(key), [app, key]);
  const data = useSyncExternalStore(subscribe, read, read);

  // Only a non-suspending render watches its load; `loadStatus` is read either way (hooks run unconditionally).
  const watchLoad = useCallback(
    (listener: () => void) => {
      if (suspend || !enabled) return () => {};
      let live = true;
      watchedLoads.run(slot).promise.then(() => live && listener());
      return () => {
        live = false;
      };
    },
    [slot, suspend, enabled],
  );
  const readLoadStatus = useCallback(() => watchedLoads.peek(slot)?.status, [slot]);
  const loadStatus = useSyncExternalStore(watchLoad, readLoadStatus, readLoadStatus);

  if (suspend) return suspendUntilLoaded(slot, data);
  if (data !== undefined) return { status: 'ready', data };
  if (loadStatus === 'failed' && enabled) return { status: 'failed', error: watchedLoads.peek(slot)?.error };
  return { status: 'loading' };
}

function suspendUntilLoaded<T>(slot: Slot, data: T | undefined): T {
  if (data === undefined) {
    suspendedLoads.suspend(slot);
    // Loaded, yet the store holds nothing: newer data replaced it meanwhile (e.g. another tab's session). Wait for that.
    suspendedLoads.forget(slot);
    suspendedLoads.suspend(slot);
  }
  suspendedLoads.forget(slot);
  return data as T;
}
