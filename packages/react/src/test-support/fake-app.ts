/**
 * A small in-memory stand-in for `ClientApp`, implementing the part of the SDK
 * the React bindings use, for the states a real service cannot be held in:
 * a user load kept pending, a failing project load, a refused sign-in on cue.
 * Tests that can use the real thing use `real-app.ts` (the SDK on an
 * in-process service); the e2e suite covers the built packages in Chromium.
 */
import type { AppData, AppDataKey, ClientApp, CurrentUser, HandlerUrls, Project } from '@latchkey/js';
import { resolveUrls } from '@latchkey/js';
import { vi } from 'vitest';

type UserFields = Pick<CurrentUser, 'id' | 'displayName' | 'primaryEmail' | 'profileImageUrl'>;

export type FakeUser = CurrentUser & { signOut: ReturnType<typeof vi.fn<CurrentUser['signOut']>> };

export function fakeUser(fields: Partial<UserFields> = {}): FakeUser {
  const user = {
    id: 'user-1',
    displayName: 'Ada Lovelace',
    primaryEmail: 'ada@example.com',
    profileImageUrl: null,
    ...fields,
    signOut: vi.fn<CurrentUser['signOut']>(async () => undefined),
  };
  return user as unknown as FakeUser;
}

interface FakeAppOptions {
  /** The user snapshot at start (`undefined` = not loaded yet, its load pending until `finishLoad`; default `null`). */
  user?: CurrentUser | null;
  urls?: Partial<HandlerUrls>;
  /** The project's display name (`null`: loading the project fails). */
  projectName?: string | null;
  /** Project settings over the defaults (password on, magic link off). */
  config?: Partial<Project['config']>;
}

type Snapshots = { [K in AppDataKey]?: AppData[K] };

/** A key of `AppData`, or one of the four queries those keys name (the hooks pass queries). */
type Target = AppDataKey | { key: readonly unknown[] };

/** The `AppData` key of `target`: a query's key ends with the name (`['me', 'user']`, `['project']`). */
const nameOf = (target: Target): AppDataKey =>
  typeof target === 'string' ? target : (target.key[target.key.length - 1] as AppDataKey);

export function createFakeApp(options: FakeAppOptions = {}) {
  const listeners: Record<AppDataKey, Set<() => void>> = {
    user: new Set(),
    project: new Set(),
    contactChannels: new Set(),
    teams: new Set(),
  };
  const snapshots: Snapshots = { user: 'user' in options ? options.user : null };
  const inFlight: { [K in AppDataKey]?: Promise<AppData[K]> } = {};
  let loadResult: CurrentUser | null = snapshots.user ?? null;
  let releaseLoad: (() => void) | null = null;
  const projectName = options.projectName === undefined ? 'Demo project' : options.projectName;

  const set = <K extends AppDataKey>(key: K, value: AppData[K] | undefined) => {
    (snapshots as Record<K, AppData[K] | undefined>)[key] = value;
    for (const listener of listeners[key]) listener();
  };

  const loaders: { [K in AppDataKey]: () => Promise<AppData[K]> } = {
    async user() {
      await new Promise<void>((resolve) => {
        releaseLoad = resolve;
      });
      return loadResult;
    },
    async contactChannels() {
      return [];
    },
    async teams() {
      return [];
    },
    async project() {
      if (projectName === null) throw new Error('project unavailable');
      const config = {
        signUpEnabled: true,
        credentialEnabled: true,
        magicLinkEnabled: false,
        oauthProviders: [],
        ...options.config,
      };
      return { id: 'p', displayName: projectName, config } as Project;
    },
  };

  /** The shared load of `key`: one at a time, its result stored and announced. */
  const loadShared = <K extends AppDataKey>(key: K): Promise<AppData[K]> => {
    const cached = snapshots[key];
    if (cached !== undefined) return Promise.resolve(cached as AppData[K]);
    const running = inFlight[key] as Promise<AppData[K]> | undefined;
    if (running) return running;
    const started = loaders[key]().then(
      (value) => {
        delete inFlight[key];
        set(key, value as AppData[K]);
        return value as AppData[K];
      },
      (error: unknown) => {
        delete inFlight[key];
        throw error;
      },
    );
    (inFlight as Record<K, Promise<AppData[K]>>)[key] = started;
    return started;
  };

  const fake = {
    urls: resolveUrls(options.urls),
    signInWithCredential: vi.fn<ClientApp['signInWithCredential']>(async () => ({ userId: 'u', newUser: false })),
    signUpWithCredential: vi.fn<ClientApp['signUpWithCredential']>(async () => ({ userId: 'u', newUser: true })),
    sendForgotPasswordEmail: vi.fn<ClientApp['sendForgotPasswordEmail']>(async () => undefined),
    verifyPasswordResetCode: vi.fn<ClientApp['verifyPasswordResetCode']>(async () => undefined),
    resetPassword: vi.fn<ClientApp['resetPassword']>(async () => undefined),
    verifyEmail: vi.fn<ClientApp['verifyEmail']>(async () => undefined),
    sendMagicLinkEmail: vi.fn<ClientApp['sendMagicLinkEmail']>(async () => ({ nonce: 'n'.repeat(39) })),
    signInWithMagicLink: vi.fn<ClientApp['signInWithMagicLink']>(async () => ({ userId: 'u', newUser: false })),
    /** Pending by default: the page is going to the provider. */
    signInWithOAuth: vi.fn<ClientApp['signInWithOAuth']>(() => new Promise(() => {})),
    /** Pending by default: the SDK is taking the browser on. */
    callOAuthCallback: vi.fn<ClientApp['callOAuthCallback']>(() => new Promise(() => {})),
    getUser: vi.fn(async (): Promise<CurrentUser | null> => loadShared('user')),
    load: vi.fn<(target: Target) => Promise<AppData[AppDataKey]>>((target) => loadShared(nameOf(target))),
    subscribe: vi.fn((target: Target, listener: () => void) => {
      const key = nameOf(target);
      listeners[key].add(listener);
      if (snapshots[key] === undefined) fake.load(key).catch(() => {});
      return () => listeners[key].delete(listener);
    }),
    getSnapshot: (target: Target) => snapshots[nameOf(target)],
    redirectToSignIn: vi.fn<ClientApp['redirectToSignIn']>(() => new Promise(() => {})),
    redirectToAfterSignOut: vi.fn<ClientApp['redirectToAfterSignOut']>(async () => undefined),
  } satisfies Partial<Record<keyof ClientApp, unknown>>;

  return {
    /** The fake, typed as the app the components take. */
    app: fake as unknown as ClientApp,
    /** The same object, with its mocks visible. */
    mocks: fake,
    /** Replaces the user snapshot (`undefined`: another tab began a session; the next load is pending). */
    setUser: (user: CurrentUser | null | undefined) => set('user', user),
    /** Finishes a pending user load with `user`. */
    finishLoad(user: CurrentUser | null) {
      loadResult = user;
      releaseLoad?.();
    },
    /** How many components listen to `key`. */
    listenerCount: (key: AppDataKey = 'user') => listeners[key].size,
    /** How many times `key` was loaded (calls of `load`). */
    loadCount: (key: AppDataKey) => fake.load.mock.calls.filter(([called]) => nameOf(called) === key).length,
  };
}

export { deferred, visit } from './page.js';
