import { KnownError } from '@latchkey/protocol';
import { describe, expect, it, vi } from 'vitest';
import { fakeAccessToken, testClock } from '../../test-support/tokens.js';
import type { RefreshOutcome } from './refresh-request.js';
import { Session } from './session.js';
import { memoryTokenStore, type StoredTokens } from './token-store.js';

function setup(tokens: Partial<StoredTokens>, answer?: (refreshToken: string) => Promise<RefreshOutcome>) {
  const clock = testClock();
  const store = memoryTokenStore(tokens);
  let issued = 0;
  const issue = async (): Promise<RefreshOutcome> => ({
    kind: 'refreshed',
    accessToken: fakeAccessToken(clock.now() + 600_000, { jti: ++issued }),
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
    release({ kind: 'refreshed', accessToken: fakeAccessToken(null) });
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
    session.subscribe(listener);
    await expect(session.getTokens()).resolves.toBeNull();
    expect(store.read()).toEqual({ accessToken: null, refreshToken: null });
    expect(listener).toHaveBeenCalledTimes(1);
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
});
