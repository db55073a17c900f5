/**
 * The OAuth flow through the service, against the development stand-in of a
 * `shared` provider: the cookie that binds a flow to its browser, and linking
 * a provider to the signed-in user's session (wire-protocol §9).
 */
import { headers as h } from '@latchkey/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rotationGraceMs } from '../sessions/refresh-rotation.js';
import { authHeaders, call, goodPassword, refreshGrant, signUp, userHeaders, within } from '../test-support/api.js';
import { auditEvents } from '../test-support/audit.js';
import { describeEachBackend } from '../test-support/backends.js';
import { toldLocally } from '../test-support/feed.js';
import { startTestService, type TestService } from '../testing/index.js';
import { appCallbackUrl, authorizeUrl, exchangeCode, landing, TestBrowser } from '../testing/oauth-browser.js';

describe('the cookie binding a flow to its browser', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({
      projectConfig: { oauth_providers: [{ id: 'github', type: 'shared', enabled: true }] },
      // Reached as a deployment would be, over https at a name of its own.
      allowedHosts: ['auth.example.test'],
    });
  });
  afterAll(() => service?.close());

  /** The flow cookie an authorize request sets, when the service is reached at `origin`. */
  async function flowCookie(origin: string): Promise<string> {
    const flow = authorizeUrl(service, 'github');
    const answer = await service.fetch(new URL(new URL(flow.url).pathname + new URL(flow.url).search, origin));
    expect(answer.status).toBe(307);
    const cookie = answer.headers.getSetCookie().find((line) => line.startsWith('stack-oauth-inner-'));
    expect(cookie).toBeDefined();
    return cookie!;
  }

  it('survives a form_post provider’s cross-site POST to the callback (Apple): SameSite=None; Secure over https', async () => {
    const cookie = await flowCookie('https://auth.example.test');
    expect(cookie).toMatch(/; SameSite=None(;|$)/);
    expect(cookie).toMatch(/; Secure(;|$)/);
    expect(cookie).toMatch(/; HttpOnly(;|$)/);
  });

  it('lives 10 minutes, as the flow, on the service’s OAuth routes only', async () => {
    const cookie = await flowCookie('https://auth.example.test');
    expect(cookie).toMatch(/^stack-oauth-inner-[0-9a-z]{45}=[^;]+; /);
    expect(cookie).toMatch(/; Max-Age=600(;|$)/);
    expect(cookie).toMatch(/; Path=\/api\/v1\/auth\/oauth(;|$)/);
  });

  it('stays SameSite=Lax on plain http (development), where browsers refuse SameSite=None without Secure', async () => {
    const cookie = await flowCookie('http://localhost:8102');
    expect(cookie).toMatch(/; SameSite=Lax(;|$)/);
    expect(cookie).not.toMatch(/Secure/);
  });
});

describe('the authorize request refused before any redirect', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({
      projectConfig: { oauth_providers: [{ id: 'github', type: 'shared', enabled: true }] },
    });
  });
  afterAll(() => service?.close());

  async function authorize(change: Record<string, string>) {
    const url = new URL(authorizeUrl(service, 'github').url);
    for (const [key, value] of Object.entries(change)) url.searchParams.set(key, value);
    const answer = await service.fetch(url);
    return { status: answer.status, code: answer.headers.get(h.knownError), body: await answer.json() };
  }

  it('an unknown client id: INVALID_OAUTH_CLIENT_ID_OR_SECRET (400) naming it', async () => {
    const answer = await authorize({ client_id: 'some-invalid-client-id' });
    expect(answer).toMatchObject({ status: 400, code: 'INVALID_OAUTH_CLIENT_ID_OR_SECRET' });
    expect(answer.body.details).toEqual({ client_id: 'some-invalid-client-id' });
  });

  it("a secret that is not the project's publishable key: INVALID_PUBLISHABLE_CLIENT_KEY (401) naming the project", async () => {
    for (const secret of ['some-invalid-client-secret', service.keys.secretServerKey]) {
      const answer = await authorize({ client_secret: secret });
      expect(answer).toMatchObject({ status: 401, code: 'INVALID_PUBLISHABLE_CLIENT_KEY' });
      expect(answer.body.details).toEqual({ project_id: service.projectId });
    }
  });

  it('a redirect URI that is no URL: SCHEMA_ERROR (400) on the query', async () => {
    for (const key of ['redirect_uri', 'error_redirect_url', 'error_redirect_uri']) {
      const answer = await authorize({ [key]: 'this is an invalid URL string' });
      expect(answer, key).toMatchObject({ status: 400, code: 'SCHEMA_ERROR' });
      expect(answer.body.error, key).toContain(key);
    }
  });
});

