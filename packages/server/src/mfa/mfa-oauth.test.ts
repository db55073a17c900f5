/**
 * The OAuth code exchange of a user with TOTP, against the loopback OpenID
 * Connect provider: `POST /auth/oauth/token` opens no session and answers the
 * known-error JSON MULTI_FACTOR_AUTHENTICATION_REQUIRED with its real status
 * (wire-protocol §9.2), and its attempt code finishes the sign-in.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { authHeaders, call, userHeaders } from '../test-support/api.js';
import { auditEvents } from '../test-support/audit.js';
import { describeEachBackend } from '../test-support/backends.js';
import { mfaSignIn, newSecret, sessionCount, totpAt } from '../test-support/mfa.js';
import { startTestService, type TestService } from '../testing/index.js';
import { appCallbackUrl, authorizeUrl, exchangeCode, landing, TestBrowser } from '../testing/oauth-browser.js';
import { type OidcUpstream, startUpstreamFor } from '../testing/oidc-upstream.js';

describeEachBackend('an OAuth sign-in with a second factor', ({ databaseUrl }) => {
  let service: TestService;
  let upstream: OidcUpstream;
  beforeAll(async () => {
    service = await startTestService({ databaseUrl });
    const started = await startUpstreamFor(service.url, {
      accounts: [{ sub: 'ada', email: 'ada@corp.test', email_verified: true, name: 'Ada Corp' }],
    });
    upstream = started.upstream;
    await service.setProjectConfig({ oauth_providers: [started.provider] });
  }, 60_000);
  afterAll(async () => {
    await upstream?.close();
    await service?.close();
  });

  async function exchange() {
    const flow = authorizeUrl(service, 'corp');
    upstream.nextLogin('ada');
    const end = await new TestBrowser().go(flow.url);
    const { page, params } = landing(end.url);
    expect(page, params.get('message') ?? '').toBe(appCallbackUrl);
    return exchangeCode(service, { code: params.get('code')!, verifier: flow.verifier });
  }

  it('answers the exchange with MULTI_FACTOR_AUTHENTICATION_REQUIRED (400, JSON), then signs in with TOTP', async () => {
    const first = await exchange();
    expect(first.status).toBe(200);
    const userId = first.body.user_id as string;
    const secret = newSecret();
    const set = await call(service, 'PATCH', `/users/${userId}`, {
      headers: authHeaders(service, 'server'),
      json: { totp_secret_base64: secret },
    });
    expect(set.body.requires_totp_mfa).toBe(true);
    const sessions = await sessionCount(service, userId);

    const refused = await exchange();
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: 'MULTI_FACTOR_AUTHENTICATION_REQUIRED', error: expect.any(String) });
    const attempt = (refused.body.details as { attempt_code: string }).attempt_code;
    expect(await sessionCount(service, userId)).toBe(sessions);

    const signedIn = await mfaSignIn(service, attempt, totpAt({ base64: secret }, service.clock.now()));
    expect(signedIn.status, signedIn.text).toBe(200);
    expect(signedIn.body).toMatchObject({ user_id: userId, is_new_user: false });
    const me = await call(service, 'GET', '/users/me', { headers: userHeaders(service, signedIn.body) });
    expect(me.body.id).toBe(userId);
    const [event] = await auditEvents(service, { user_id: userId, type: 'sign_in.succeeded' });
    expect(event?.data).toEqual({ method: 'oauth', second_factor: 'totp' });
  });
});
