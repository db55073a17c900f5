/**
 * The OAuth flow through the service, against the development stand-in of a
 * `shared` provider: the cookie that binds a flow to its browser, and linking
 * a provider to the signed-in user's session (wire-protocol §9).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authorizeUrl } from '../test-support/oauth-browser.js';
import { startTestService, type TestService } from '../testing/index.js';

describe('the cookie binding a flow to its browser', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({
      projectConfig: { oauth_providers: [{ id: 'github', type: 'shared', enabled: true }] },
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

  it('stays SameSite=Lax on plain http (development), where browsers refuse SameSite=None without Secure', async () => {
    const cookie = await flowCookie('http://localhost:8102');
    expect(cookie).toMatch(/; SameSite=Lax(;|$)/);
    expect(cookie).not.toMatch(/Secure/);
  });
});
