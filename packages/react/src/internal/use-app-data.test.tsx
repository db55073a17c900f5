import type { ClientQuery, ClientScope, QueryAccess } from '@latchkey/js';
import { act, cleanup, render, screen } from '@testing-library/react';
import { Component, type ReactNode, StrictMode, Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LatchkeyDataProvider, LatchkeyProvider } from '../provider.js';
import { answeringApp } from '../test-support/answering-app.js';
import { deferred } from '../test-support/page.js';
import { useQuery } from './use-app-data.js';

afterEach(cleanup);

/**
 * A query of the real `ClientApp` (no service asked) whose loads the test
 * settles: the SDK's own cache shares, keeps and drops what it loads.
 */
function heldQuery(name = 'held') {
  let pending: ReturnType<typeof deferred<string>> | null = null;
  const load = vi.fn(() => {
    pending ??= deferred<string>();
    return pending.promise;
  });
  const query: ClientQuery<string> = { key: ['test', name], load };
  const settle = (act: (pending: ReturnType<typeof deferred<string>>) => void) => {
    const current = pending;
    pending = null;
    if (current) act(current);
  };
  return {
    query,
    load,
    resolve: (value: string) => act(async () => settle((current) => current.resolve(value))),
    reject: (error: Error) => act(async () => settle((current) => current.reject(error))),
  };
}

function setup(name?: string) {
  const { app } = answeringApp({});
  const subscribe = vi.spyOn(app, 'subscribe');
  const active = () => subscribe.mock.results.length; // subscriptions made
  return { app, subscribe, active, ...heldQuery(name) };
}

function Name({ query, enabled = true }: { query: ClientQuery<string>; enabled?: boolean }) {
  const state = useQuery(query, { suspend: false, enabled });
  if (state.status === 'ready') return <p>name:{state.data}</p>;
  if (state.status === 'failed') return <p>failed:{(state.error as Error).message}</p>;
  return <p>loading</p>;
}

function SuspendedName({ query, app }: { query: ClientQuery<string>; app?: QueryAccess<ClientScope> }) {
  return <p>name:{useQuery(query, { suspend: true, app })}</p>;
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

function renderWith({ app }: ReturnType<typeof setup>, ui: ReactNode) {
  return render(
    <StrictMode>
      <LatchkeyProvider app={app}>
        <Boundary>
          <Suspense fallback={<p>suspended</p>}>{ui}</Suspense>
        </Boundary>
      </LatchkeyProvider>
    </StrictMode>,
  );
}

describe('useQuery without suspending', () => {
  it('renders at once as loading, then the data; one shared load for every component', async () => {
    const test = setup();
    renderWith(
      test,
      <>
        <Name query={test.query} />
        <Name query={{ ...test.query }} />
      </>,
    );
    expect(screen.getAllByText('loading')).toHaveLength(2);
    await test.resolve('Acme');
    expect(screen.getAllByText('name:Acme')).toHaveLength(2);
    expect(test.load).toHaveBeenCalledTimes(1);
  });

  it('reports a failed load, and loads anew on the next mount', async () => {
    const test = setup();
    renderWith(test, <Name query={test.query} />);
    await test.reject(new Error('offline'));
    expect(screen.getByText('failed:offline')).toBeTruthy();
    cleanup();
    renderWith(test, <Name query={test.query} />);
    expect(screen.getByText('loading')).toBeTruthy();
    await test.resolve('Acme');
    expect(screen.getByText('name:Acme')).toBeTruthy();
  });

  it('with enabled: false never loads nor subscribes', async () => {
    const test = setup();
    renderWith(test, <Name query={test.query} enabled={false} />);
    await act(async () => {});
    expect(screen.getByText('loading')).toBeTruthy();
    expect(test.load).not.toHaveBeenCalled();
    expect(test.subscribe).not.toHaveBeenCalled();
  });

  it('follows the SDK cache: an invalidated query is loaded again and shown', async () => {
    const test = setup();
    renderWith(test, <Name query={test.query} />);
    await test.resolve('Acme');
    const reloaded = test.app.invalidate(test.query);
    await test.resolve('Acme Inc');
    await act(() => reloaded);
    expect(screen.getByText('name:Acme Inc')).toBeTruthy();
  });
});

describe('useQuery suspending', () => {
  it('suspends until loaded, then shows the data', async () => {
    const test = setup();
    renderWith(test, <SuspendedName query={test.query} />);
    expect(screen.getByText('suspended')).toBeTruthy();
    await test.resolve('Acme');
    expect(screen.getByText('name:Acme')).toBeTruthy();
    expect(test.active()).toBeGreaterThan(0);
  });

  it('throws a failed load to the error boundary', async () => {
    const test = setup();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderWith(test, <SuspendedName query={test.query} />);
    await test.reject(new Error('offline'));
    // React holds a suspended tree's fallback for ~300 ms before retrying: allow for it on a busy machine.
    expect(await screen.findByText('boundary:offline', {}, { timeout: 5_000 })).toBeTruthy();
    vi.mocked(console.error).mockRestore();
  });
});

describe('the audience a query runs on', () => {
  it('is the `app` option, else the nearest LatchkeyDataProvider’s, else the LatchkeyProvider’s', async () => {
    const page = setup('page');
    const data = setup('data');
    const given = setup('given');
    renderWith(
      page,
      <>
        <SuspendedName query={page.query} />
        <LatchkeyDataProvider app={data.app}>
          <SuspendedName query={data.query} />
          <SuspendedName query={given.query} app={given.app} />
        </LatchkeyDataProvider>
      </>,
    );
    await page.resolve('page app');
    await data.resolve('data app');
    await given.resolve('given app');
    expect(screen.getAllByText(/^name:/).map((node) => node.textContent)).toEqual([
      'name:page app',
      'name:data app',
      'name:given app',
    ]);
    expect([page.subscribe, data.subscribe, given.subscribe].map((spy) => spy.mock.calls.length > 0)).toEqual([
      true,
      true,
      true,
    ]);
  });
});
