import { act, cleanup, render, screen } from '@testing-library/react';
import { Component, type ReactNode, Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LatchkeyProvider, useApp } from './provider.js';
import { createFakeApp, fakeUser } from './test-support/fake-app.js';
import { type UseUserOptions, useUser } from './use-user.js';

afterEach(cleanup);

function Email(props: UseUserOptions) {
  const user = useUser(props);
  return <p>{user ? `user:${user.primaryEmail}` : 'signed out'}</p>;
}

class Boundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override render() {
    return this.state.error ? <p>error:{this.state.error.message}</p> : this.props.children;
  }
}

function renderWith(fake: ReturnType<typeof createFakeApp>, ui: ReactNode) {
  return render(
    <LatchkeyProvider app={fake.app}>
      <Boundary>
        <Suspense fallback={<p>loading</p>}>{ui}</Suspense>
      </Boundary>
    </LatchkeyProvider>,
  );
}

describe('useUser', () => {
  it('suspends while the user loads, then renders it and follows changes', async () => {
    const fake = createFakeApp({ user: undefined });
    renderWith(fake, <Email />);
    expect(screen.getByText('loading')).toBeTruthy();
    expect(fake.mocks.getUser).toHaveBeenCalledTimes(1);

    await act(async () => fake.finishLoad(fakeUser()));
    expect(screen.getByText('user:ada@example.com')).toBeTruthy();
    expect(fake.listenerCount()).toBe(1);

    act(() => fake.setUser(null));
    expect(screen.getByText('signed out')).toBeTruthy();
  });

  it('shares one load between components', async () => {
    const fake = createFakeApp({ user: undefined });
    renderWith(
      fake,
      <>
        <Email />
        <Email />
      </>,
    );
    await act(async () => fake.finishLoad(null));
    expect(screen.getAllByText('signed out')).toHaveLength(2);
    expect(fake.mocks.getUser).toHaveBeenCalledTimes(1);
  });

  it("redirects to sign-in with { or: 'redirect' } and stays suspended", async () => {
    const fake = createFakeApp({ user: null });
    renderWith(fake, <Email or="redirect" />);
    await act(async () => {});
    expect(fake.mocks.redirectToSignIn).toHaveBeenCalledTimes(1);
    expect(screen.getByText('loading')).toBeTruthy();
  });

  it("throws to the error boundary with { or: 'throw' }", () => {
    const fake = createFakeApp({ user: null });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderWith(fake, <Email or="throw" />);
    expect(screen.getByText(/error:User is not signed in/)).toBeTruthy();
    vi.mocked(console.error).mockRestore();
  });

  it('throws a failed load to the error boundary', async () => {
    const fake = createFakeApp({ user: undefined });
    fake.mocks.getUser.mockRejectedValueOnce(new Error('offline'));
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderWith(fake, <Email />);
    expect(await screen.findByText('error:offline')).toBeTruthy();
    vi.mocked(console.error).mockRestore();
  });
});

let probedApp: unknown = null;
function Probe() {
  return <p>{useApp() === probedApp ? 'same app' : 'other app'}</p>;
}

describe('useApp', () => {
  it('returns the provider app and refuses to work outside a provider', () => {
    const fake = createFakeApp();
    probedApp = fake.app;
    render(
      <LatchkeyProvider app={fake.app}>
        <Probe />
      </LatchkeyProvider>,
    );
    expect(screen.getByText('same app')).toBeTruthy();
    cleanup();
    vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<Probe />)).toThrow(/inside <LatchkeyProvider/);
    vi.mocked(console.error).mockRestore();
  });
});
