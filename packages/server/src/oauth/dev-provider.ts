/**
 * The development stand-in for `shared` providers: with no internet and no
 * provider app, "Continue with GitHub" still runs the whole code flow, against
 * a page this service serves that says what it is and lets the person pick or
 * type a name and an e-mail. A production project's `shared` providers are
 * refused when a flow starts (`providerClient`), so the stand-in never signs
 * anyone into a production project.
 *
 * It keeps nothing: its authorization code is the chosen profile sealed with
 * the master secret (with the PKCE challenge, the callback URL and a
 * two-minute expiry), and the exchange opens it in-process. The e-mail it
 * hands over is never verified, since nobody proved the mailbox: such an
 * account creates a user of its own and never joins an existing one.
 */
import { createHash, randomBytes } from 'node:crypto';
import { KnownError } from '@latchkey/protocol';
import { z } from 'zod';
import type { Sealer } from '../crypto/encryption.js';
import { sha256Hex } from '../crypto/hash.js';
import { defineRoute, type Route } from '../http/route.js';
import { type ProviderClient, providerDisplayName, providerFailure } from './providers.js';

const codeLifetimeMs = 2 * 60_000;

/** The path of the stand-in's page for a provider, below `/api/v1`. */
const devProviderPath = '/auth/oauth/dev-provider';

function callbackPath(providerId: string): string {
  return `/api/v1/auth/oauth/callback/${providerId}`;
}

const sealedCode = z.object({
  provider: z.string(),
  name: z.string().nullable(),
  email: z.string().nullable(),
  challenge: z.string(),
  redirect: z.string(),
  expires: z.number(),
});

function codeField(providerId: string): string {
  return `dev-oauth-provider:${providerId}:code`;
}

/** The stand-in client of a `shared` provider; `origin` is this service's public origin. */
export function devProvider(providerId: string, origin: string, sealer: Sealer, now: () => number): ProviderClient {
  return {
    id: providerId,
    async authorizationUrl(request) {
      const url = new URL(`${origin}/api/v1${devProviderPath}/${providerId}`);
      url.searchParams.set('redirect_uri', request.redirectUri);
      url.searchParams.set('state', request.state);
      url.searchParams.set('code_challenge', request.codeChallenge);
      return url;
    },
    async exchange({ parameters, state, redirectUri, codeVerifier }) {
      if (parameters.get('state') !== state) throw providerFailure('The provider answered for another sign-in.');
      if (parameters.get('error') === 'access_denied') throw providerFailure('Sign-in was cancelled at the provider.');
      let code: z.infer<typeof sealedCode>;
      try {
        code = sealedCode.parse(JSON.parse(sealer.open(parameters.get('code') ?? '', codeField(providerId))));
      } catch {
        throw providerFailure('The provider answered with a code it did not issue.');
      }
      const challenge = createHash('sha256').update(codeVerifier).digest('base64url');
      if (code.provider !== providerId || code.redirect !== redirectUri || code.challenge !== challenge) {
        throw providerFailure('The provider answered with a code of another sign-in.');
      }
      if (code.expires <= now()) throw providerFailure('The provider answered with an expired code.');
      const email = code.email;
      return {
        profile: {
          // One stand-in account per address (or per name without one), stable across sign-ins.
          accountId: `dev-${sha256Hex(`${providerId}:${email?.toLowerCase() ?? `name:${code.name ?? ''}`}`).slice(0, 24)}`,
          email,
          emailVerified: false,
          displayName: code.name,
          profileImageUrl: null,
        },
        tokens: { accessToken: randomBytes(24).toString('base64url'), refreshToken: null, expiresAt: null, scopes: [] },
      };
    },
    async refresh() {
      throw new KnownError('OAUTH_ACCESS_TOKEN_NOT_AVAILABLE_WITH_SHARED_OAUTH_KEYS');
    },
  };
}

