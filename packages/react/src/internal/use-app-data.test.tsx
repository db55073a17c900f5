import type { ClientApp, Project } from '@latchkey/js';
import { act, cleanup, render, screen } from '@testing-library/react';
import { Component, type ReactNode, StrictMode, Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LatchkeyProvider } from '../provider.js';
import { deferred } from '../test-support/fake-app.js';
import { useAppData } from './use-app-data.js';

afterEach(cleanup);

/** An app whose project loads are held open until the test settles them. */
function projectStore() {
  const listeners = new Set<() => void>();
  let snapshot: Project | undefined;
  let pending: ReturnType<typeof deferred<Project>> | null = null;
  const load = vi.fn(() => {
    if (snapshot) return Promise.resolve(snapshot);
    if (!pending) {
      const started = deferred<Project>();
      pending = started;
      started.promise.then(
        (project) => {
          snapshot = project;
          for (const listener of listeners) listener();
        },
        () => {},
      );
      started.promise
        .finally(() => {
          if (pending === started) pending = null;
        })
        .catch(() => {});
    }
    return pending.promise;
  });
  const app = {
    urls: {},
    load,
    getSnapshot: () => snapshot,
    subscribe: vi.fn((_key: string, listener: () => void) => {
      listeners.add(listener);
      if (!snapshot) load().catch(() => {});
      return () => listeners.delete(listener);
    }),
  };
  return {
    app: app as unknown as ClientApp,
    load,
    subscribe: app.subscribe,
    listeners,
    resolve: (name: string) => act(async () => pending?.resolve({ displayName: name } as Project)),
    reject: (error: Error) => act(async () => pending?.reject(error)),
  };
}

function Name({ enabled = true }: { enabled?: boolean }) {
  const project = useAppData('project', { suspend: false, enabled });
  if (project.status === 'ready') return <p>name:{project.data.displayName}</p>;
  if (project.status === 'failed') return <p>failed:{(project.error as Error).message}</p>;
  return <p>loading</p>;
}

function SuspendedName() {
  return <p>name:{useAppData('project', { suspend: true }).displayName}</p>;
}

class Boundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    return this.state.error ? <p>boundary:{this.state.error.message}</p> : this.props.children;
  }
}

function renderWith(store: ReturnType<typeof projectStore>, ui: ReactNode) {
  return render(
    <StrictMode>
      <LatchkeyProvider app={store.app}>
        <Boundary>
          <Suspense fallback={<p>suspended</p>}>{ui}</Suspense>
        </Boundary>
      </LatchkeyProvider>
    </StrictMode>,
  );
}

describe('useAppData without suspending', () => {
  it('renders at once as loading, then the data; one shared load for every component', async () => {
    const store = projectStore();
    renderWith(
      store,
      <>
        <Name />
        <Name />
      </>,
    );
    expect(screen.getAllByText('loading')).toHaveLength(2);
    await store.resolve('Acme');
    expect(screen.getAllByText('name:Acme')).toHaveLength(2);
    expect(new Set(store.load.mock.results.map((result) => result.value)).size).toBe(1);
  });

  it('reports a failed load, and loads anew on the next mount', async () => {
    const store = projectStore();
    renderWith(store, <Name />);
    await store.reject(new Error('offline'));
    expect(screen.getByText('failed:offline')).toBeTruthy();
    cleanup();
    renderWith(store, <Name />);
    expect(screen.getByText('loading')).toBeTruthy();
    await store.resolve('Acme');
    expect(screen.getByText('name:Acme')).toBeTruthy();
  });

  it('with enabled: false never loads nor subscribes', async () => {
    const store = projectStore();
    renderWith(store, <Name enabled={false} />);
    await act(async () => {});
    expect(screen.getByText('loading')).toBeTruthy();
    expect(store.load).not.toHaveBeenCalled();
    expect(store.subscribe).not.toHaveBeenCalled();
  });

  it('unsubscribes on unmount', async () => {
    const store = projectStore();
    const view = renderWith(store, <Name />);
    await store.resolve('Acme');
    expect(store.listeners.size).toBe(1);
    view.unmount();
    expect(store.listeners.size).toBe(0);
  });
});

describe('useAppData suspending', () => {
  it('suspends until loaded, then follows the store', async () => {
    const store = projectStore();
    renderWith(store, <SuspendedName />);
    expect(screen.getByText('suspended')).toBeTruthy();
    await store.resolve('Acme');
    expect(screen.getByText('name:Acme')).toBeTruthy();
    expect(store.listeners.size).toBe(1);
  });

  it('throws a failed load to the error boundary', async () => {
    const store = projectStore();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderWith(store, <SuspendedName />);
    await store.reject(new Error('offline'));
    // React holds a suspended tree's fallback for ~300 ms before retrying: allow for it on a busy machine.
    expect(await screen.findByText('boundary:offline', {}, { timeout: 5_000 })).toBeTruthy();
    vi.mocked(console.error).mockRestore();
  });
});
