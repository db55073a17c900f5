/**
 * A small in-memory stand-in for `ClientApp`, implementing the part of the SDK
 * the React bindings use. For component tests only; the real SDK and service
 * are exercised end to end by the e2e suite.
 */
import { type ClientApp, type CurrentUser, type HandlerUrls, type Project, resolveUrls } from '@latchkey/js';
import { vi } from 'vitest';

type UsedByReact =
  | 'urls'
  | 'signInWithCredential'
  | 'signUpWithCredential'
  | 'getUser'
  | 'getProject'
  | 'subscribeUser'
  | 'getUserSnapshot'
  | 'redirectToSignIn'
  | 'redirectToAfterSignOut';

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
  /** The user snapshot at start (`undefined` = not loaded yet; default `null`). */
  user?: CurrentUser | null;
  urls?: Partial<HandlerUrls>;
  /** The project's display name (`null`: `getProject` fails). */
  projectName?: string | null;
}

export function createFakeApp(options: FakeAppOptions = {}) {
  const listeners = new Set<() => void>();
  let snapshot: CurrentUser | null | undefined = 'user' in options ? options.user : null;
  let loadResult: CurrentUser | null = snapshot ?? null;
  let releaseLoad: (() => void) | null = null;
  const projectName = options.projectName === undefined ? 'Demo project' : options.projectName;

  const setUser = (user: CurrentUser | null | undefined) => {
    snapshot = user;
    for (const listener of listeners) listener();
  };

  const fake = {
    urls: resolveUrls(options.urls),
    signInWithCredential: vi.fn<ClientApp['signInWithCredential']>(async () => ({ userId: 'u', newUser: false })),
    signUpWithCredential: vi.fn<ClientApp['signUpWithCredential']>(async () => ({ userId: 'u', newUser: true })),
    getUser: vi.fn(async (): Promise<CurrentUser | null> => {
      if (snapshot !== undefined) return snapshot;
      await new Promise<void>((resolve) => {
        releaseLoad = resolve;
      });
      setUser(loadResult);
      return loadResult;
    }),
    getProject: vi.fn(async (): Promise<Project> => {
      if (projectName === null) throw new Error('project unavailable');
      return { id: 'p', displayName: projectName } as Project;
    }),
    subscribeUser: vi.fn<ClientApp['subscribeUser']>((listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    }),
    getUserSnapshot: () => snapshot,
    redirectToSignIn: vi.fn<ClientApp['redirectToSignIn']>(() => new Promise(() => {})),
    redirectToAfterSignOut: vi.fn<ClientApp['redirectToAfterSignOut']>(async () => undefined),
  } satisfies Pick<ClientApp, Exclude<UsedByReact, 'getUser'>> & { getUser: unknown };

  return {
    /** The fake, typed as the app the components take. */
    app: fake as unknown as ClientApp,
    /** The same object, with its mocks visible. */
    mocks: fake,
    setUser,
    /** Finishes a pending `getUser()` load with `user`. */
    finishLoad(user: CurrentUser | null) {
      loadResult = user;
      releaseLoad?.();
    },
    listenerCount: () => listeners.size,
  };
}

/** A promise with its resolve/reject exposed, to hold an SDK call open. */
export function deferred<T = void>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/** Puts the browser at `path` (jsdom). */
export function visit(path: string) {
  window.history.replaceState(null, '', path);
}