const pageQuery = z.object({
  redirect_uri: z.string().max(2048),
  state: z.string().max(256),
  code_challenge: z.string().max(256),
});

/**
 * The people offered with one click. Their addresses are under `stand-in.localhost`, a name no mailbox has and
 * no example in the docs uses: an account made from the README's examples (`ada@example.com`) never meets one.
 */
const people = [
  { name: 'Noor Haddad', email: 'noor@stand-in.localhost' },
  { name: 'Kenji Sato', email: 'kenji@stand-in.localhost' },
  { name: 'Ines Duarte', email: 'ines@stand-in.localhost' },
];

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The callback URL must be this service's own for the provider: the page sends nothing anywhere else. */
function ownCallback(request: Request, providerId: string, redirectUri: string): boolean {
  try {
    const target = new URL(redirectUri);
    return target.origin === new URL(request.url).origin && target.pathname === callbackPath(providerId);
  } catch {
    return false;
  }
}

const htmlHeaders = {
  'content-type': 'text/html; charset=utf-8',
  'cache-control': 'no-store',
  // No form-action: Chromium applies it to the whole redirect chain after the form, which ends on the app.
  'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
};

function page(providerId: string, query: z.infer<typeof pageQuery>): string {
  const provider = escapeHtml(providerDisplayName({ id: providerId }));
  const hidden = Object.entries(query)
    .map(([key, value]) => `<input type="hidden" name="${key}" value="${escapeHtml(value)}">`)
    .join('');
  const choices = people
    .map(
      (p) =>
        `<form method="post">${hidden}<input type="hidden" name="name" value="${escapeHtml(p.name)}"><input type="hidden" name="email" value="${escapeHtml(p.email)}"><button class="person" type="submit"><strong>${escapeHtml(p.name)}</strong><span>${escapeHtml(p.email)}</span></button></form>`,
    )
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${provider} (development stand-in)</title><style>

:root{color-scheme:light dark;--bg:#f4f4f5;--card:#fff;--line:#e4e4e7;--text:#18181b;--muted:#52525b;--faint:#71717a;--field:#d4d4d8;--hover:#a1a1aa;--badge-text:#92400e;--badge:#fef3c7;--primary:#18181b;--on-primary:#fff}
@media (prefers-color-scheme:dark){:root{--bg:#09090b;--card:#18181b;--line:#3f3f46;--text:#fafafa;--muted:#a1a1aa;--faint:#a1a1aa;--field:#52525b;--hover:#71717a;--badge-text:#fde68a;--badge:#422006;--primary:#fafafa;--on-primary:#18181b}}
body{margin:0;min-height:100vh;display:grid;place-items:center;background:var(--bg);font:15px/1.5 system-ui,-apple-system,"Segoe UI",sans-serif;color:var(--text)}
main{box-sizing:border-box;width:min(420px,calc(100vw - 32px));background:var(--card);border:1px solid var(--line);border-radius:12px;padding:28px;box-shadow:0 1px 3px rgba(0,0,0,.06)}
h1{font-size:20px;margin:0 0 4px}p{margin:0 0 16px;color:var(--muted)}.badge{display:inline-block;font-size:12px;font-weight:600;color:var(--badge-text);background:var(--badge);border-radius:999px;padding:2px 10px;margin-bottom:12px}
.person{display:flex;flex-direction:column;align-items:flex-start;width:100%;text-align:left;border:1px solid var(--line);background:var(--card);color:var(--text);border-radius:8px;padding:10px 14px;margin:0 0 8px;font:inherit;cursor:pointer;overflow-wrap:anywhere}.person:hover{border-color:var(--hover)}.person span{color:var(--faint);font-size:13px}
form{margin:0}label{display:block;font-size:13px;font-weight:600;margin:12px 0 4px}input[type=text],input[type=email]{box-sizing:border-box;width:100%;padding:8px 10px;border:1px solid var(--field);border-radius:8px;font:inherit;background:var(--card);color:var(--text)}
.row{display:flex;gap:8px;margin-top:16px}.primary,.secondary{flex:1;padding:9px 12px;border-radius:8px;font:inherit;font-weight:600;cursor:pointer}.primary{background:var(--primary);color:var(--on-primary);border:1px solid var(--primary)}.secondary{background:var(--card);color:var(--text);border:1px solid var(--field)}
hr{border:0;border-top:1px solid var(--line);margin:20px 0}
</style></head><body><main><span class="badge">Development stand-in</span><h1>Sign in with ${provider}</h1>
<p>This page stands in for ${provider} while you develop: no ${provider} account is used and nothing leaves this machine. Pick a person, or type one. The e-mail is not verified.</p>
${choices}<hr><form method="post">${hidden}<label for="name">Name</label><input id="name" name="name" type="text" maxlength="100" autocomplete="off"><label for="email">E-mail</label><input id="email" name="email" type="email" maxlength="254" required autocomplete="off">
<div class="row"><button class="primary" type="submit">Continue</button><button class="secondary" type="submit" name="deny" value="1" formnovalidate>Cancel</button></div></form></main></body></html>`;
}

const providerParams = z.object({ providerId: z.string().regex(/^[a-z0-9-]{1,40}$/) });

const showPage = defineRoute({
  method: 'GET',
  path: `${devProviderPath}/:providerId`,
  tag: 'oauth',
  summary: "The development stand-in's sign-in page for a `shared` provider (HTML).",
  access: 'none',
  params: providerParams,
  query: pageQuery,
  answer: 'text',
  errors: ['REDIRECT_URL_NOT_WHITELISTED'],
  handler: async ({ request, params, query }) => {
    if (!ownCallback(request, params.providerId, query.redirect_uri))
      throw new KnownError('REDIRECT_URL_NOT_WHITELISTED');
    return new Response(page(params.providerId, query), { headers: htmlHeaders });
  },
});

const choose = defineRoute({
  method: 'POST',
  path: `${devProviderPath}/:providerId`,
  tag: 'oauth',
  summary: 'The person chose who to sign in as (or cancelled): back to the callback with a code (or `access_denied`).',
  access: 'none',
  params: providerParams,
  body: {
    form: pageQuery.extend({
      name: z.string().max(100).optional(),
      email: z.string().max(254).optional(),
      deny: z.string().optional(),
    }),
  },
  answer: 'text',
  errors: ['REDIRECT_URL_NOT_WHITELISTED', 'SCHEMA_ERROR'],
  handler: async ({ request, params, body: form, deps }) => {
    const redirectUri = form.get('redirect_uri') ?? '';
    if (!ownCallback(request, params.providerId, redirectUri)) throw new KnownError('REDIRECT_URL_NOT_WHITELISTED');
    const back = new URL(redirectUri);
    back.searchParams.set('state', (form.get('state') ?? '').slice(0, 256));
    if (form.get('deny')) {
      back.searchParams.set('error', 'access_denied');
    } else {
      const email = (form.get('email') ?? '').trim();
      const name = (form.get('name') ?? '').trim().slice(0, 100);
      if (!z.email().max(254).safeParse(email).success) {
        throw new KnownError('SCHEMA_ERROR', { message: 'Type an e-mail address, like name@example.com.' });
      }
      const code: z.infer<typeof sealedCode> = {
        provider: params.providerId,
        name: name || null,
        email,
        challenge: (form.get('code_challenge') ?? '').slice(0, 256),
        redirect: redirectUri,
        expires: deps.clock.now() + codeLifetimeMs,
      };
      back.searchParams.set('code', deps.configSealer.seal(JSON.stringify(code), codeField(params.providerId)));
    }
    return new Response(null, { status: 303, headers: { location: back.href, 'cache-control': 'no-store' } });
  },
});

/** The stand-in's page and its form. */
export const devProviderRoutes: Route[] = [showPage, choose];
