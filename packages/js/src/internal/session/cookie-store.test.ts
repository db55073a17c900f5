// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearCookies, setRawCookie } from '../../test-support/cookies.js';
import { fakeAccessToken } from '../../test-support/tokens.js';
import { cookieTokenStore, parseCookies, readCookieTokens } from './cookie-store.js';
import { createTokenStore } from './token-store.js';

const projectId = 'proj-1';
const accessToken = fakeAccessToken(null);

describe('the cookie token store', () => {
  beforeEach(clearCookies);
  afterEach(() => vi.useRealTimers());

  it('writes stack-refresh-<projectId> and stack-access = ["<refresh>","<access>"]', () => {
    cookieTokenStore({ projectId }).write({ refreshToken: 'rt-1', accessToken });
    const cookies = parseCookies(document.cookie);
    expect(cookies.get(`stack-refresh-${projectId}`)).toBe('rt-1');
    expect(JSON.parse(cookies.get('stack-access')!)).toEqual(['rt-1', accessToken]);
    expect(createTokenStore('cookie', projectId).read()).toEqual({ refreshToken: 'rt-1', accessToken });
  });

  it('trusts the access cookie only when it was stored with the current refresh token', () => {
    setRawCookie(`stack-refresh-${projectId}=rt-2; path=/`);
    setRawCookie(`stack-access=${encodeURIComponent(JSON.stringify(['rt-1', accessToken]))}; path=/`);
    expect(readCookieTokens(document, projectId)).toEqual({ refreshToken: 'rt-2', accessToken: null });
  });

  it('ignores an unreadable access cookie', () => {
    setRawCookie(`stack-refresh-${projectId}=rt; path=/`);
    setRawCookie('stack-access=not-json; path=/');
    expect(readCookieTokens(document, projectId).accessToken).toBeNull();
  });

  it('reads the legacy stack-refresh cookie as a fallback and deletes it on write', () => {
    setRawCookie('stack-refresh=legacy-rt; path=/');
    const store = cookieTokenStore({ projectId });
    expect(store.read()).toEqual({ refreshToken: 'legacy-rt', accessToken: null });
    store.write({ refreshToken: 'new-rt', accessToken: null });
    const cookies = parseCookies(document.cookie);
    expect(cookies.has('stack-refresh')).toBe(false);
    expect(cookies.get(`stack-refresh-${projectId}`)).toBe('new-rt');
  });

  it('deletes the cookies when the session ends', () => {
    const store = cookieTokenStore({ projectId });
    store.write({ refreshToken: 'rt', accessToken });
    store.write({ refreshToken: null, accessToken: null });
    expect(document.cookie).toBe('');
  });

  it('lets two tabs agree: a read sees the other tab at once, a listener within 100 ms', async () => {
    vi.useFakeTimers();
    const tabA = cookieTokenStore({ projectId });
    const tabB = cookieTokenStore({ projectId });
    const listener = vi.fn();
    const stop = tabB.subscribe(listener);
    tabA.write({ refreshToken: 'rt-a', accessToken });
    expect(tabB.read().refreshToken).toBe('rt-a');
    tabA.write({ refreshToken: null, accessToken: null });
    await vi.advanceTimersByTimeAsync(100);
    expect(listener).toHaveBeenCalledTimes(1);
    stop();
    tabA.write({ refreshToken: 'rt-again', accessToken: null });
    await vi.advanceTimersByTimeAsync(500);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('does not tell its own listeners about its own writes', async () => {
    vi.useFakeTimers();
    const store = cookieTokenStore({ projectId });
    const listener = vi.fn();
    store.subscribe(listener);
    store.write({ refreshToken: 'mine', accessToken: null });
    await vi.advanceTimersByTimeAsync(300);
    expect(listener).not.toHaveBeenCalled();
  });

  it('sets path=/, lifetimes of 1 year and 1 day, and secure on https', () => {
    const written: string[] = [];
    const doc = {
      location: { protocol: 'https:' },
      get cookie() {
        return '';
      },
      set cookie(value: string) {
        written.push(value);
      },
    };
    cookieTokenStore({ projectId, document: doc }).write({ refreshToken: 'rt', accessToken: 'at' });
    expect(written[0]).toMatch(
      /^stack-refresh-proj-1=rt; expires=.*; max-age=31536000; path=\/; samesite=lax; secure$/,
    );
    expect(written[1]).toMatch(/^stack-access=%5B%22rt%22%2C%22at%22%5D; .*max-age=86400; path=\/.*; secure$/);
    expect(written[2]).toMatch(/^stack-refresh=; expires=Thu, 01 Jan 1970/);
  });
});
