import { KnownError } from '@latchkey/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordingDocument } from '../../test-support/cookies.js';
import { fakeAccessToken, testClock } from '../../test-support/tokens.js';
import { systemTimers } from '../timers.js';
import { cookieTokenStore } from './cookie-store.js';
import type { RefreshOutcome } from './refresh-request.js';
import { Session } from './session.js';
import { memoryTokenStore, type StoredTokens, type TokenStore } from './stored-tokens.js';

function setup(tokens: Partial<StoredTokens>, answer?: (refreshToken: string | null) => Promise<RefreshOutcome>) {
  const clock = testClock();
  const store = memoryTokenStore(tokens);
  let issued = 0;
  const issue = async (): Promise<RefreshOutcome> => ({
    kind: 'refreshed',
    accessToken: fakeAccessToken(clock.now() + 600_000, { jti: ++issued }),
    refreshToken: null,
  });
  const refresh = vi.fn(answer ?? issue);
  return { clock, store, refresh, session: new Session({ store, clock, refresh }) };
}

const refused: RefreshOutcome = { kind: 'refused', error: new KnownError('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED') };

describe('session rules', () => {
  it('uses an access token with more than 20 s left as is', async () => {
    const accessToken = fakeAccessToken(testClock().now() + 21_000);
    const { session, refresh } = setup({ accessToken, refreshToken: 'rt' });
    await expect(session.getTokens()).resolves.toEqual({ accessToken, refreshToken: 'rt' });
    expect(refresh).not.toHaveBeenCalled();
  });

  it('refreshes proactively when less than 20 s are left, and stores the new access token', async () => {
    const { session, refresh, clock, store } = setup({});
    const old = fakeAccessToken(clock.now() + 30_000);
    store.write({ accessToken: old, refreshToken: 'rt' });
    await expect(session.getTokens()).resolves.toMatchObject({ accessToken: old });
    clock.advance(10_001);
    const tokens = await session.getTokens();
    expect(refresh).toHaveBeenCalledExactlyOnceWith('rt');
    expect(tokens?.accessToken).not.toBe(old);
    expect(store.read()).toEqual({ accessToken: tokens?.accessToken, refreshToken: 'rt' });
  });

  it('refreshes when the access token is missing; a missing exp never expires', async () => {
    const { session, refresh } = setup({ refreshToken: 'rt' });
    await session.getTokens();
    expect(refresh).toHaveBeenCalledTimes(1);
    const forever = setup({ accessToken: fakeAccessToken(null), refreshToken: 'rt' });
    forever.clock.advance(10 * 365 * 24 * 3600_000);
    await forever.session.getTokens();
    expect(forever.refresh).not.toHaveBeenCalled();
  });

  it('shares one refresh between concurrent callers', async () => {
    let release: (value: RefreshOutcome) => void = () => {};
    const { session, refresh } = setup({ refreshToken: 'rt' }, () => new Promise((resolve) => (release = resolve)));
    const callers = Array.from({ length: 10 }, () => session.getTokens());
    release({ kind: 'refreshed', accessToken: fakeAccessToken(null), refreshToken: null });
    const results = await Promise.all(callers);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(new Set(results.map((r) => r?.accessToken)).size).toBe(1);
  });

  it('refreshes after the service refused the access token (marked expired)', async () => {
    const { session, refresh, clock } = setup({});
    const first = fakeAccessToken(clock.now() + 600_000);
    session.setTokens({ accessToken: first, refreshToken: 'rt' });
    session.markAccessTokenExpired(first);
    const tokens = await session.getTokens();
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(tokens?.accessToken).not.toBe(first);
  });

  it('ignores an expiry mark for a token that was already replaced', async () => {
    const { session, store } = setup({ accessToken: fakeAccessToken(null), refreshToken: 'rt' });
    session.markAccessTokenExpired('some-older-token');
    expect(store.read().accessToken).not.toBeNull();
  });

  it('is signed out after REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED: tokens cleared, listeners told', async () => {
    const { session, store } = setup({ refreshToken: 'rt' }, async () => refused);
    const listener = vi.fn();
    session.onChange(listener);
    await expect(session.getTokens()).resolves.toBeNull();
    expect(store.read()).toEqual({ accessToken: null, refreshToken: null });
    expect(listener).toHaveBeenCalledExactlyOnceWith(null);
  });

  it("refuses the string 'undefined' as either token", async () => {
    const { session, refresh } = setup({ accessToken: 'undefined', refreshToken: 'undefined' });
    await expect(session.getTokens()).resolves.toBeNull();
    expect(refresh).not.toHaveBeenCalled();
    const other = setup({ accessToken: 'undefined', refreshToken: 'rt' });
    await other.session.getTokens();
    expect(other.refresh).toHaveBeenCalledWith('rt');
  });

  it('never uses an access token without a refresh token', async () => {
    const { session, refresh } = setup({ accessToken: fakeAccessToken(null) });
    await expect(session.getTokens()).resolves.toBeNull();
    expect(refresh).not.toHaveBeenCalled();
  });

  it('propagates a refresh failure that is not a refusal, keeping the session', async () => {
    const { session, store } = setup({ refreshToken: 'rt' }, async () => {
      throw new Error('token endpoint down');
    });
    await expect(session.getTokens()).rejects.toThrow('token endpoint down');
    expect(store.read().refreshToken).toBe('rt');
  });

  it('caps the validity a caller may demand at 60 s', async () => {
    const { session, refresh, clock } = setup({});
    session.setTokens({ accessToken: fakeAccessToken(clock.now() + 61_000), refreshToken: 'rt' });
    await session.getTokens(120_000);
    expect(refresh).not.toHaveBeenCalled();
  });

  it('notices on any read that the stored session changed elsewhere, and tells onChange listeners once', async () => {
    const { session, store } = setup({ accessToken: fakeAccessToken(null), refreshToken: 'rt-1' });
    const listener = vi.fn();
    session.onChange(listener);
    store.write({ accessToken: null, refreshToken: null }); // another tab signed out
    await expect(session.getTokens()).resolves.toBeNull();
    session.stored();
    expect(listener).toHaveBeenCalledExactlyOnceWith(null);
    store.write({ accessToken: fakeAccessToken(null), refreshToken: 'rt-2' }); // another tab signed in
    session.stored();
    expect(listener).toHaveBeenLastCalledWith('rt-2');
    session.setTokens({ accessToken: fakeAccessToken(null), refreshToken: 'rt-3' }); // this app's own sign-in
    session.clear(); // and sign-out
    session.stored();
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('watches the store only while someone watches', () => {
    const store = memoryTokenStore();
    const subscribe = vi.spyOn(store, 'subscribe');
    const session = new Session({ store, clock: testClock(), refresh: vi.fn() });
    const stopA = session.watch();
    const stopB = session.watch();
    expect(subscribe).toHaveBeenCalledTimes(1);
    stopA();
    stopA();
    stopB();
    session.watch();
    expect(subscribe).toHaveBeenCalledTimes(2);
  });
});

describe('session on the cookie store', () => {
  afterEach(() => vi.useRealTimers());

  it("makes one refresh however many callers come during it, across the store's 100 ms re-reads", async () => {
    vi.useFakeTimers();
    const clock = testClock();
    const { doc } = recordingDocument('https:');
    const otherTab = cookieTokenStore({ projectId: 'p', document: doc });
    otherTab.write({ refreshToken: 'rt', accessToken: fakeAccessToken(clock.now() + 10_000) });
    const store: TokenStore = cookieTokenStore({ projectId: 'p', document: doc, timers: systemTimers });
    const refresh = vi.fn(async (): Promise<RefreshOutcome> => {
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      return { kind: 'refreshed', accessToken: fakeAccessToken(clock.now() + 600_000), refreshToken: null };
    });
    const session = new Session({ store, clock, refresh });
    const changes = vi.fn();
    session.onChange(changes);
    session.watch();
    const callers: Array<Promise<unknown>> = [];
    for (let i = 0; i < 8; i++) {
      callers.push(session.getTokens());
      otherTab.read();
      await vi.advanceTimersByTimeAsync(130); // past a poll of the cookies each time
    }
    const tokens = await Promise.all(callers);
    expect(refresh).toHaveBeenCalledTimes(1);
    expect(new Set(tokens.map((t) => (t as { accessToken: string }).accessToken)).size).toBe(1);
    expect(otherTab.read().accessToken).toBe((tokens[0] as { accessToken: string }).accessToken);
    expect(changes).not.toHaveBeenCalled();
  });
});

describe('session rules in the refresh-token cookie mode', () => {
  function cookieSession(tokens: Partial<StoredTokens> = {}) {
    const clock = testClock();
    const store = memoryTokenStore(tokens);
    const refresh = vi.fn(
      async (): Promise<RefreshOutcome> => ({
        kind: 'refreshed',
        accessToken: fakeAccessToken(clock.now() + 600_000),
        refreshToken: null,
      }),
    );
    return { store, refresh, session: new Session({ store, clock, refresh, serviceCookie: true }) };
  }

  it('stores a fresh random handle per sign-in in place of the refresh token it never sees', () => {
    const { session, store } = cookieSession();
    session.setTokens({ accessToken: fakeAccessToken(null), refreshToken: null });
    const first = store.read().refreshToken;
    session.setTokens({ accessToken: fakeAccessToken(null), refreshToken: null });
    expect(first).toMatch(/^[0-9a-z]{16}$/);
    expect(store.read().refreshToken).toMatch(/^[0-9a-z]{16}$/);
    expect(store.read().refreshToken).not.toBe(first);
  });

  it('refreshes with the cookie (null) and never hands the handle out as a refresh token', async () => {
    const { session, refresh, store } = cookieSession({ refreshToken: 'handle' });
    const tokens = await session.getTokens();
    expect(refresh).toHaveBeenCalledExactlyOnceWith(null);
    expect(tokens).toEqual({ accessToken: store.read().accessToken, refreshToken: null });
    await expect(session.getTokens()).resolves.toEqual(tokens);
  });

  it('is signed out when the service refuses the cookie', async () => {
    const { session, store, refresh } = cookieSession({ refreshToken: 'handle' });
    refresh.mockResolvedValueOnce(refused);
    await expect(session.getTokens()).resolves.toBeNull();
    expect(store.read()).toEqual({ accessToken: null, refreshToken: null });
  });
});
