// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { clearCookies, recordingDocument, setRawCookie } from '../../test-support/cookies.js';
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
    await vi.advanceTimersByTimeAsync(100);
    expect(listener).toHaveBeenCalledTimes(1);
    tabA.write({ refreshToken: null, accessToken: null });
    await vi.advanceTimersByTimeAsync(100);
    expect(listener).toHaveBeenCalledTimes(2);
    stop();
    tabA.write({ refreshToken: 'rt-again', accessToken: null });
    await vi.advanceTimersByTimeAsync(500);
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it("regression: a read between two polls does not swallow another tab's sign-out", async () => {
    vi.useFakeTimers();
    const tabA = cookieTokenStore({ projectId });
    tabA.write({ refreshToken: 'rt-a', accessToken });
    const tabB = cookieTokenStore({ projectId });
    const listener = vi.fn();
    tabB.subscribe(listener);
    tabA.write({ refreshToken: null, accessToken: null });
    expect(tabB.read().refreshToken).toBeNull(); // e.g. a request of tab B reads the cookies first
    await vi.advanceTimersByTimeAsync(100);
    expect(listener).toHaveBeenCalledTimes(1);
  });

  it('regression: stops polling when a listener unsubscribes the last listener while being told', async () => {
    vi.useFakeTimers();
    const tabA = cookieTokenStore({ projectId });
    const tabB = cookieTokenStore({ projectId });
    const stop = tabB.subscribe(() => stop());
    tabA.write({ refreshToken: 'rt-a', accessToken: null });
    await vi.advanceTimersByTimeAsync(100);
    expect(vi.getTimerCount()).toBe(0);
    const again = vi.fn();
    tabB.subscribe(again);
    expect(vi.getTimerCount()).toBe(1);
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
    const { doc, written } = recordingDocument('https:');
    cookieTokenStore({ projectId, document: doc }).write({ refreshToken: 'rt', accessToken: 'at' });
    const tokenCookies = written.filter((line) => !line.startsWith('stack-is-https='));
    expect(tokenCookies[0]).toMatch(
      /^stack-refresh-proj-1=rt; expires=.*; max-age=31536000; path=\/; samesite=lax; secure$/,
    );
    expect(tokenCookies[1]).toMatch(/^stack-access=%5B%22rt%22%2C%22at%22%5D; .*max-age=86400; path=\/.*; secure$/);
    expect(tokenCookies[2]).toBe(
      'stack-refresh=; expires=Thu, 01 Jan 1970 00:00:00 GMT; max-age=0; path=/; samesite=lax; secure',
    );
  });

  it('sets no secure flag on http pages (the browser would drop the cookie)', () => {
    const { doc, written } = recordingDocument('http:');
    cookieTokenStore({ projectId, document: doc }).write({ refreshToken: 'rt', accessToken: 'at' });
    expect(written.every((line) => !line.includes('secure'))).toBe(true);
    expect(written.some((line) => line.startsWith('stack-is-https'))).toBe(false);
  });

  it('sets the session cookie stack-is-https=true with secure on every read in an https page', () => {
    const { doc, written, jar } = recordingDocument('https:');
    const marker = 'stack-is-https=true; path=/; samesite=lax; secure';
    const store = cookieTokenStore({ projectId, document: doc }); // reads the cookies at once
    expect(written).toEqual([marker]);
    store.read(); // present: nothing to write
    expect(written).toEqual([marker]);
    jar.delete('stack-is-https'); // cleared by the site or the browser: the next read sets it again
    expect(store.read()).toEqual({ refreshToken: null, accessToken: null });
    expect(written).toEqual([marker, marker]);
  });

  it('encodes names and values, so a token or project id cannot add attributes or cookies', () => {
    const { doc, jar } = recordingDocument('https:');
    const odd = 'p;1 = x';
    const store = cookieTokenStore({ projectId: odd, document: doc });
    store.write({ refreshToken: 'rt; domain=evil.example', accessToken: 'a,"b"' });
    expect([...jar.keys()]).toContain('stack-refresh-p%3B1%20%3D%20x');
    expect(store.read()).toEqual({ refreshToken: 'rt; domain=evil.example', accessToken: 'a,"b"' });
  });
});
