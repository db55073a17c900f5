/**
 * `ClientApp` against the real service, in-process (one service for the
 * file). The SDK reads the service's clock, so moving it expires tokens for
 * both. Failures the service would not produce on its own (a 500 on sign-out,
 * a malformed answer, a 429) are injected in front of it.
 */
import { clientMessages, isKnownError, KnownError } from '@latchkey/protocol';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { ClientApp, type ClientAppOptions } from './client-app.js';
import { MalformedAnswerError, RateLimitedError } from './errors.js';
import { ServerApp } from './server-app.js';
import { jsonAnswer, plainErrorAnswer, recordedAnswers, without } from './test-support/answers.js';
import { createTestApp, newCredentials, type TestApp, useTestService } from './test-support/service.js';
import { clientUserData } from './users/user-decoder.js';

/** Access-token lifetime the service issues (wire-protocol.md §5.1). */
const accessTokenLifetimeMs = 600_000;

const service = useTestService();
beforeAll(() => service().setProjectConfig({ client_user_deletion_enabled: true }));
afterEach(() => vi.useRealTimers());

const setup = (options: Partial<ClientAppOptions> = {}) => createTestApp(service(), options);

/** An app whose user has signed up and out again; its record starts empty. Returns the credentials too. */
async function signedUp(options: Partial<ClientAppOptions> = {}) {
  const test = setup(options);
  const credentials = { ...newCredentials(), noRedirect: true };
  await test.app.signUpWithCredential(credentials);
  await (await test.app.getUser({ or: 'throw' })).signOut({ noRedirect: true });
  test.requests.length = 0;
  return { ...test, credentials };
}

/** An app with a signed-in user; its record starts empty. */
async function signedIn(options: Partial<ClientAppOptions> = {}) {
  const test = setup(options);
  const credentials = { ...newCredentials(), noRedirect: true };
  await test.app.signUpWithCredential(credentials);
  test.requests.length = 0;
  return { ...test, credentials };
}

/** Ends `test`'s session on the service from another device, leaving `test`'s tokens in place. */
async function revokeElsewhere(test: TestApp) {
  const tokens = await (await test.app.getUser({ or: 'throw' })).getTokens();
  const otherDevice = setup({ tokenStore: { ...tokens } }).app;
  await (await otherDevice.getUser({ or: 'throw' })).signOut({ noRedirect: true });
}

/** A fresh app holding the tokens of a signed-in user, nothing loaded yet; `device` is the app that signed in. */
async function secondDevice() {
  const device = await signedIn();
  const tokens = await (await device.app.getUser({ or: 'throw' })).getTokens();
  return { device, test: setup({ tokenStore: { ...tokens } }) };
}

