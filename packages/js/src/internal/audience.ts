/**
 * What server-side audiences (`ServerApp`, `AdminApp`, `ProjectOwnerApp`)
 * are made of: a scope (the shared core, the audience's credentials, its
 * cache) that resource modules and queries are given; `mounted.ts` puts the
 * modules' methods on the instance. A capability is written once, as a
 * module, and every audience that has it mounts it; audiences never extend
 * one another. Every audience mounts `queryAccess`: `load`,
 * `subscribe`, `getSnapshot` and `invalidate` of the queries its access
 * allows (`query.ts`).
 */
import type { Query, QueryAccess, QueryKey } from '../query.js';
import { createDataStore, type DataStore } from './cache/data-store.js';
import { invalidatingWrites } from './cache/write-effects.js';
import type { Core, CoreOptions, Send } from './core.js';
import type { Credentials } from './http/credentials.js';

/** What the credentials of a server-side audience may do: server, admin, or a project owner's. */
export type Access = 'server' | 'admin' | 'owner';

/** What a module mounted on a server-side audience, or a query it runs, works with. */
export interface AudienceScope<A extends Access = Access> {
  /** `ServerApp` or `AdminApp`, for the messages of developer errors. */
  readonly audience: string;
  /** Which queries the audience may run: `ServerScope` ones need `server` or `admin`. */
  readonly access: A;
  readonly core: Core<null>;
  /** The options the core was made from: a request's session is made from them too. */
  readonly options: CoreOptions;
  /** The audience's credentials (its key, or an admin access token). */
  readonly credentials: Credentials;
  /** `send` with those credentials; each successful write invalidates what it changed. */
  readonly send: Send;
  /** Refreshes the sessions of incoming requests; absent when the audience was given none. */
  readonly publishableClientKey: string | undefined;
  /** The audience's cache, loading with this scope. */
  readonly data: DataStore<AudienceScope<A>>;
}

/** The scope of queries that server access may run (`ServerApp`, and `AdminApp`, whose access includes it). */
export type ServerScope = AudienceScope<'server' | 'admin'>;
/** The scope of queries that only admin access may run (`AdminApp`). */
export type AdminScope = AudienceScope<'admin'>;
/** The scope of queries of a project owner (`ProjectOwnerApp`). */
export type OwnerScope = AudienceScope<'owner'>;

/** The scope of an audience over `core` with `credentials`. */
export function createAudienceScope<A extends Access>(
  fields: Omit<AudienceScope<A>, 'send' | 'data'>,
): AudienceScope<A> {
  const data = createDataStore(fields.core.cache, () => scope);
  const scope: AudienceScope<A> = {
    ...fields,
    send: invalidatingWrites(fields.core.sender(fields.credentials), data),
    data,
  };
  return scope;
}

/** The data methods of an audience: the queries of its scope, over its cache. */
export function queryAccess<A extends Access>(scope: AudienceScope<A>): QueryAccess<AudienceScope<A>> {
  const { data } = scope;
  return {
    load: (query) => data.load(query),
    subscribe: (query, listener) => data.subscribe(query, listener),
    getSnapshot: (query) => data.snapshot(query),
    invalidate: (target: Query<unknown, AudienceScope<A>> | QueryKey) =>
      data.invalidate(Array.isArray(target) ? (target as QueryKey) : (target as Query<unknown, unknown>).key),
  };
}

/**
 * Refuses a secret key where a page could read it: an app built with the
 * secret server key or the super secret admin key in a browser (where
 * `window` or `document` exist) throws before sending anything.
 */
export function refuseSecretKeyInBrowser(audience: string, keyName: string): void {
  if (typeof window === 'undefined' && typeof document === 'undefined') return;
  throw new Error(
    `${audience}: the ${keyName} must never reach a browser, where anyone can read it. ` +
      `Use ${audience} in server code only (import it from '@latchkey/js/server'), and ClientApp in the browser.`,
  );
}
