/**
 * The eleven provider presets, each pointed at a loopback stand-in through
 * `oauthProviderNetwork.rewriteUrl`: the authorization request goes to the
 * preset's real endpoint (rewritten), the code exchange uses the client
 * authentication the provider expects, ID tokens are checked against the
 * stand-in's keys, and each profile API is read the way the provider answers
 * it — e-mail and its verified flag included (GitHub's primary verified
 * address from its e-mails API, not the public one).
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { exportJWK, generateKeyPair, SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders, call } from '../test-support/api.js';
import { startTestService, type TestService } from '../testing/index.js';
import { appCallbackUrl, authorizeUrl, exchangeCode, landing, TestBrowser } from '../testing/oauth-browser.js';

const clientId = 'preset-client';
const clientSecret = 'preset-secret';

/** What each provider's API answers, by host and path, and the profile the service should read from it. */
const providers: Record<
  string,
  {
    api: Record<string, unknown>;
    idClaims?: Record<string, unknown>;
    issuer?: string;
    basicAuth?: boolean;
    expected: { account_id: string; email: string | null; verified: boolean; name: string | null };
  }
> = {
  github: {
    api: {
      'api.github.com/user': {
        id: 101,
        login: 'octo',
        name: 'Octo Cat',
        email: 'public@typed.example',
        avatar_url: 'https://x/a.png',
      },
      'api.github.com/user/emails': [
        { email: 'old@github.example', primary: false, verified: true },
        { email: 'octo@github.example', primary: true, verified: true },
      ],
    },
    expected: { account_id: '101', email: 'octo@github.example', verified: true, name: 'Octo Cat' },
  },
  google: {
    issuer: 'https://accounts.google.com',
    api: {},
    idClaims: { sub: 'g-1', email: 'g@gmail.example', email_verified: true, name: 'Gee' },
    expected: { account_id: 'g-1', email: 'g@gmail.example', verified: true, name: 'Gee' },
  },
  microsoft: {
    api: { 'graph.microsoft.com/v1.0/me': { id: 'ms-1', displayName: 'Em Ess', mail: 'ms@corp.example' } },
    expected: { account_id: 'ms-1', email: 'ms@corp.example', verified: false, name: 'Em Ess' },
  },
  spotify: {
    api: { 'api.spotify.com/v1/me': { id: 'sp-1', display_name: 'Spot', email: 'spot@music.example', images: [] } },
    expected: { account_id: 'sp-1', email: 'spot@music.example', verified: false, name: 'Spot' },
  },
  facebook: {
    api: { 'graph.facebook.com/me': { id: 'fb-1', name: 'Face', email: 'fb@book.example' } },
    expected: { account_id: 'fb-1', email: 'fb@book.example', verified: false, name: 'Face' },
  },
  discord: {
    api: {
      'discord.com/api/users/@me': {
        id: 'dc-1',
        username: 'disc',
        global_name: 'Disc Ord',
        email: 'd@cord.example',
        verified: true,
      },
    },
    expected: { account_id: 'dc-1', email: 'd@cord.example', verified: true, name: 'Disc Ord' },
  },
  gitlab: {
    api: {
      'gitlab.com/api/v4/user': {
        id: 77,
        name: 'Lab',
        email: 'lab@gitlab.example',
        confirmed_at: '2024-01-01T00:00:00Z',
      },
    },
    expected: { account_id: '77', email: 'lab@gitlab.example', verified: true, name: 'Lab' },
  },
  bitbucket: {
    basicAuth: true,
    api: {
      'api.bitbucket.org/2.0/user': { uuid: '{bb-1}', display_name: 'Bucket' },
      'api.bitbucket.org/2.0/user/emails': {
        values: [{ email: 'bb@bucket.example', is_primary: true, is_confirmed: false }],
      },
    },
    expected: { account_id: '{bb-1}', email: 'bb@bucket.example', verified: false, name: 'Bucket' },
  },
  linkedin: {
    issuer: 'https://www.linkedin.com/oauth',
    api: {},
    idClaims: { sub: 'li-1', email: 'li@linked.example', email_verified: true, name: 'Linked' },
    expected: { account_id: 'li-1', email: 'li@linked.example', verified: true, name: 'Linked' },
  },
  apple: {
    issuer: 'https://appleid.apple.com',
    api: {},
    // Apple sends the verified flag as a string.
    idClaims: { sub: 'ap-1', email: 'ap@icloud.example', email_verified: 'true' },
    expected: { account_id: 'ap-1', email: 'ap@icloud.example', verified: true, name: null },
  },
  x: {
    basicAuth: true,
    api: { 'api.x.com/2/users/me': { data: { id: 'x-1', name: 'Ex', username: 'ex' } } },
    expected: { account_id: 'x-1', email: null, verified: false, name: 'Ex' },
  },
};

