/**
 * Queries: the SDK's data as values, for every audience (spec §9).
 *
 * A query is a key plus how to load it in the scope of the audience that
 * runs it. Each module exports its queries (`currentUserQuery`,
 * `teamMembersQuery(team)`, `serverUsersQuery({ query: 'ada' })`,
 * `apiKeySetsQuery`, ...), and every audience (`ClientApp`, `ServerApp`,
 * `AdminApp`, `ProjectOwnerApp`) runs them through the same four methods over
 * its one cache:
 *
 * - `app.load(query)`: the cached value when fresh, else one load shared by
 *   every concurrent caller (one request however many ask at once);
 * - `app.subscribe(query, listener)`: calls `listener` whenever the value
 *   changes, loading it first when it is not loaded; returns the unsubscribe;
 * - `app.getSnapshot(query)`: the value as last loaded, `undefined` while not
 *   loaded (UI bindings pair it with `subscribe`: `useSyncExternalStore`);
 * - `app.invalidate(query or key)`: marks the query, or every query whose key
 *   starts with the given key (`['team', teamId]`), out of date; subscribed
 *   ones reload at once (the promise settles when they have), the others on
 *   their next `load`.
 *
 * The query's type says which audiences may run it: a client query takes the
 * signed-in user's scope, a server query the scope of `ServerApp` or
 * `AdminApp`, an admin query `AdminApp`'s only; passing another audience's
 * query is a type error.
 *
 * Mutations invalidate (or set) what they change: the objects of `ClientApp`
 * re-read what they changed; a server-side audience invalidates, after every
 * successful write it sends, the keys its path changes (one table,
 * `internal/cache/write-effects.ts`). An entry is dropped 5 s after its last
 * subscriber leaves (or 5 s after a load nobody subscribed to).
 *
 * @example
 * ```ts
 * import { teamMembersQuery } from '@latchkey/js';
 * const stop = app.subscribe(teamMembersQuery(team), () => render(app.getSnapshot(teamMembersQuery(team))));
 *
 * import { serverUsersQuery } from '@latchkey/js/server';
 * const page = await serverApp.load(serverUsersQuery({ query: 'example.com', limit: 20 }));
 * await serverApp.invalidate(['users']); // every cached page of users
 * ```
 */

/**
 * Where a query's value sits in an audience's cache: its kind first, then
 * its parameters (`['team', teamId, 'members']`). A key is also the prefix of
 * the keys below it, for `invalidate`.
 *
 * @example
 * ```ts
 * const key: QueryKey = ['users', 'ada', null, 20];
 * ```
 */
export type QueryKey = readonly (string | number | boolean | null)[];

/**
 * One piece of data an audience can load: its key, and how to load it with
 * the scope `S` of the audience that runs it (its credentials, its cache).
 *
 * @example
 * ```ts
 * const user = await app.load(currentUserQuery satisfies Query<CurrentUser | null, ClientScope>);
 * ```
 */
export interface Query<T, S> {
  readonly key: QueryKey;
  readonly load: (scope: S) => Promise<T>;
  /** Runs while anyone is subscribed (e.g. watching other tabs' cookies); returns its stop function. */
  readonly watch?: (scope: S) => () => void;
  /** Takes in changes made elsewhere before each read (e.g. a session another tab ended). */
  readonly sync?: (scope: S) => void;
}

/**
 * The four data methods every audience has, for the queries of scope `S`.
 *
 * @example
 * ```ts
 * const data: QueryAccess<AdminScope> = adminApp;
 * const templates = await data.load(emailTemplatesQuery);
 * ```
 */
export interface QueryAccess<S> {
  /** The cached value when fresh, else one shared load. */
  load<T>(query: Query<T, S>): Promise<T>;
  /** Calls `listener` on every change of the value; subscribing loads it when it is not loaded. */
  subscribe<T>(query: Query<T, S>, listener: () => void): () => void;
  /** The value as last loaded; `undefined` while not loaded. */
  getSnapshot<T>(query: Query<T, S>): T | undefined;
  /** Marks the query, or every query under a key, out of date; subscribed ones reload before this settles. */
  invalidate(target: Query<unknown, S> | QueryKey): Promise<void>;
}
