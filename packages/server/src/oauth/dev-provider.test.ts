/**
 * The development stand-in of `shared` providers: the whole code flow runs
 * offline against the service's own page, the address it hands over is never
 * verified (so it never joins an existing account), and production projects
 * cannot use it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders, call, expectKnownError, signUp, userHeaders } from '../test-support/api.js';
import { startTestService, type TestService } from '../testing/index.js';
import { appCallbackUrl, authorizeUrl, exchangeCode, landing, TestBrowser } from '../testing/oauth-browser.js';

let service: TestService;

beforeAll(async () => {
  service = await startTestService({
    projectConfig: { oauth_providers: [{ id: 'github', type: 'shared', enabled: true }] },
  });
});

afterAll(() => service?.close());

/** Starts a flow and returns the stand-in's page (HTML) with the browser that holds the flow's cookie. */
async function openStandIn(options: Parameters<typeof authorizeUrl>[2] = {}) {
  const flow = authorizeUrl(service, 'github', options);
  const browser = new TestBrowser();
  const end = await browser.go(flow.url);
  return { flow, browser, end, html: (await end.response?.text()) ?? '' };
}

/** Submits the stand-in's form as the person would. */
function choose(browser: TestBrowser, pageUrl: string, fields: Record<string, string>) {
  const query = new URL(pageUrl).searchParams;
  const form = new URLSearchParams({ ...Object.fromEntries(query), ...fields });
  return browser.go(pageUrl, {
    init: { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form },
  });
}

async function signInThroughStandIn(fields: Record<string, string>) {
  const { flow, browser, end } = await openStandIn();
  const back = await choose(browser, end.url, fields);
  const { page, params } = landing(back.url);
  expect(page, params.get('message') ?? '').toBe(appCallbackUrl);
  return exchangeCode(service, { code: params.get('code')!, verifier: flow.verifier });
}

describe('the development stand-in', () => {
  it('serves a page that says what it is, with people to pick and a form', async () => {
    const { end, html } = await openStandIn();
    expect(end.response?.status).toBe(200);
    expect(end.response?.headers.get('content-type')).toMatch(/^text\/html/);
    expect(end.response?.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(new URL(end.url).pathname).toBe('/api/v1/auth/oauth/dev-provider/github');
    expect(html).toContain('Development stand-in');
    expect(html).toContain('Sign in with GitHub');
    // Its people are nobody the docs' examples sign up (the README's is ada@example.com).
    expect(html).toContain('noor@stand-in.localhost');
    expect(html).not.toContain('@example.com');
    // It follows the visitor's colour scheme.
    expect(html).toContain('prefers-color-scheme:dark');
  });

  it('signs up a new user with the typed name and an unverified address, then signs the same user in', async () => {
    const first = await signInThroughStandIn({ name: 'Lin <Dev>', email: 'lin@example.com' });
    expect(first).toMatchObject({ status: 200, body: { is_new_user: true } });
    const me = await call(service, 'GET', '/users/me', {
      headers: userHeaders(service, first.body as { access_token: string }),
    });
    expect(me.body).toMatchObject({
      display_name: 'Lin <Dev>',
      primary_email: 'lin@example.com',
      primary_email_verified: false,
      oauth_providers: [{ id: 'github', email: 'lin@example.com' }],
    });
    const again = await signInThroughStandIn({ name: 'Lin', email: 'LIN@example.com' });
    expect(again.body).toMatchObject({ is_new_user: false, user_id: me.body.id });
  });

  it('never joins an existing account, since it cannot prove the address', async () => {
    await signUp(service, 'owner@example.com');
    const { browser, end } = await openStandIn();
    const back = await choose(browser, end.url, { name: 'Intruder', email: 'owner@example.com' });
    expect(landing(back.url).params.get('errorCode')).toBe('CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE');
  });

  it('sends a cancelled sign-in to the error page', async () => {
    const { browser, end } = await openStandIn();
    const back = await choose(browser, end.url, { deny: '1' });
    expect(landing(back.url).params.get('errorCode')).toBe('OAUTH_PROVIDER_ACCESS_DENIED');
  });

  it('sends nothing to a callback that is not the service’s own', async () => {
    const page = `${service.apiUrl}/auth/oauth/dev-provider/github?redirect_uri=${encodeURIComponent('https://evil.example/cb')}&state=s&code_challenge=c`;
    const answer = await fetch(page);
    expect(answer.status).toBe(400);
    expect((await answer.json()).code).toBe('REDIRECT_URL_NOT_WHITELISTED');
  });

  it('refuses a code it did not issue', async () => {
    const { browser, end } = await openStandIn();
    const query = new URL(end.url).searchParams;
    const forged = new URL(query.get('redirect_uri')!);
    forged.searchParams.set('state', query.get('state')!);
    forged.searchParams.set('code', 'v1.forged.code');
    const back = await browser.go(forged.href);
    expect(landing(back.url).params.get('errorCode')).toBe('OAUTH_PROVIDER_ACCESS_DENIED');
  });

  it('offers no provider access token and no extra scopes with shared keys', async () => {
    const answer = await signInThroughStandIn({ email: 'tok@example.com' });
    const token = await call(service, 'POST', '/connected-accounts/me/github/access-token', {
      headers: userHeaders(service, answer.body as { access_token: string }),
      json: { scope: '' },
    });
    expectKnownError(token, 'OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS', 400);
    const scoped = await new TestBrowser().go(
      authorizeUrl(service, 'github', {
        type: 'link',
        token: answer.body.access_token as string,
        providerScope: 'repo',
      }).url,
    );
    expect(landing(scoped.url).params.get('errorCode')).toBe('OAUTH_EXTRA_SCOPE_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS');
  });

  it('is refused to a project in production mode, which the project may be with a shared provider enabled', async () => {
    const headers = authHeaders(service, 'admin');
    const on = await call(service, 'PATCH', '/projects/current', { headers, json: { is_production_mode: true } });
    expect(on.status, on.text).toBe(200);
    try {
      const refused = await new TestBrowser().go(authorizeUrl(service, 'github').url);
      expect(landing(refused.url).params.get('errorCode')).toBe('OAUTH_PROVIDER_NOT_FOUND_OR_NOT_ENABLED');
    } finally {
      await call(service, 'PATCH', '/projects/current', { headers, json: { is_production_mode: false } });
    }
    const offered = await openStandIn();
    expect(offered.end.response?.status).toBe(200);
  });
});
