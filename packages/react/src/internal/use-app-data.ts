'use client';
/**
 * `useQuery(query, options)`: any query of any audience (`@latchkey/js`
 * queries: `teamMembersQuery(team)`, `currentUserQuery`, and on the server
 * entry `apiKeySetsQuery`, `serverUsersQuery(...)`...), as a thin
 * `useSyncExternalStore` adapter over the audience's `subscribe`,
 * `getSnapshot` and `load`. Caching, shared loads and invalidation are the
 * SDK's; this hook only decides what a render does while the data is not
 * there yet:
 *
 * - `suspend: true`: the render suspends until the data is loaded and a failed
 *   load is thrown to the nearest error boundary (the page waits for it);
 * - `suspend: false`: the render goes on with `{ status: 'loading' }`, then
 *   re-renders with `ready` or `failed` (a detail the page can show later).
 *
 * The audience is `options.app`, else the nearest `LatchkeyDataProvider`'s,
 * else the `LatchkeyProvider`'s `ClientApp`. `useAppData(key)` is the same
 * for the four `AppDataKey` names of `ClientApp`'s queries, always on the
 * `LatchkeyProvider`'s `ClientApp`.
 */
import type { AppData, AppDataKey, Query, QueryAccess } from '@latchkey/js';
import { useCallback, useSyncExternalStore } from 'react';
import { useApp, useDataApp } from '../provider.js';
import { WorkTracker } from './suspense.js';

/**
 * Data that may still be loading, for renders that do not suspend.
 * `loading` also while `enabled` is false and nothing is cached.
 */
export type AppDataState<T> =
  | { status: 'loading'; data?: undefined; error?: undefined }
  | { status: 'ready'; data: T; error?: undefined }
  | { status: 'failed'; data?: undefined; error: unknown };

/** How `useQuery` renders while loading, and which audience runs the query. */
export interface UseQueryOptions<S> {
  /** Suspend while loading (see the module notes). */
  suspend: boolean;
  /** `false`: only read what is cached, never load (default true). For `suspend: false` only. */
  enabled?: boolean;
  /** The audience that runs the query; default: the one the providers give. */
  app?: QueryAccess<S>;
}

/**
 * What a slot reads: a query, or for `ClientApp` one of the names of its
 * queries (`'user'`...), which it reads without this package holding the query's code.
 */
type Target = Query<unknown, unknown> | AppDataKey;

/** What the hook calls on an audience; only a `ClientApp` is given names. */
interface DataApp {
  load(target: Target): Promise<unknown>;
  subscribe(target: Target, listener: () => void): () => void;
  getSnapshot(target: Target): unknown;
}

/** One query of an app, shared by every component of that app and key. */
interface Slot {
  app: DataApp;
  query: Target;
}

const slots = new WeakMap<object, Map<string, Slot>>();

function slotOf(app: DataApp, query: Target): Slot {
  const key = typeof query === 'string' ? query : JSON.stringify(query.key);
  const byKey = slots.get(app) ?? new Map<string, Slot>();
  slots.set(app, byKey);
  const slot = byKey.get(key) ?? { app, query };
  byKey.set(key, slot);
  return slot;
}

const load = (slot: Slot) => slot.app.load(slot.query);
/** Loads that suspended renders wait for. */
const suspendedLoads = new WorkTracker<Slot>(load);
/** Loads that non-suspending renders watch, to learn of a failure. */
const watchedLoads = new WorkTracker<Slot>(load);

export function useQuery<T, S>(query: Query<T, S>, options: { suspend: true; app?: QueryAccess<S> }): T;
export function useQuery<T, S>(
  query: Query<T, S>,
  options: { suspend: false; enabled?: boolean; app?: QueryAccess<S> },
): AppDataState<T>;
export function useQuery<T, S>(
  query: Query<T, S>,
  { suspend, enabled = true, app: given }: UseQueryOptions<S>,
): T | AppDataState<T> {
  const provided = useDataApp();
  const slot = slotOf((given ?? provided) as DataApp, query as Target);
  const subscribe = useCallback(
    (listener: () => void) => (enabled || suspend ? slot.app.subscribe(slot.query, listener) : () => {}),
    [slot, enabled, suspend],
  );
  const read = useCallback(() => slot.app.getSnapshot(slot.query) as T | undefined, [slot]);
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

export function useAppData<K extends AppDataKey>(key: K, options: { suspend: true }): AppData[K];
export function useAppData<K extends AppDataKey>(
  key: K,
  options: { suspend: false; enabled?: boolean },
): AppDataState<AppData[K]>;
/** `useQuery` of the `ClientApp` query `key` names (`'user'`, `'project'`, `'contactChannels'`, `'teams'`), by its name. */
export function useAppData<K extends AppDataKey>(
  key: K,
  options: { suspend: boolean; enabled?: boolean },
): AppData[K] | AppDataState<AppData[K]> {
  const app = useApp() as unknown as QueryAccess<unknown>;
  // A name stands for its query here: `ClientApp` resolves it (see `Target`).
  return useQuery(key as unknown as Query<AppData[K], unknown>, { ...(options as { suspend: false }), app });
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
