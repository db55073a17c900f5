// @vitest-environment node
import './test-support/dom-in-node.js';
import type { ClientApp } from '@latchkey/js';
import { isKnownError } from '@latchkey/protocol';
import type { TestService } from '@latchkey/server/testing';
import { act, cleanup, render, screen, waitFor } from '@testing-library/react';
import { Component, type ReactNode, StrictMode, Suspense } from 'react';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { LatchkeyProvider, useApp } from './provider.js';
import { createFakeApp, fakeUser, visit } from './test-support/fake-app.js';
import { realApp, startRealService, uniqueEmail } from './test-support/real-app.js';
import { type UseUserOptions, useUser } from './use-user.js';

afterEach(cleanup);

function Email(props: UseUserOptions) {
  const user = useUser(props);
  return <p>{user ? `user:${user.primaryEmail}` : 'signed out'}</p>;
}

let caught: unknown = null;

class Boundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };
  static getDerivedStateFromError(error: Error) {
    caught = error;
    return { error };
  }
  override render() {
    return this.state.error ? <p>error:{this.state.error.message}</p> : this.props.children;
  }
}

function renderWith(fake: { app: ClientApp }, ui: ReactNode, strict = false) {
  const tree = (
    <LatchkeyProvider app={fake.app}>
      <Boundary>
        <Suspense fallback={<p>loading</p>}>{ui}</Suspense>
      </Boundary>
    </LatchkeyProvider>
  );
  return render(strict ? <StrictMode>{tree}</StrictMode> : tree);
}

describe('useUser', () => {
  it('suspends while the user loads, then renders it and follows changes', async () => {
    const fake = createFakeApp({ user: undefined });
    renderWith(fake, <Email />);
    expect(screen.getByText('loading')).toBeTruthy();
    expect(fake.loadCount('user')).toBe(1);

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
    expect(fake.loadCount('user')).toBe(1);
  });

  it("redirects to sign-in with { or: 'redirect' } and stays suspended", async () => {
    const fake = createFakeApp({ user: null });
    renderWith(fake, <Email or="redirect" />);
    await act(async () => {});
    expect(fake.mocks.redirectToSignIn).toHaveBeenCalledTimes(1);
    expect(screen.getByText('loading')).toBeTruthy();
  });

  it("throws USER_AUTHENTICATION_REQUIRED to the error boundary with { or: 'throw' }, as getUser does", () => {
    const fake = createFakeApp({ user: null });
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderWith(fake, <Email or="throw" />);
    expect(screen.getByText(/error:User is not signed in/)).toBeTruthy();
    expect(isKnownError(caught, 'USER_AUTHENTICATION_REQUIRED')).toBe(true);
    vi.mocked(console.error).mockRestore();
  });

  it('under StrictMode loads once, redirects once and keeps one subscription', async () => {
    const fake = createFakeApp({ user: undefined });
    renderWith(fake, <Email />, true);
    await act(async () => fake.finishLoad(fakeUser()));
    expect(screen.getByText('user:ada@example.com')).toBeTruthy();
    expect(fake.loadCount('user')).toBe(1);
    expect(fake.listenerCount()).toBe(1);
    cleanup();
    const signedOut = createFakeApp({ user: null });
    renderWith(signedOut, <Email or="redirect" />, true);
    await act(async () => {});
    expect(signedOut.mocks.redirectToSignIn).toHaveBeenCalledTimes(1);
  });

  it('regression: never shows the user of a load the store has moved past', async () => {
    const fake = createFakeApp({ user: undefined });
    const stale = fakeUser({ primaryEmail: 'old@example.com' });
    fake.mocks.load.mockImplementationOnce(async () => stale); // finished, but a newer session replaced it
    renderWith(fake, <Email />);
    await act(async () => {});
    expect(screen.queryByText('user:old@example.com')).toBeNull();
    expect(screen.getByText('loading')).toBeTruthy();
    await act(async () => fake.finishLoad(fakeUser({ primaryEmail: 'new@example.com' })));
    expect(screen.getByText('user:new@example.com')).toBeTruthy();
  });

  it('suspends again, showing no one, when another tab begins a new session', async () => {
    const fake = createFakeApp({ user: fakeUser() });
    renderWith(fake, <Email />);
    expect(screen.getByText('user:ada@example.com')).toBeTruthy();
    act(() => fake.setUser(undefined));
    expect(screen.getByText('loading')).toBeTruthy();
    await act(async () => fake.finishLoad(fakeUser({ primaryEmail: 'grace@example.com' })));
    expect(screen.getByText('user:grace@example.com')).toBeTruthy();
  });

  it('throws a failed load to the error boundary', async () => {
    const fake = createFakeApp({ user: undefined });
    fake.mocks.load.mockRejectedValueOnce(new Error('offline'));
    vi.spyOn(console, 'error').mockImplementation(() => {});
    renderWith(fake, <Email />);
    // React holds a suspended tree's fallback for ~300 ms before retrying: allow for it on a busy machine.
    expect(await screen.findByText('error:offline', {}, { timeout: 5_000 })).toBeTruthy();
    vi.mocked(console.error).mockRestore();
  });
});

describe('useUser on the real SDK and service', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startRealService();
  });
  afterAll(async () => {
    await service?.close();
  });

  it('follows sign-in and sign-out through the SDK cache, in StrictMode', async () => {
    const real = realApp(service);
    renderWith(real, <Email />, true);
    expect(screen.getByText('loading')).toBeTruthy();
    expect(await screen.findByText('signed out', {}, { timeout: 10_000 })).toBeTruthy();
    const email = uniqueEmail('ada');
    await act(() => real.app.signUpWithCredential({ email, password: 'correct-horse-battery', noRedirect: true }));
    expect(await screen.findByText(`user:${email}`, {}, { timeout: 10_000 })).toBeTruthy();
    const user = await real.app.getUser({ or: 'throw' });
    await act(() => user.signOut({ redirectUrl: '/bye' }));
    await waitFor(() => expect(screen.getByText('signed out')).toBeTruthy(), { timeout: 10_000 });
    expect(real.navigations).toEqual(['/bye']);
  });

  it("sends a signed-out visitor to sign-in with { or: 'redirect' }, to come back here", async () => {
    visit('/protected?tab=2');
    const real = realApp(service);
    renderWith(real, <Email or="redirect" />);
    await waitFor(() => expect(real.navigations).toHaveLength(1), { timeout: 10_000 });
    expect(real.navigations[0]).toBe('/handler/sign-in?after_auth_return_to=%2Fprotected%3Ftab%3D2');
    expect(screen.getByText('loading')).toBeTruthy();
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
