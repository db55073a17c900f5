import { clientMessages, isKnownError, KnownError } from '@latchkey/protocol';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ClientApp, type ClientAppOptions } from './client-app.js';
import { knownErrorAnswer, plainErrorAnswer } from './test-support/answers.js';
import { createFakeService } from './test-support/fake-service.js';
import { createTestApp } from './test-support/test-app.js';
import { testClock } from './test-support/tokens.js';

const alice = { email: 'alice@example.com', password: 'correct-horse-1' };

function setup(overrides: Partial<ClientAppOptions> = {}) {
  const clock = testClock();
  const service = createFakeService({ clock });
  return { ...createTestApp(service, { clock, ...overrides }), service, clock };
}

afterEach(() => vi.useRealTimers());

describe('ClientApp', () => {
  it('signs up, reads and updates the user, signs out and back in', async () => {
    const { app, service } = setup();
    await expect(app.signUpWithCredential({ ...alice, noRedirect: true })).resolves.toMatchObject({ newUser: true });
    const user = await app.getUser({ or: 'throw' });
    expect(user).toMatchObject({ primaryEmail: alice.email, displayName: null, hasPassword: true });
    expect(user.signedUpAt).toBeInstanceOf(Date);
    await user.update({ displayName: 'Alice', clientMetadata: { theme: 'dark' } });
    expect(await app.getUser()).toMatchObject({ displayName: 'Alice', clientMetadata: { theme: 'dark' } });
    await user.signOut({ noRedirect: true });
    await expect(app.getUser()).resolves.toBeNull();
    await expect(app.signInWithCredential({ ...alice, noRedirect: true })).resolves.toMatchObject({ newUser: false });
    expect(await app.getUser()).toMatchObject({ displayName: 'Alice' });
    expect(service.calls()).toEqual([
      'POST /auth/password/sign-up',
      'GET /users/me',
      'PATCH /users/me',
      'GET /users/me',
      'DELETE /auth/sessions/current',
      'POST /auth/password/sign-in',
      'GET /users/me',
    ]);
  });

  it('throws sign-up and sign-in refusals as KnownErrors', async () => {
    const { app } = setup();
    await app.signUpWithCredential({ ...alice, noRedirect: true });
    const duplicate = await app.signUpWithCredential({ ...alice, noRedirect: true }).catch((e) => e);
    expect(isKnownError(duplicate, 'USER_EMAIL_ALREADY_EXISTS')).toBe(true);
    const short = await app
      .signUpWithCredential({ email: 'b@example.com', password: '123', noRedirect: true })
      .catch((e) => e);
    expect(isKnownError(short, 'PASSWORD_REQUIREMENTS_NOT_MET') && short.details).toEqual({ min_length: 8 });
    const wrong = await app.signInWithCredential({ ...alice, password: 'nope', noRedirect: true }).catch((e) => e);
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
    const { app, service, clock } = setup();
    await app.signInWithCredential(await signedUp(app, service));
    const user = await app.getUser({ or: 'throw' });
    clock.advance(581_000);
    await user.update({ displayName: 'Soon expired' });
    expect(service.calls().slice(-3)).toEqual(['POST /auth/oauth/token', 'PATCH /users/me', 'GET /users/me']);
  });

  it('refreshes and retries after the service answers ACCESS_TOKEN_EXPIRED', async () => {
    const { app, service } = setup();
    await app.signInWithCredential(await signedUp(app, service));
    service.interceptNext('GET /users/me', () => knownErrorAnswer('ACCESS_TOKEN_EXPIRED'));
    await expect(app.getUser()).resolves.toMatchObject({ primaryEmail: alice.email });
    expect(service.calls().slice(-3)).toEqual(['GET /users/me', 'POST /auth/oauth/token', 'GET /users/me']);
  });

  it('is signed out once the service no longer knows the refresh token', async () => {
    const { app, service, clock } = setup();
    await app.signInWithCredential(await signedUp(app, service));
    service.sessions.clear();
    clock.advance(600_000);
    await expect(app.getUser()).resolves.toBeNull();
    expect(service.calls().slice(-2)).toEqual(['POST /auth/oauth/token', 'GET /users/me']);
    expect(service.requests.at(-1)?.headers['x-stack-refresh-token']).toBeUndefined();
  });

  it('makes one request and one refresh for many concurrent reads', async () => {
    const { app, service, clock } = setup();
    await app.signInWithCredential(await signedUp(app, service));
    clock.advance(590_000);
    const users = await Promise.all(Array.from({ length: 20 }, () => app.getUser()));
    expect(new Set(users).size).toBe(1);
    expect(service.calls().filter((c) => c === 'POST /auth/oauth/token')).toHaveLength(1);
    expect(service.calls().filter((c) => c === 'GET /users/me')).toHaveLength(1);
  });

  it('lets UI bindings subscribe: undefined until loaded, then the user, then null after sign-out', async () => {
    const { app } = setup();
    await app.signUpWithCredential({ ...alice, noRedirect: true });
    const listener = vi.fn();
    expect(app.getUserSnapshot()).toBeUndefined();
    const unsubscribe = app.subscribeUser(listener);
    await vi.waitFor(() => expect(app.getUserSnapshot()).toMatchObject({ primaryEmail: alice.email }));
    expect(app.getUserSnapshot()).toBe(app.getUserSnapshot());
    await app.getUserSnapshot()!.signOut({ noRedirect: true });
    expect(app.getUserSnapshot()).toBeNull();
    expect(listener).toHaveBeenCalledTimes(2);
    unsubscribe();
  });

  it('serves every key through subscribe, getSnapshot and load', async () => {
    const { app, service } = setup();
    expect(app.getSnapshot('project')).toBeUndefined();
    const listener = vi.fn();
    const stop = app.subscribe('project', listener);
    await vi.waitFor(() => expect(app.getSnapshot('project')).toMatchObject({ displayName: 'Test project' }));
    expect(listener).toHaveBeenCalledOnce();
    await expect(app.load('project')).resolves.toBe(app.getSnapshot('project'));
    await expect(app.getProject()).resolves.toBe(app.getSnapshot('project'));
    await expect(app.load('user')).resolves.toBeNull();
    expect(app.getSnapshot('user')).toBeNull();
    expect(service.calls()).toEqual(['GET /projects/current', 'GET /users/me']);
    stop();
  });

  it('keeps subscribeUser and getUserSnapshot as wrappers of the generic API', async () => {
    const { app } = setup();
    await app.signUpWithCredential({ ...alice, noRedirect: true });
    const stop = app.subscribeUser(() => {});
    await vi.waitFor(() => expect(app.getSnapshot('user')).toBeTruthy());
    expect(app.getUserSnapshot()).toBe(app.getSnapshot('user'));
    stop();
  });

  it('reloads the subscribed user after a sign-in', async () => {
    const { app, service } = setup();
    await signedUp(app, service);
    app.subscribeUser(() => {});
    await vi.waitFor(() => expect(app.getUserSnapshot()).toBeNull());
    await app.signInWithCredential({ ...alice, noRedirect: true });
    await vi.waitFor(() => expect(app.getUserSnapshot()).toMatchObject({ primaryEmail: alice.email }));
  });

  it('loads a user that went out of date while nobody was subscribed, on the next subscription', async () => {
    const { app, service } = setup();
    await signedUp(app, service);
    await app.signInWithCredential({ ...alice, noRedirect: true });
    expect(app.getUserSnapshot()).toBeNull();
    app.subscribeUser(() => {});
    await vi.waitFor(() => expect(app.getUserSnapshot()).toMatchObject({ primaryEmail: alice.email }));
  });

  it('deletes the user with DELETE /users/me (no body) and is signed out', async () => {
    const { app, service } = setup();
    await app.signInWithCredential(await signedUp(app, service));
    const user = await app.getUser({ or: 'throw' });
    await user.delete();
    const request = service.requests.at(-1)!;
    expect(request).toMatchObject({ method: 'DELETE', path: '/api/v1/users/me', body: null, contentType: null });
    await expect(app.getUser()).resolves.toBeNull();
  });

  it('signs out locally even when the service no longer knows the session', async () => {
    const { app, service } = setup();
    await app.signInWithCredential(await signedUp(app, service));
    const user = await app.getUser({ or: 'throw' });
    service.sessions.clear();
    await expect(user.signOut({ noRedirect: true })).resolves.toBeUndefined();
    await expect(user.getTokens()).resolves.toEqual({ accessToken: null, refreshToken: null });
    await expect(app.getUser()).resolves.toBeNull();
  });

  it('signs out locally even when the service refuses the sign-out with another error', async () => {
    const { app, service } = setup();
    await app.signInWithCredential(await signedUp(app, service));
    const user = await app.getUser({ or: 'throw' });
    service.interceptNext('DELETE /auth/sessions/current', () => plainErrorAnswer(500, 'Something went wrong'));
    await expect(user.signOut({ noRedirect: true })).rejects.toMatchObject({ name: 'HttpError', status: 500 });
    expect(app.getUserSnapshot()).toBeNull();
    await expect(user.getTokens()).resolves.toEqual({ accessToken: null, refreshToken: null });
    await expect(app.getUser()).resolves.toBeNull();
    expect(service.calls().at(-1)).toBe('DELETE /auth/sessions/current');
  });

  it("rejects the string 'undefined' as a token given by the caller", async () => {
    const { app, service } = setup({ tokenStore: { accessToken: 'undefined', refreshToken: 'undefined' } });
    await expect(app.getUser()).resolves.toBeNull();
    expect(service.requests.at(-1)?.headers['x-stack-refresh-token']).toBeUndefined();
    expect(service.calls()).toEqual(['GET /users/me']);
  });

  it('never sends an access token without a refresh token', async () => {
    const first = setup();
    await first.app.signInWithCredential(await signedUp(first.app, first.service));
    const { accessToken } = await (await first.app.getUser({ or: 'throw' })).getTokens();
    const second = createTestApp(first.service, { clock: first.clock, tokenStore: { accessToken } }).app;
    await expect(second.getUser()).resolves.toBeNull();
    expect(first.service.requests.at(-1)?.headers['x-stack-access-token']).toBeUndefined();
  });

  it('drops the user at once when a refresh is refused (no out-of-date user, no reload)', async () => {
    const { app, service, clock } = setup();
    await app.signInWithCredential(await signedUp(app, service));
    app.subscribeUser(() => {});
    await vi.waitFor(() => expect(app.getUserSnapshot()).toBeTruthy());
    const user = app.getUserSnapshot()!;
    service.sessions.clear();
    clock.advance(600_000);
    await expect(user.getTokens()).resolves.toEqual({ accessToken: null, refreshToken: null });
    expect(app.getUserSnapshot()).toBeNull();
    expect(service.calls()).toEqual(['POST /auth/password/sign-in', 'GET /users/me', 'POST /auth/oauth/token']);
  });

  it('gives the user auth headers for the host app server', async () => {
    const { app, service } = setup();
    await app.signInWithCredential(await signedUp(app, service));
    const user = await app.getUser({ or: 'throw' });
    const header = (await user.getAuthHeaders())['x-stack-auth']!;
    expect(JSON.parse(header)).toEqual(await user.getTokens());
    expect(JSON.parse(header).refreshToken).toMatch(/^rt/);
  });

  it('reads the project once for concurrent callers', async () => {
    const { app, service } = setup();
    const [a, b] = await Promise.all([app.getProject(), app.getProject()]);
    expect(a).toBe(b);
    expect(a.config.signUpEnabled).toBe(true);
    expect(service.calls()).toEqual(['GET /projects/current']);
  });

  it('throws INVALID_PUBLISHABLE_CLIENT_KEY for a bad key', async () => {
    const { app } = setup({ publishableClientKey: 'pck_bad' });
    await expect(app.getProject()).rejects.toMatchObject({ code: 'INVALID_PUBLISHABLE_CLIENT_KEY' });
  });

  it('uses a custom token store given once', async () => {
    const first = setup();
    await first.app.signInWithCredential(await signedUp(first.app, first.service));
    const tokens = await (await first.app.getUser({ or: 'throw' })).getTokens();
    const tokenStore = { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken };
    const second = createTestApp(first.service, { clock: first.clock, tokenStore }).app;
    await expect(second.getUser()).resolves.toMatchObject({ primaryEmail: alice.email });
  });

  it('in Node, sends sign-up without verification_callback_url unless it can be absolute', async () => {
    const { app, service } = setup();
    await app.signUpWithCredential({ ...alice, noRedirect: true });
    expect(service.requests[0]!.body).toEqual(alice);
    const absolute = setup({ urls: { emailVerification: 'https://app.example.com/verify' } });
    await absolute.app.signUpWithCredential({ ...alice, noRedirect: true });
    expect(absolute.service.requests[0]!.body).toEqual({
      ...alice,
      verification_callback_url: 'https://app.example.com/verify',
    });
  });

  it('redirects after sign-in, then waits 2000 ms for the page to go', async () => {
    vi.useFakeTimers();
    const { app, service, navigate } = setup({ urls: { afterSignIn: '/dashboard' } });
    await signedUp(app, service);
    let done = false;
    const signIn = app.signInWithCredential(alice).then(() => (done = true));
    await vi.advanceTimersByTimeAsync(1999);
    expect(navigate).toHaveBeenCalledExactlyOnceWith('/dashboard');
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    await signIn;
    expect(done).toBe(true);
  });

  it('requires projectId, publishableClientKey and baseUrl', () => {
    expect(
      () => new ClientApp({ projectId: '', publishableClientKey: 'k', baseUrl: 'u', tokenStore: 'memory' }),
    ).toThrow(/projectId/);
  });
});

/** Signs alice up and out again; returns her credentials with noRedirect. */
async function signedUp(app: ClientApp, service: ReturnType<typeof createFakeService>) {
  await app.signUpWithCredential({ ...alice, noRedirect: true });
  await (await app.getUser({ or: 'throw' })).signOut({ noRedirect: true });
  service.requests.length = 0;
  return { ...alice, noRedirect: true };
}
