/**
 * The data module of `ClientApp`: `load`, `subscribe`, `getSnapshot` and
 * `invalidate` of any client query (`query.ts`), and of the four
 * `AppDataKey` names kept for the queries UI bindings read most
 * (`'user'`, `'project'`, `'contactChannels'`, `'teams'`); `getProject`.
 */
import { type ContactChannel, contactChannelsQuery } from './contact-channels/contact-channel.js';
import type { Project } from './projects/project-decoder.js';
import { projectQuery } from './projects/projects-api.js';
import type { QueryAccess, QueryKey } from './query.js';
import { type Team, teamsQuery } from './teams/team.js';
import type { ClientQuery, ClientScope } from './users/account-data.js';
import { type CurrentUser, currentUserQuery } from './users/current-user.js';

/**
 * The data an app loads and caches, by key: what `subscribe`, `getSnapshot`
 * and `load` read. UI bindings subscribe to a key and read its snapshot.
 * Each key names a query (`'user'` is `currentUserQuery`, `'project'`
 * `projectQuery`, `'contactChannels'` `contactChannelsQuery`, `'teams'`
 * `teamsQuery`); every other query is passed as itself.
 *
 * @example
 * ```ts
 * const user: AppData['user'] = app.getSnapshot('user') ?? null;
 * ```
 */
export interface AppData {
  /** The signed-in user; `null` when signed out. */
  user: CurrentUser | null;
  /** The project's public settings. */
  project: Project;
  /** The signed-in user's e-mail addresses; `[]` when signed out. */
  contactChannels: ContactChannel[];
  /** The signed-in user's teams; `[]` when signed out. */
  teams: Team[];
}

/**
 * A key of `AppData`.
 *
 * @example
 * ```ts
 * const keys: AppDataKey[] = ['user', 'project', 'contactChannels'];
 * ```
 */
export type AppDataKey = keyof AppData;

/** The query each `AppDataKey` names. */
const appData: { readonly [K in AppDataKey]: ClientQuery<AppData[K]> } = {
  user: currentUserQuery,
  project: projectQuery,
  contactChannels: contactChannelsQuery,
  teams: teamsQuery,
};

const queryOf = <T>(target: AppDataKey | ClientQuery<T>): ClientQuery<T> =>
  (typeof target === 'string' ? appData[target] : target) as ClientQuery<T>;

/**
 * `ClientApp`'s data methods: the client queries, or their `AppDataKey` names.
 *
 * @example
 * ```ts
 * const stop = app.subscribe('user', () => render(app.getSnapshot('user')));
 * ```
 */
export interface ClientAppData extends QueryAccess<ClientScope> {
  /** The project's public settings (which sign-in methods are on). */
  getProject(): Promise<Project>;
  /**
   * Calls `listener` whenever the data of a key or query changes (for
   * `'user'`: sign-in, sign-out, update, another tab). Subscribing loads the
   * data when it is not loaded yet; account data also watches other tabs.
   * Returns the unsubscribe function. UI bindings pair it with `getSnapshot`.
   *
   * @example
   * ```ts
   * const user = useSyncExternalStore((l) => app.subscribe('user', l), () => app.getSnapshot('user'));
   * const stop = app.subscribe(teamMembersQuery(team), () => render(app.getSnapshot(teamMembersQuery(team))));
   * ```
   */
  subscribe<K extends AppDataKey>(key: K, listener: () => void): () => void;
  subscribe<T>(query: ClientQuery<T>, listener: () => void): () => void;
  /**
   * The data of a key or query as last loaded; `undefined` while not loaded
   * yet (for `'user'` also while another tab's new session loads). `null`
   * user: signed out.
   *
   * @example
   * ```ts
   * const project = app.getSnapshot('project'); // Project | undefined
   * ```
   */
  getSnapshot<K extends AppDataKey>(key: K): AppData[K] | undefined;
  getSnapshot<T>(query: ClientQuery<T>): T | undefined;
  /**
   * Loads the data of a key or query, or returns it from the cache;
   * concurrent calls share one request. `getUser()` and `getProject()` go through it.
   *
   * @example
   * ```ts
   * const user = await app.load('user'); // CurrentUser | null
   * const held = await app.load(teamPermissionsQuery(team));
   * ```
   */
  load<K extends AppDataKey>(key: K): Promise<AppData[K]>;
  load<T>(query: ClientQuery<T>): Promise<T>;
  /**
   * Marks a query, or every query under a key (`['me', 'team', teamId]`),
   * out of date: subscribed ones reload before the promise settles, the
   * others on their next load. The SDK's own mutations do this already.
   *
   * @example
   * ```ts
   * await app.invalidate(teamMembersQuery(team)); // a member joined elsewhere
   * ```
   */
  invalidate(target: AppDataKey | ClientQuery<unknown> | QueryKey): Promise<void>;
}

/** The data module of `ClientApp`. */
export function clientAppData({ data }: ClientScope): ClientAppData {
  return {
    getProject: () => data.load(projectQuery),
    subscribe: <T>(target: AppDataKey | ClientQuery<T>, listener: () => void) =>
      data.subscribe(queryOf(target), listener),
    getSnapshot: <T>(target: AppDataKey | ClientQuery<T>) => data.snapshot(queryOf(target)),
    load: <T>(target: AppDataKey | ClientQuery<T>) => data.load(queryOf(target)),
    invalidate: (target) =>
      data.invalidate(Array.isArray(target) ? target : queryOf(target as AppDataKey | ClientQuery<unknown>).key),
  } as ClientAppData;
}
