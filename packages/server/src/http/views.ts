/**
 * Views: how a domain value becomes a route's answer, per access type. Apart
 * from the routes (`route.ts`) so that the modules declaring an entity's
 * views need nothing of the routes, nor of the service's `Deps`.
 */
import type { z } from 'zod';
import type { Sealer } from '../crypto/encryption.js';
import type { Db } from '../storage/db.js';
import type { RequestAuth } from './env.js';

/** How a value becomes the answer for one access type: the wire schema and the function that renders it. */
interface View<T> {
  readonly schema: z.ZodType;
  render(value: T, context: RenderContext): unknown;
}

/** Views of one entity per access type; `server` and `admin` fall back to the view below them. */
export interface ViewSet<T> {
  readonly client: View<T>;
  readonly server?: View<T>;
  readonly admin?: View<T>;
}

/** What a view may read besides the value: who asked and the service's parts. */
export interface RenderContext {
  auth: RequestAuth | null;
  deps: ViewNeeds;
}

/** What views need of the service. */
export interface ViewNeeds {
  db: Db;
  /** Opens the secrets of project configs, for the admin view. */
  configSealer: Sealer;
}

/**
 * Declares the views of one entity.
 *
 * @example
 * export const userViews = defineViews<UserRow>({
 *   client: { schema: clientUserSchema, render: clientUserView },
 *   server: { schema: serverUserSchema, render: serverUserView },
 * });
 */
export function defineViews<T>(views: ViewSet<T>): ViewSet<T> {
  return views;
}