/** Where each preset sends the person (host and path of the real endpoint). */
const authorizeEndpoints: Record<string, string> = {
  github: 'github.com/login/oauth/authorize',
  google: 'accounts.google.com/o/oauth2/v2/auth',
  microsoft: 'login.microsoftonline.com/contoso.example/oauth2/v2.0/authorize',
  spotify: 'accounts.spotify.com/authorize',
  facebook: 'www.facebook.com/v19.0/dialog/oauth',
  discord: 'discord.com/oauth2/authorize',
  gitlab: 'gitlab.com/oauth/authorize',
  bitbucket: 'bitbucket.org/site/oauth2/authorize',
  linkedin: 'www.linkedin.com/oauth/v2/authorization',
  apple: 'appleid.apple.com/auth/authorize',
  x: 'x.com/i/oauth2/authorize',
};

let service: TestService;
let standIn: ReturnType<typeof createServer>;
let standInOrigin: string;
/** Requests the stand-in saw, by path. */
const seen: { method: string; path: string; authorization: string | null; body: string }[] = [];
const codes = new Map<string, { host: string; nonce: string | null }>();
let signingKey: CryptoKey;
let publicJwk: Record<string, unknown>;

async function read(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** One stand-in for every provider host: `/<host>/<path>`. */
async function answer(request: IncomingMessage, response: ServerResponse) {
  const url = new URL(request.url!, standInOrigin);
  const [, host = '', ...rest] = url.pathname.split('/');
  const path = `/${rest.join('/')}`;
  const body = await read(request);
  seen.push({
    method: request.method!,
    path: `${host}${path}`,
    authorization: request.headers.authorization ?? null,
    body,
  });
  const json = (value: unknown, status = 200) => {
    response.writeHead(status, { 'content-type': 'application/json' });
    response.end(JSON.stringify(value));
  };
  const provider = Object.entries(providers).find(([id]) => host.includes(id === 'x' ? 'x.com' : id));
  if (/authorize|\/auth$|dialog\/oauth|\/authorization$/.test(path)) {
    const code = `code-${codes.size}`;
    codes.set(code, { host, nonce: url.searchParams.get('nonce') });
    const back = new URL(url.searchParams.get('redirect_uri')!);
    if (url.searchParams.get('response_mode') === 'form_post') {
      return json({ form_post: back.href, code, state: url.searchParams.get('state') });
    }
    back.searchParams.set('code', code);
    back.searchParams.set('state', url.searchParams.get('state')!);
    response.writeHead(302, { location: back.href });
    return response.end();
  }
  if (/token$|access_token$|accessToken$/.test(path)) {
    const code = new URLSearchParams(body).get('code')!;
    const issued = codes.get(code);
    const id = Object.keys(providers).find((key) => issued?.host.includes(key === 'x' ? 'x.com' : key));
    const spec = id ? providers[id]! : undefined;
    const token: Record<string, unknown> = {
      access_token: `at-${id}`,
      token_type: 'bearer',
      expires_in: 3600,
      refresh_token: `rt-${id}`,
    };
    if (spec?.idClaims) {
      token.id_token = await new SignJWT({ ...spec.idClaims, ...(issued?.nonce ? { nonce: issued.nonce } : {}) })
        .setProtectedHeader({ alg: 'RS256', kid: 'stand-in' })
        .setIssuer(spec.issuer!)
        .setAudience(clientId)
        .setIssuedAt()
        .setExpirationTime('5m')
        .sign(signingKey);
    }
    return json(token);
  }
  if (/jwks$|certs$|\/auth\/keys$/.test(path)) return json({ keys: [publicJwk] });
  const key = `${host}${path}`;
  if (provider && key in provider[1].api) return json(provider[1].api[key]);
  return json({ error: 'not_found', path: key }, 404);
}

beforeAll(async () => {
  const pair = await generateKeyPair('RS256');
  signingKey = pair.privateKey;
  publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'stand-in', alg: 'RS256', use: 'sig' };
  standIn = createServer((request, response) => {
    answer(request, response).catch((error: unknown) => {
      response.writeHead(500);
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => standIn.listen(0, '127.0.0.1', resolve));
  standInOrigin = `http://127.0.0.1:${(standIn.address() as AddressInfo).port}`;
  service = await startTestService({
    oauthProviderNetwork: {
      rewriteUrl: (url) => {
        const parsed = new URL(url);
        if (parsed.hostname === '127.0.0.1') return url;
        return `${standInOrigin}/${parsed.hostname}${parsed.pathname}${parsed.search}`;
      },
    },
    projectConfig: {
      oauth_providers: Object.keys(providers).map((id) => ({
        id: id as 'github',
        type: 'standard' as const,
        enabled: true,
        client_id: clientId,
        client_secret: clientSecret,
        ...(id === 'microsoft' ? { microsoft_tenant_id: 'contoso.example' } : {}),
      })),
    },
  });
});

afterAll(async () => {
  await service?.close();
  await new Promise((resolve) => standIn?.close(resolve));
});

describe.each(Object.entries(providers))('%s', (id, spec) => {
  it('signs in through the preset and reads the profile the provider gives', async () => {
    seen.length = 0;
    const flow = authorizeUrl(service, id);
    const browser = new TestBrowser();
    let end = await browser.go(flow.url);
    if (end.response?.status === 200) {
      // A form_post provider (Apple): the page posts the code back to the callback.
      const post = (await end.response.json()) as { form_post: string; code: string; state: string };
      end = await browser.go(post.form_post, {
        init: {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ code: post.code, state: post.state }),
        },
      });
    }
    const { page, params } = landing(end.url);
    expect(page, params.get('message') ?? '').toBe(appCallbackUrl);

    const authorization = seen.find((r) => r.method === 'GET' && /authoriz|\/auth$|dialog/.test(r.path))!;
    expect(authorization?.path).toBe(authorizeEndpoints[id]);
    const tokenRequest = seen.find((r) => r.method === 'POST')!;
    const form = new URLSearchParams(tokenRequest.body);
    expect(form.get('grant_type')).toBe('authorization_code');
    expect(form.get('code_verifier')).toMatch(/^[A-Za-z0-9_-]{43,}$/);
    if (spec.basicAuth) {
      // RFC 6749 §2.3.1: id and secret form-encoded, then Basic.
      const basic = Buffer.from(tokenRequest.authorization!.replace(/^Basic /, ''), 'base64').toString('utf8');
      expect(basic.split(':').map(decodeURIComponent)).toEqual([clientId, clientSecret]);
      expect(form.get('client_secret')).toBeNull();
    } else {
      expect(form.get('client_secret')).toBe(clientSecret);
    }

    const tokens = await exchangeCode(service, { code: params.get('code')!, verifier: flow.verifier });
    const user = await call(service, 'GET', `/users/${tokens.body.user_id}`, {
      headers: authHeaders(service, 'server'),
    });
    expect(user.body).toMatchObject({
      primary_email: spec.expected.email,
      primary_email_verified: spec.expected.verified,
      primary_email_auth_enabled: spec.expected.email !== null && spec.expected.verified,
      display_name: spec.expected.name,
      oauth_providers: [{ id, account_id: spec.expected.account_id, email: spec.expected.email }],
    });
  });
});
