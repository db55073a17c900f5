/**
 * The write guard of strict mode (every test service): the database handle a
 * route handler gets refuses `INSERT`, `UPDATE` and `DELETE` unless an action
 * (`act`, `events/recorder.ts`) is running, so a handler that changes data
 * without recording what happened fails its tests. Writes made outside a
 * route handler (the outbox worker, housekeeping, the caches' loads) are not
 * the guard's: they use the storage's own handle.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { type WriteGuard, writeGuard } from '../storage/write-guard.js';
import { inAction, oneStatementRefusal } from './recorder.js';

/**
 * Routes whose handlers still write outside an action, by `METHOD path`: each
 * leaves this list when its feature's changes become actions.
 */
export const routesNotYetActions: ReadonlySet<string> = new Set<string>();

/** The route whose handler runs in the current async context (strict mode only). */
const handling = new AsyncLocalStorage<string>();

/** Runs `handler` as the handler of `route` (`METHOD path`), for the guard. */
export function asRouteHandler<T>(route: string, handler: () => Promise<T>): Promise<T> {
  return handling.run(route, handler);
}

/** The plugin that refuses a route handler's writes outside an action, unless its route is allowed for now. */
export function actionGuard(allowed: (route: string) => boolean): WriteGuard {
  return writeGuard(() => {
    const route = handling.getStore();
    if (route === undefined || inAction() || allowed(route)) return null;
    return `${route} writes outside an action: make the change an action (events/recorder.ts)`;
  }, oneStatementRefusal);
}
