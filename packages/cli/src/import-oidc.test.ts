/**
 * An OAuth identity imported from Supabase (`auth.identities`) and from
 * Better Auth (its `account` table) signs in through a real OpenID provider
 * on loopback (oidc-provider, configured in the project as a generic
 * provider) and lands on the imported user: the sources' parsers feed the
 * import engine, then the whole OAuth flow runs over HTTP. The provider's
 * e-mail differs from the imported user's, so only the imported identity can
 * lead to that user.
 */
import { importUsers } from '@latchkey/server';
import {
  appCallbackUrl,
  authorizeUrl,
  exchangeCode,
  landing,
  type OidcUpstream,
  startOidcUpstream,
  startTestService,
  TestBrowser,
  type TestService,
  upstreamProvider,
} from '@latchkey/server/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseBetterAuth } from './import/sources/better-auth.js';
import { parseSupabase } from './import/sources/supabase.js';
import { isProblem, lineOf, type SourceItem } from './import/types.js';

let service: TestService;
let upstream: OidcUpstream;

beforeAll(async () => {
  service = await startTestService();
  upstream = await startOidcUpstream({
    redirectUris: ['keycloak', 'corp'].map((id) => `${service.url}/api/v1/auth/oauth/callback/${id}`),
    accounts: [
      { sub: 'kc-7f3a', email: 'ada@corp.test', email_verified: true, name: 'Ada at Corp' },
      { sub: 'corp-42', email: 'grace@corp.test', email_verified: true, name: 'Grace at Corp' },
    ],
  });
  await service.setProjectConfig({
    oauth_providers: [upstreamProvider(upstream, 'keycloak'), upstreamProvider(upstream, 'corp')],
  });
}, 60_000);

afterAll(async () => {
  await upstream?.close();
  await service?.close();
});

/** Runs a parser over the export and imports its records; answers the counts. */
async function importWith(items: AsyncIterable<SourceItem>) {
  async function* records() {
    let ordinal = 0;
    for await (const item of items) {
      ordinal++;
      if (isProblem(item)) throw new Error(`line ${item.line}: ${item.problem}`);
      yield { record: item, line: lineOf(item) ?? ordinal };
    }
  }
  return importUsers(service.storage, service.projectId, records(), { secret: service.secret });
}

function serverHeaders() {
  return {
    'x-stack-project-id': service.projectId,
    'x-stack-access-type': 'server',
    'x-stack-secret-server-key': service.keys.secretServerKey,
  };
}

/** Every user of the project: id, primary address and provider accounts. */
async function users(): Promise<{ id: string; primary_email: string | null; oauth_providers: unknown[] }[]> {
  const response = await fetch(`${service.apiUrl}/users?limit=100`, { headers: serverHeaders() });
  expect(response.status).toBe(200);
  return ((await response.json()) as { items: never[] }).items;
}

/** The whole OAuth sign-in as the upstream's `sub` with provider `providerId`: the token answer. */
async function oauthSignIn(providerId: string, sub: string) {
  const flow = authorizeUrl(service, providerId);
  upstream.nextLogin(sub);
  const end = await new TestBrowser().go(flow.url);
  const { page, params } = landing(end.url);
  expect(page, params.get('message') ?? '').toBe(appCallbackUrl);
  const answer = await exchangeCode(service, { code: params.get('code')!, verifier: flow.verifier });
  expect(answer.status).toBe(200);
  return answer.body as { user_id: string; is_new_user: boolean; access_token: string };
}

describe('imported OAuth identities sign in through the OpenID provider', () => {
  it('Supabase: the auth.identities row of the provider lands on the imported user', async () => {
    const userId = '3b0c6d1e-8f2a-4c5b-9d7e-1a2b3c4d5e6f';
    const supabase = JSON.stringify({
      users: [
        {
          id: userId,
          email: 'ada.supabase@example.com',
          encrypted_password: '',
          email_confirmed_at: '2024-01-02 03:04:05+00',
          raw_user_meta_data: { full_name: 'Ada Supabase' },
          raw_app_meta_data: { provider: 'keycloak', providers: ['keycloak'] },
          created_at: '2024-01-02 03:04:05+00',
          deleted_at: null,
          is_anonymous: false,
        },
      ],
      identities: [
        {
          id: '9d8c7b6a-0000-4000-8000-000000000001',
          provider_id: 'kc-7f3a',
          user_id: userId,
          identity_data: { sub: 'kc-7f3a', email: 'ada@corp.test' },
          provider: 'keycloak',
          email: 'ada@corp.test',
        },
      ],
    });
    const counts = await importWith(parseSupabase(supabase));
    expect(counts).toMatchObject({ users_imported: 1, skipped: 0 });
    const before = await users();

    const answer = await oauthSignIn('keycloak', 'kc-7f3a');
    expect(answer).toMatchObject({ user_id: userId, is_new_user: false });
    const me = await fetch(`${service.apiUrl}/users/me`, {
      headers: {
        'x-stack-project-id': service.projectId,
        'x-stack-access-type': 'client',
        'x-stack-publishable-client-key': service.keys.publishableClientKey,
        'x-stack-access-token': answer.access_token,
      },
    });
    expect(await me.json()).toMatchObject({
      id: userId,
      primary_email: 'ada.supabase@example.com',
      display_name: 'Ada Supabase',
      oauth_providers: [{ id: 'keycloak', account_id: 'kc-7f3a' }],
    });
    expect(await users()).toHaveLength(before.length);
  });

  it('Better Auth: the account row of the provider lands on the imported user', async () => {
    const betterAuth = JSON.stringify({
      user: [
        {
          id: 'Vq3nX8bLkR2mT7pZ4sW9yA1cE6dF0gHj',
          name: 'Grace Better',
          email: 'grace.better@example.com',
          emailVerified: true,
          image: null,
          createdAt: '2025-02-03T04:05:06.000Z',
          updatedAt: '2025-02-03T04:05:06.000Z',
        },
      ],
      account: [
        {
          id: 'acc-oidc-1',
          accountId: 'corp-42',
          providerId: 'corp',
          userId: 'Vq3nX8bLkR2mT7pZ4sW9yA1cE6dF0gHj',
          password: null,
          createdAt: '2025-02-03T04:05:06.000Z',
          updatedAt: '2025-02-03T04:05:06.000Z',
        },
      ],
    });
    const counts = await importWith(parseBetterAuth(betterAuth));
    expect(counts).toMatchObject({ users_imported: 1, skipped: 0 });
    const before = await users();
    const imported = before.find((user) => user.primary_email === 'grace.better@example.com');
    expect(imported?.oauth_providers).toMatchObject([{ id: 'corp', account_id: 'corp-42' }]);

    const answer = await oauthSignIn('corp', 'corp-42');
    expect(answer).toMatchObject({ user_id: imported!.id, is_new_user: false });
    expect(await users()).toHaveLength(before.length);
    // A second sign-in lands on the same user too.
    expect(await oauthSignIn('corp', 'corp-42')).toMatchObject({ user_id: imported!.id, is_new_user: false });
  });
});