describe('ClientApp', () => {
  it('signs up, reads and updates the user, signs out and back in', async () => {
    const { app, calls } = setup();
    const alice = { ...newCredentials(), noRedirect: true };
    await expect(app.signUpWithCredential(alice)).resolves.toMatchObject({ newUser: true });
    const user = await app.getUser({ or: 'throw' });
    expect(user).toMatchObject({ primaryEmail: alice.email, displayName: null, hasPassword: true });
    expect(user.signedUpAt).toBeInstanceOf(Date);
    await user.update({ displayName: 'Alice', clientMetadata: { theme: 'dark' } });
    expect(await app.getUser()).toMatchObject({ displayName: 'Alice', clientMetadata: { theme: 'dark' } });
    await user.signOut({ noRedirect: true });
    await expect(app.getUser()).resolves.toBeNull();
    await expect(app.signInWithCredential(alice)).resolves.toMatchObject({ userId: user.id, newUser: false });
    expect(await app.getUser()).toMatchObject({ displayName: 'Alice' });
    expect(calls()).toEqual([
      'POST /auth/password/sign-up',
      'GET /users/me',
      'PATCH /users/me',
      'GET /users/me',
      'DELETE /auth/sessions/current',
      'POST /auth/password/sign-in',
      'GET /users/me',
    ]);
  });

  it('throws sign-up and sign-in refusals as KnownErrors with the service’s message', async () => {
    const { app, credentials } = await signedUp();
    const duplicate = await app.signUpWithCredential(credentials).catch((e) => e);
    expect(isKnownError(duplicate, 'USER_EMAIL_ALREADY_EXISTS')).toBe(true);
    expect(duplicate.message).toBe('User email already exists.');
    const short = await app.signUpWithCredential({ ...newCredentials('123'), noRedirect: true }).catch((e) => e);
    expect(isKnownError(short, 'PASSWORD_REQUIREMENTS_NOT_MET') && short.details).toEqual({ min_length: 8 });
    const wrong = await app.signInWithCredential({ ...credentials, password: 'nope-nope-1' }).catch((e) => e);
    expect(wrong).toBeInstanceOf(KnownError);
    expect(wrong.code).toBe('EMAIL_PASSWORD_MISMATCH');
  });

  it('returns null when nobody is signed in, or throws with { or: "throw" }', async () => {
    const { app } = setup();
    await expect(app.getUser()).resolves.toBeNull();
    await expect(app.getUser({ or: 'return-null' })).resolves.toBeNull();
    await expect(app.getUser({ or: 'throw' })).rejects.toThrow(clientMessages.notSignedIn);
  });

  it('refreshes proactively when the access token has less than 20 s left (same clock as the service)', async () => {
    const { app, calls } = await signedIn();
    const user = await app.getUser({ or: 'throw' });
    service().clock.advance(accessTokenLifetimeMs - 19_000);
    await user.update({ displayName: 'Soon expired' });
    expect(calls().slice(-3)).toEqual(['POST /auth/oauth/token', 'PATCH /users/me', 'GET /users/me']);
  });

  it('refreshes and retries after the service answers ACCESS_TOKEN_EXPIRED', async () => {
    const sdkNow = service().clock.now();
    const { app, calls } = await signedIn({ clock: { now: () => sdkNow } }); // the SDK does not see the token expire
    service().clock.advance(accessTokenLifetimeMs + 1_000);
    await expect(app.getUser()).resolves.toMatchObject({ primaryEmail: expect.any(String) });
    expect(calls()).toEqual(['GET /users/me', 'POST /auth/oauth/token', 'GET /users/me']);
  });

  it('is signed out once the service no longer knows the refresh token', async () => {
    const { device, test } = await secondDevice();
    await (await device.app.getUser({ or: 'throw' })).signOut({ noRedirect: true });
    service().clock.advance(accessTokenLifetimeMs);
    await expect(test.app.getUser()).resolves.toBeNull();
    expect(test.calls()).toEqual(['POST /auth/oauth/token', 'GET /users/me']);
    expect(test.requests.at(-1)?.headers['x-stack-refresh-token']).toBeUndefined();
  });

  it('makes one request and one refresh for many concurrent reads', async () => {
    const { app, calls } = await signedIn();
    service().clock.advance(accessTokenLifetimeMs - 10_000);
    const users = await Promise.all(Array.from({ length: 20 }, () => app.getUser()));
    expect(new Set(users).size).toBe(1);
    expect(calls()).toEqual(['POST /auth/oauth/token', 'GET /users/me']);
  });

  it('serves every key through subscribe, getSnapshot and load', async () => {
    const { app, calls } = setup();
    expect(app.getSnapshot('project')).toBeUndefined();
    const listener = vi.fn();
    const stop = app.subscribe('project', listener);
    await vi.waitFor(() => expect(app.getSnapshot('project')).toMatchObject({ displayName: 'Test project' }));
    expect(listener).toHaveBeenCalledOnce();
    await expect(app.load('project')).resolves.toBe(app.getSnapshot('project'));
    await expect(app.getProject()).resolves.toBe(app.getSnapshot('project'));
    await expect(app.load('user')).resolves.toBeNull();
    expect(app.getSnapshot('user')).toBeNull();
    expect(calls()).toEqual(['GET /projects/current', 'GET /users/me']);
    stop();
  });

  it('lets UI bindings subscribe: undefined until loaded, then the user, then null after sign-out', async () => {
    const { app, credentials } = await signedIn();
    const listener = vi.fn();
    expect(app.getSnapshot('user')).toBeUndefined();
    const unsubscribe = app.subscribe('user', listener);
    await vi.waitFor(() => expect(app.getSnapshot('user')).toMatchObject({ primaryEmail: credentials.email }));
    expect(app.getSnapshot('user')).toBe(app.getSnapshot('user'));
    await app.getSnapshot('user')!.signOut({ noRedirect: true });
    expect(app.getSnapshot('user')).toBeNull();
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
  });

  it('reloads the subscribed user after a sign-in', async () => {
    const { app, credentials } = await signedUp();
    app.subscribe('user', () => {});
    await vi.waitFor(() => expect(app.getSnapshot('user')).toBeNull());
    await app.signInWithCredential(credentials);
    await vi.waitFor(() => expect(app.getSnapshot('user')).toMatchObject({ primaryEmail: credentials.email }));
  });

  it('loads a user that went out of date while nobody was subscribed, on the next subscription', async () => {
    const { app, credentials } = await signedUp();
    await app.signInWithCredential(credentials);
    expect(app.getSnapshot('user')).toBeNull();
    app.subscribe('user', () => {});
    await vi.waitFor(() => expect(app.getSnapshot('user')).toMatchObject({ primaryEmail: credentials.email }));
  });

  it('deletes the user with DELETE /users/me (no body) and is signed out', async () => {
    const { app, requests, credentials } = await signedIn();
    await (await app.getUser({ or: 'throw' })).delete();
    expect(requests.at(-1)).toMatchObject({
      method: 'DELETE',
      path: '/api/v1/users/me',
      body: null,
      contentType: null,
    });
    await expect(app.getUser()).resolves.toBeNull();
    await expect(app.signInWithCredential(credentials)).rejects.toMatchObject({ code: 'EMAIL_PASSWORD_MISMATCH' });
  });

  it('signs out locally even when the service no longer knows the session', async () => {
    const test = await signedIn();
    const user = await test.app.getUser({ or: 'throw' });
    await revokeElsewhere(test);
    await expect(user.signOut({ noRedirect: true })).resolves.toBeUndefined();
    await expect(user.getTokens()).resolves.toEqual({ accessToken: null, refreshToken: null });
    await expect(test.app.getUser()).resolves.toBeNull();
  });

  it('signs out locally even when the service refuses the sign-out with another error', async () => {
    const { app, calls, failNext } = await signedIn();
    const user = await app.getUser({ or: 'throw' });
    failNext('DELETE /auth/sessions/current', () => plainErrorAnswer(500, 'Something went wrong'));
    await expect(user.signOut({ noRedirect: true })).rejects.toMatchObject({ name: 'HttpError', status: 500 });
    expect(app.getSnapshot('user')).toBeNull();
    await expect(user.getTokens()).resolves.toEqual({ accessToken: null, refreshToken: null });
    await expect(app.getUser()).resolves.toBeNull();
    expect(calls().at(-1)).toBe('DELETE /auth/sessions/current');
  });

  it("rejects the string 'undefined' as a token given by the caller", async () => {
    const { app, requests, calls } = setup({ tokenStore: { accessToken: 'undefined', refreshToken: 'undefined' } });
    await expect(app.getUser()).resolves.toBeNull();
    expect(requests.at(-1)?.headers['x-stack-refresh-token']).toBeUndefined();
    expect(calls()).toEqual(['GET /users/me']);
  });

  it('never sends an access token without a refresh token', async () => {
    const first = await signedIn();
    const { accessToken } = await (await first.app.getUser({ or: 'throw' })).getTokens();
    const second = setup({ tokenStore: { accessToken } });
    await expect(second.app.getUser()).resolves.toBeNull();
    expect(second.requests.at(-1)?.headers['x-stack-access-token']).toBeUndefined();
  });

  it('drops the user at once when a refresh is refused (no out-of-date user, no reload)', async () => {
    const test = await signedIn();
    test.app.subscribe('user', () => {});
    await vi.waitFor(() => expect(test.app.getSnapshot('user')).toBeTruthy());
    const user = test.app.getSnapshot('user')!;
    await revokeElsewhere(test);
    service().clock.advance(accessTokenLifetimeMs);
    test.requests.length = 0;
    await expect(user.getTokens()).resolves.toEqual({ accessToken: null, refreshToken: null });
    expect(test.app.getSnapshot('user')).toBeNull();
    expect(test.calls()).toEqual(['POST /auth/oauth/token']);
  });

  it('gives the user auth headers for the host app server', async () => {
    const { app } = await signedIn();
    const user = await app.getUser({ or: 'throw' });
    const header = (await user.getAuthHeaders())['x-stack-auth']!;
    expect(JSON.parse(header)).toEqual(await user.getTokens());
    expect(JSON.parse(header).refreshToken).toMatch(/^[0-9a-z]{45}$/);
  });

  it('reads the project once for concurrent callers', async () => {
    const { app, calls } = setup();
    const [a, b] = await Promise.all([app.getProject(), app.getProject()]);
    expect(a).toBe(b);
    expect(a).toMatchObject({ id: service().projectId, config: { signUpEnabled: true } });
    expect(calls()).toEqual(['GET /projects/current']);
  });

  it('throws INVALID_PUBLISHABLE_CLIENT_KEY for a bad key', async () => {
    const { app } = setup({ publishableClientKey: 'pck_bad' });
    await expect(app.getProject()).rejects.toMatchObject({ code: 'INVALID_PUBLISHABLE_CLIENT_KEY' });
  });

  it('uses a custom token store given once', async () => {
    const first = await signedIn();
    const tokens = await (await first.app.getUser({ or: 'throw' })).getTokens();
    const second = setup({ tokenStore: { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken } });
    await expect(second.app.getUser()).resolves.toMatchObject({ primaryEmail: first.credentials.email });
  });

  it('in Node, sends sign-up without verification_callback_url unless it can be absolute', async () => {
    const plain = setup();
    const alice = newCredentials();
    await plain.app.signUpWithCredential({ ...alice, noRedirect: true });
    expect(plain.requests[0]!.body).toEqual(alice);
    const absolute = setup({ urls: { emailVerification: 'http://localhost:3000/verify' } });
    const bob = newCredentials();
    await absolute.app.signUpWithCredential({ ...bob, noRedirect: true });
    expect(absolute.requests[0]!.body).toEqual({ ...bob, verification_callback_url: 'http://localhost:3000/verify' });
  });

  it('in Node, navigates and goes on at once: no page can go, so nothing waits for one', async () => {
    const { app, navigate, credentials } = await signedUp({
      urls: { afterSignIn: '/dashboard', afterSignOut: '/bye' },
    });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    // With time frozen, a 2000 ms wait would never end: these resolve only because nothing waits.
    await app.signInWithCredential({ ...credentials, noRedirect: false });
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/dashboard');
    await (await app.getUser({ or: 'throw' })).signOut();
    expect(navigate).toHaveBeenLastCalledWith('/bye');
    const started = Date.now();
    await new ClientApp({
      projectId: 'p',
      publishableClientKey: 'k',
      baseUrl: 'http://127.0.0.1:1',
      tokenStore: 'memory',
    }).redirectToHome();
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it('requires projectId, publishableClientKey and baseUrl', () => {
    const options = { projectId: 'p', publishableClientKey: 'k', baseUrl: 'u', tokenStore: 'memory' } as const;
    expect(() => new ClientApp({ ...options, projectId: '' })).toThrow(/projectId/);
    expect(() => new ClientApp({ ...options, publishableClientKey: '' })).toThrow(/publishableClientKey/);
    expect(() => new ClientApp({ ...options, baseUrl: '' })).toThrow(/baseUrl/);
  });
});

describe('ClientApp when the service misbehaves', () => {
  it('throws MalformedAnswerError naming the call and the field, and keeps the user unloaded', async () => {
    const { app, failNext } = await signedIn();
    failNext('GET /users/me', () => jsonAnswer(without(recordedAnswers.currentUser, 'client_metadata')));
    const error = await app.getUser().catch((e) => e);
    expect(error).toBeInstanceOf(MalformedAnswerError);
    expect(error.message).toBe("The service's answer to GET /users/me is malformed: client_metadata is missing");
    expect(app.getSnapshot('user')).toBeUndefined();
    await expect(app.getUser()).resolves.toMatchObject({ clientMetadata: null }); // the next answer is fine
  });

  it('throws RateLimitedError with the retry time when the service keeps answering 429', async () => {
    const { app, failNext, calls } = setup();
    for (let i = 0; i < 5; i++) {
      failNext('GET /projects/current', () => plainErrorAnswer(429, 'Too many requests', { 'retry-after': '30' }));
    }
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const result = app.getProject().catch((e) => e);
    await vi.advanceTimersByTimeAsync(4 * 30_000);
    const error = await result;
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.message).toBe('The Latchkey service rate limited this request; retry after 30 s.');
    expect(calls()).toHaveLength(5);
  });

  it('gets through after a 429, a 508 loop and a network failure, then asks the service', async () => {
    const { app, failNext, calls } = setup();
    failNext('GET /projects/current', () => plainErrorAnswer(429, 'Too many requests', { 'retry-after': '1' }));
    failNext('GET /projects/current', () => plainErrorAnswer(508, 'INFINITE_LOOP_DETECTED'));
    failNext('GET /projects/current', () => {
      throw new TypeError('fetch failed');
    });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const project = app.getProject();
    await vi.runAllTimersAsync();
    await expect(project).resolves.toMatchObject({ id: service().projectId });
    expect(calls()).toHaveLength(4);
  });
});

describe('ClientApp initialUser (the user a server rendered the page with)', () => {
  it('starts with the server’s user, client fields only, and asks the service for nothing to show it', async () => {
    const signedIn = setup();
    const credentials = { ...newCredentials(), noRedirect: true };
    await signedIn.app.signUpWithCredential(credentials);
    const tokens = await (await signedIn.app.getUser({ or: 'throw' })).getTokens();
    const serverApp = new ServerApp({
      projectId: service().projectId,
      baseUrl: service().url,
      secretServerKey: service().keys.secretServerKey,
      publishableClientKey: service().keys.publishableClientKey,
      fetch: (url, init) => service().fetch(new Request(url, init)),
      clock: service().clock,
    });
    const seen = await serverApp.getUser({ tokenStore: tokens, or: 'throw' });
    await seen.update({ serverMetadata: { plan: 'pro' } });
    const initialUser = clientUserData((await serverApp.getUser(seen.id))!);
    expect(initialUser).not.toHaveProperty('serverMetadata');
    expect(initialUser).not.toHaveProperty('update');

    const page = setup({ tokenStore: tokens, initialUser });
    expect(page.app.getSnapshot('user')).toMatchObject({ id: seen.id, primaryEmail: credentials.email });
    await expect(page.app.getUser()).resolves.toMatchObject({ id: seen.id });
    expect(page.calls()).toEqual([]);

    const nobody = setup({ initialUser: null });
    expect(nobody.app.getSnapshot('user')).toBeNull();
  });
});