describeEachBackend('linking a provider to a signed-in session', ({ databaseUrl }) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({
      databaseUrl,
      projectConfig: { oauth_providers: [{ id: 'github', type: 'shared', enabled: true }] },
    });
  });
  afterAll(() => service?.close());

  /** Starts a link flow with `accessToken`; the browser stops at the stand-in's page (or the app's error page). */
  async function startLink(accessToken: string) {
    const flow = authorizeUrl(service, 'github', { type: 'link', token: accessToken });
    const browser = new TestBrowser();
    const end = await browser.go(flow.url);
    return { flow, browser, end };
  }

  /** Picks a person on the stand-in's page; the browser goes on to the app's callback or error page. */
  async function choose(start: Awaited<ReturnType<typeof startLink>>, login: string) {
    const form = new URLSearchParams({
      ...Object.fromEntries(new URL(start.end.url).searchParams),
      name: login,
      email: `${login}@example.com`,
    });
    const back = await start.browser.go(start.end.url, {
      init: { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form },
    });
    return landing(back.url);
  }

  async function connections(userId: string): Promise<string[]> {
    const user = await call(service, 'GET', `/users/${userId}`, { headers: authHeaders(service, 'server') });
    return user.body.oauth_providers.map((p: { id: string }) => p.id);
  }

  async function sessionsOf(userId: string): Promise<string[]> {
    const list = await call(service, 'GET', `/auth/sessions?user_id=${userId}`, {
      headers: authHeaders(service, 'server'),
    });
    return list.body.items.map((s: { id: string }) => s.id);
  }

  const signOut = (tokens: { access_token: string; refresh_token: string }) =>
    call(service, 'DELETE', '/auth/sessions/current', { headers: userHeaders(service, tokens), json: {} });

  const revoked = async (tokens: { access_token: string }) =>
    (await call(service, 'GET', '/users/me', { headers: userHeaders(service, tokens) })).headers.get(h.knownError) ===
    'ACCESS_TOKEN_EXPIRED';

  it('the link flow refuses the access token of a signed-out session', async () => {
    const user = await signUp(service);
    expect((await signOut(user)).status).toBe(200);
    await within(() => revoked(user));
    const { end } = await startLink(user.access_token);
    const { page, params } = landing(end.url);
    expect(page).toBe('http://localhost:3000/handler/error');
    expect(params.get('errorCode')).toBe('ACCESS_TOKEN_EXPIRED');
    expect(await connections(user.user_id)).toEqual([]);
    expect(await sessionsOf(user.user_id)).toEqual([]);
  });

  it('the link flow refuses the access token of a session a password change ended', async () => {
    const user = await signUp(service);
    const thief = await call(service, 'POST', '/auth/password/sign-in', {
      headers: authHeaders(service),
      json: { email: user.email, password: goodPassword },
    });
    const changed = await call(service, 'POST', '/auth/password/update', {
      headers: userHeaders(service, user),
      json: { old_password: goodPassword, new_password: 'another-horse-2' },
    });
    expect(changed.status, changed.text).toBe(200);
    await within(() => revoked(thief.body));
    const { end } = await startLink(thief.body.access_token);
    expect(landing(end.url).params.get('errorCode')).toBe('ACCESS_TOKEN_EXPIRED');
    expect(await connections(user.user_id)).toEqual([]);
    expect(await sessionsOf(user.user_id)).toHaveLength(1);
  });

  it('a session revoked between authorize and callback links nothing', async () => {
    const user = await signUp(service);
    const start = await startLink(user.access_token);
    expect(start.end.response?.status).toBe(200); // the stand-in's page
    await signOut(user);
    const { page, params } = await choose(start, 'late-callback');
    expect(page).toBe('http://localhost:3000/handler/error');
    expect(params.get('errorCode')).toBe('ACCESS_TOKEN_EXPIRED');
    expect(await connections(user.user_id)).toEqual([]);
  });

  it('a session revoked between callback and code exchange links nothing', async () => {
    const user = await signUp(service);
    const start = await startLink(user.access_token);
    const { page, params } = await choose(start, 'late-exchange');
    expect(page, params.get('message') ?? '').toBe(appCallbackUrl);
    await signOut(user);
    const exchanged = await exchangeCode(service, { code: params.get('code')!, verifier: start.flow.verifier });
    expect(exchanged.status).toBe(401);
    expect(exchanged.body.code).toBe('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
    expect(await connections(user.user_id)).toEqual([]);
    expect(await sessionsOf(user.user_id)).toEqual([]);
  });

  it('a link adds the connection to the session it came from, and opens no other', async () => {
    const user = await signUp(service);
    const [sessionId] = await sessionsOf(user.user_id);
    const start = await startLink(user.access_token);
    const { page, params } = await choose(start, 'linker');
    expect(page, params.get('message') ?? '').toBe(appCallbackUrl);
    const exchanged = await exchangeCode(service, { code: params.get('code')!, verifier: start.flow.verifier });
    expect(exchanged.status, JSON.stringify(exchanged.body)).toBe(200);
    expect(exchanged.body).toMatchObject({ user_id: user.user_id, is_new_user: false });
    expect(await connections(user.user_id)).toEqual(['github']);
    // The same session: its refresh token is the one answered now (rotated), and still one session.
    expect(await sessionsOf(user.user_id)).toEqual([sessionId]);
    const tokens = exchanged.body as { access_token: string; refresh_token: string };
    const listed = await call(service, 'GET', '/auth/sessions', { headers: userHeaders(service, tokens) });
    expect(listed.body.items).toEqual([expect.objectContaining({ id: sessionId, is_current: true })]);
    // The page's old refresh token is the replaced one: good for the grace window, a reuse after it.
    expect((await refreshGrant(service, user.refresh_token)).status).toBe(200);
    service.clock.advance(rotationGraceMs + 1_000);
    expect((await refreshGrant(service, tokens.refresh_token)).status).toBe(200);
    const [event] = await auditEvents(service, { user_id: user.user_id, type: 'oauth.connected' });
    expect(event).toMatchObject({ actor: { type: 'user', id: user.user_id }, data: { provider: 'github' } });
  });

  it('linking an account connected already shows its new e-mail at once, and audits no new connection', async () => {
    const user = await signUp(service);
    const link = async (tokens: { access_token: string }, login: string) => {
      const start = await startLink(tokens.access_token);
      const { page, params } = await choose(start, login);
      expect(page, params.get('message') ?? '').toBe(appCallbackUrl);
      const exchanged = await exchangeCode(service, { code: params.get('code')!, verifier: start.flow.verifier });
      expect(exchanged.status, JSON.stringify(exchanged.body)).toBe(200);
      return exchanged.body as { access_token: string };
    };
    const emails = async () => {
      const shown = await call(service, 'GET', `/users/${user.user_id}`, { headers: authHeaders(service, 'server') });
      return shown.body.oauth_providers.map((p: { email: string }) => p.email);
    };
    const tokens = await link(user, 'relinker');
    expect(await emails()).toEqual(['relinker@example.com']);
    expect(await emails()).toEqual(['relinker@example.com']);
    // The stand-in names the account by its address, case aside: the same account, its address now written so.
    const told = toldLocally(service.storage);
    try {
      await link(tokens, 'RELINKER');
      expect(told.events).toContainEqual({ type: 'users', userIds: [user.user_id] });
    } finally {
      told.stop();
    }
    expect(await emails()).toEqual(['RELINKER@example.com']);
    expect(await auditEvents(service, { user_id: user.user_id, type: 'oauth.connected' })).toHaveLength(1);
  });
});
