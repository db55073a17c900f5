import { afterEach, describe, expect, it, vi } from 'vitest';
import { recordingDocument } from '../../test-support/cookies.js';
import { fakeAccessToken } from '../../test-support/tokens.js';
import { serviceCookieStore } from './service-cookie-store.js';

const projectId = 'proj-1';
const accessToken = fakeAccessToken(null);

describe("the store of tokenStore: 'httponly-cookie'", () => {
  afterEach(() => vi.useRealTimers());

  it('keeps the access token in memory and only the handle in a readable cookie', () => {
    const { doc, written } = recordingDocument();
    const store = serviceCookieStore({ projectId, document: doc });
    store.write({ refreshToken: 'handle-1', accessToken });
    expect(store.read()).toEqual({ refreshToken: 'handle-1', accessToken });
    expect(doc.cookie).toBe(`latchkey-session-${projectId}=handle-1`);
    expect(written.join('\n')).not.toContain(accessToken);
    expect(written[0]).toMatch(/; max-age=31536000; path=\/; samesite=lax; secure$/);
  });

  it('starts a reload signed in by the handle, with no access token (the next use refreshes)', () => {
    const { doc } = recordingDocument();
    serviceCookieStore({ projectId, document: doc }).write({ refreshToken: 'handle-1', accessToken });
    const reloaded = serviceCookieStore({ projectId, document: doc });
    expect(reloaded.read()).toEqual({ refreshToken: 'handle-1', accessToken: null });
  });

  it("drops its access token when another tab's session replaced the handle, and deletes the cookie on sign-out", () => {
    const { doc } = recordingDocument();
    const tabA = serviceCookieStore({ projectId, document: doc });
    const tabB = serviceCookieStore({ projectId, document: doc });
    tabA.write({ refreshToken: 'handle-a', accessToken });
    tabB.write({ refreshToken: 'handle-b', accessToken: fakeAccessToken(1) });
    expect(tabA.read()).toEqual({ refreshToken: 'handle-b', accessToken: null });
    tabB.write({ refreshToken: null, accessToken: null });
    expect(tabA.read()).toEqual({ refreshToken: null, accessToken: null });
    expect(doc.cookie).toBe('');
  });

  it('tells its listeners within 100 ms when another tab signs in or out', async () => {
    vi.useFakeTimers();
    const { doc } = recordingDocument();
    const tabA = serviceCookieStore({ projectId, document: doc });
    const tabB = serviceCookieStore({ projectId, document: doc });
    const listener = vi.fn();
    const stop = tabB.subscribe(listener);
    tabA.write({ refreshToken: 'handle-a', accessToken });
    await vi.advanceTimersByTimeAsync(100);
    expect(listener).toHaveBeenCalledTimes(1);
    tabA.write({ refreshToken: null, accessToken: null });
    await vi.advanceTimersByTimeAsync(100);
    expect(listener).toHaveBeenCalledTimes(2);
    stop();
  });
});
