/**
 * Derived from the route table: every route that may write (every method but
 * `GET`) either is exercised here, with the write guard of strict mode on,
 * by a request that changes data and records its event once, or is named in
 * `routesNotYetActions` (its feature's changes are not actions yet). A
 * handler that writes outside an action fails here, and in every other test
 * of its route, since every test service is strict. `GET` routes must not
 * write: the same guard fails their tests if they do.
 */
import { headers as h, internalProjectId, refreshRotationField } from '@latchkey/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Route } from '../http/route.js';
import { createApiKeySet } from '../operations.js';
import { apiRoutes } from '../routes.js';
import { type Answer, authHeaders, call, goodPassword, newEmail, signUp, userHeaders } from '../test-support/api.js';
import { type AuditEvent, auditEvents } from '../test-support/audit.js';
import { codeFromMail, lastMailTo } from '../test-support/mail.js';
import { totpAt } from '../test-support/mfa.js';
import { type SmtpPeer, startSmtpPeer } from '../test-support/smtp-peer.js';
import { addWebhookEndpoint } from '../test-support/webhooks.js';
import { startTestService, type TestKeys, type TestService } from '../testing/index.js';
import { appCallbackUrl, authorizeUrl, exchangeCode, landing, TestBrowser } from '../testing/oauth-browser.js';
import { type OidcUpstream, startUpstreamFor } from '../testing/oidc-upstream.js';
import { SoftwareAuthenticator } from '../testing/software-authenticator.js';
import { routesNotYetActions } from './action-guard.js';

let service: TestService;
let upstream: OidcUpstream;
let smtp: SmtpPeer;

beforeAll(async () => {
  service = await startTestService({
    projectConfig: { client_user_deletion_enabled: true, magic_link_enabled: true, passkey_enabled: true },
  });
  let provider: Awaited<ReturnType<typeof startUpstreamFor>>['provider'];
  ({ upstream, provider } = await startUpstreamFor(service.url, { accessTokenTtl: 600 }));
  // `github`: the development stand-in of shared keys.
  await service.setProjectConfig({ oauth_providers: [provider, { id: 'github', type: 'shared', enabled: true }] });
  smtp = await startSmtpPeer({ users: { tester: 'test-password-1' } });
}, 60_000);
afterAll(async () => {
  await upstream?.close();
  await smtp?.close();
  await service?.close();
});

/** A request that exercises one route, and the event it must record (once), if any. */
interface Exercise {
  run(): Promise<Answer>;
  /** The audit event the change records, read from this service's project; absent for an unaudited one. */
  records?: string;
}

const admin = () => authHeaders(service, 'admin');
const server = () => authHeaders(service, 'server');
const newUser = async () =>
  (await call(service, 'POST', '/users', { headers: server(), json: { primary_email: newEmail() } })).body.id;
const post = (path: string, json: unknown, headers = authHeaders(service)) =>
  call(service, 'POST', path, { headers, json });

/** The body of an answer that must have succeeded. */
async function ok(request: Promise<Answer>) {
  const answer = await request;
  expect(answer.status, answer.text).toBeLessThan(300);
  return answer.body;
}

/** The code of the newest mail to `email`, after `send` queued it. */
async function mailedCode(email: string, send: Promise<Answer>): Promise<string> {
  await ok(send);
  return codeFromMail(await lastMailTo(service, email));
}

/** A new webhook endpoint's id. */
const newEndpoint = async (): Promise<string> =>
  (await ok(post('/webhooks/endpoints', { url: 'https://hooks.example.com/in' }, admin()))).id;
const newTeam = async (): Promise<string> => (await ok(post('/teams', { display_name: 'Proof' }, server()))).id;
/** A new team with a new user in it. */
async function membership() {
  const [team, user] = await Promise.all([newTeam(), newUser()]);
  await ok(post(`/team-memberships/${team}/${user}`, {}, server()));
  return { team, user };
}

let definitions = 0;
const newDefinition = async (): Promise<string> => {
  definitions += 1;
  const id = `proof_${definitions}`;
  await ok(post('/team-permission-definitions', { id, contained_permission_ids: [] }, admin()));
  return id;
};

const invitationPage = 'http://localhost:3000/handler/team-invitation';
/** An invitation to a new team for a new user who proved the invited address, and its code. */
async function invitation() {
  const team = await newTeam();
  const invitee = await signUp(service);
  await ok(
    call(service, 'PATCH', `/users/${invitee.user_id}`, { headers: server(), json: { primary_email_verified: true } }),
  );
  const send = post(
    '/team-invitations/send-code',
    { email: invitee.email, team_id: team, callback_url: invitationPage },
    server(),
  );
  return { team, invitee, code: await mailedCode(invitee.email, send) };
}

const verificationPage = 'http://localhost:3000/handler/email-verification';
/** A new user and the code mailed to prove their primary address. */
async function verificationCode() {
  const user = await signUp(service);
  const send = post(
    '/contact-channels/send-verification-code',
    { email: user.email, callback_url: verificationPage },
    userHeaders(service, user),
  );
  return mailedCode(user.email, send);
}
/** A new user with a second, unproved address. */
async function secondChannel() {
  const user = await signUp(service);
  const value = newEmail('second');
  const channel = await ok(
    post(
      '/contact-channels',
      { user_id: 'me', value, type: 'email', used_for_auth: false },
      userHeaders(service, user),
    ),
  );
  return { user, channel: channel.id as string };
}

const magicLinkPage = 'http://localhost:3000/handler/magic-link-callback';
const resetPage = 'http://localhost:3000/handler/password-reset';
/** A new user and the code of the password reset they asked for. */
async function resetCode() {
  const user = await signUp(service);
  return mailedCode(user.email, post('/auth/password/send-reset-code', { email: user.email, callback_url: resetPage }));
}

/** A new user (with a password) who linked an account at the upstream provider `corp`. */
async function linkedUser() {
  const user = await signUp(service);
  const app = authorizeUrl(service, 'corp', { type: 'link', token: user.access_token });
  upstream.nextLogin(`linked-${user.user_id}`);
  const { page, params } = landing((await new TestBrowser().go(app.url)).url);
  expect(page, params.get('message') ?? '').toBe(appCallbackUrl);
  expect((await exchangeCode(service, { code: params.get('code')!, verifier: app.verifier })).status).toBe(200);
  return user;
}

/** Where a browser's flow stopped, as an answer: 200 when it reached `page`, else the answer it stopped at. */
function reached(end: { url: string; response: Response | null }, page: string): Answer {
  if (end.url.startsWith(page)) return { status: 200, headers: new Headers(), body: end.url, text: end.url };
  return {
    status: end.response?.status ?? 500,
    headers: end.response?.headers ?? new Headers(),
    body: null,
    text: end.url,
  };
}

/** A new sign-up through the upstream provider `corp`, its callback sent as `method` (a form post for POST). */
async function upstreamSignUp(method: 'GET' | 'POST'): Promise<Answer> {
  const app = authorizeUrl(service, 'corp');
  upstream.nextLogin(`${method.toLowerCase()}-${newEmail()}`);
  const browser = new TestBrowser();
  const callbackPrefix = `${service.apiUrl}/auth/oauth/callback/`;
  if (method === 'GET') return reached(await browser.go(app.url), appCallbackUrl);
  const back = await browser.go(app.url, { stopAt: [callbackPrefix, 'http://localhost:3000'] });
  expect(back.url.startsWith(callbackPrefix), back.url).toBe(true);
  const url = new URL(back.url);
  const form = new URLSearchParams(url.searchParams);
  const end = await browser.go(`${url.origin}${url.pathname}`, {
    init: { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form },
  });
  return reached(end, appCallbackUrl);
}

/** `POST /auth/oauth/token` refreshing `refreshToken`, rotated (the client stores the new token). */
function rotatingRefresh(refreshToken: string): Promise<Answer> {
  const form = new URLSearchParams({
    grant_type: 'refresh_token',
    refresh_token: refreshToken,
    client_id: service.projectId,
    client_secret: service.keys.publishableClientKey,
    [refreshRotationField]: '1',
  });
  return call(service, 'POST', '/auth/oauth/token', {
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: form.toString(),
  });
}

const passkeyPage = { origin: 'http://localhost:3000' };
/** A new user, the registration of a passkey they started, and the authenticator answering it. */
async function passkeyRegistration() {
  const user = await signUp(service);
  const started = await ok(post('/auth/passkey/initiate-passkey-registration', {}, userHeaders(service, user)));
  const authenticator = new SoftwareAuthenticator();
  const credential = authenticator.register(started.options_json, passkeyPage);
  return {
    user,
    authenticator,
    register: () => post('/auth/passkey/register', { credential, code: started.code }, userHeaders(service, user)),
  };
}
/** A new user with a passkey; its id. */
async function passkeyUser() {
  const { user, authenticator, register } = await passkeyRegistration();
  await ok(register());
  const [passkey] = (await ok(call(service, 'GET', '/users/me/passkeys', { headers: userHeaders(service, user) })))
    .items;
  return { user, authenticator, passkeyId: passkey.id as string };
}

/** One exercise per writing route that is an action, by `METHOD path`. */
const exercises: Record<string, Exercise> = {
  'PATCH /users/me': {
    run: async () =>
      call(service, 'PATCH', '/users/me', {
        headers: userHeaders(service, await signUp(service)),
        json: { display_name: 'Me' },
      }),
  },
  'DELETE /users/me': {
    run: async () => call(service, 'DELETE', '/users/me', { headers: userHeaders(service, await signUp(service)) }),
    records: 'user.deleted',
  },
  'POST /users': {
    run: () => call(service, 'POST', '/users', { headers: server(), json: { primary_email: newEmail() } }),
    records: 'user.created',
  },
  'PATCH /users/:userId': {
    run: async () =>
      call(service, 'PATCH', `/users/${await newUser()}`, { headers: server(), json: { display_name: 'Ada' } }),
    records: 'user.updated',
  },
  'DELETE /users/:userId': {
    run: async () => call(service, 'DELETE', `/users/${await newUser()}`, { headers: server() }),
    records: 'user.deleted',
  },
  'PATCH /projects/current': {
    run: () => call(service, 'PATCH', '/projects/current', { headers: admin(), json: { description: 'proof' } }),
    records: 'project.updated',
  },
  'POST /internal/api-keys': {
    run: () => call(service, 'POST', '/internal/api-keys', { headers: admin(), json: { has_secret_server_key: true } }),
    records: 'api_key.created',
  },
  'PATCH /internal/api-keys/:keySetId': {
    run: async () => {
      const made = await call(service, 'POST', '/internal/api-keys', {
        headers: admin(),
        json: { has_secret_server_key: true },
      });
      return call(service, 'PATCH', `/internal/api-keys/${made.body.id}`, {
        headers: admin(),
        json: { revoked: true },
      });
    },
    records: 'api_key.revoked',
  },
  'POST /webhooks/endpoints': {
    run: () => post('/webhooks/endpoints', { url: 'https://hooks.example.com/in' }, admin()),
    records: 'webhook_endpoint.created',
  },
  'PATCH /webhooks/endpoints/:endpointId': {
    run: async () =>
      call(service, 'PATCH', `/webhooks/endpoints/${await newEndpoint()}`, {
        headers: admin(),
        json: { enabled: false },
      }),
    records: 'webhook_endpoint.updated',
  },
  'DELETE /webhooks/endpoints/:endpointId': {
    run: async () => call(service, 'DELETE', `/webhooks/endpoints/${await newEndpoint()}`, { headers: admin() }),
    records: 'webhook_endpoint.deleted',
  },
  'POST /webhooks/endpoints/:endpointId/rotate-secret': {
    run: async () => post(`/webhooks/endpoints/${await newEndpoint()}/rotate-secret`, {}, admin()),
    records: 'webhook_endpoint.secret_rotated',
  },
  'POST /webhooks/svix-token': {
    run: () => post('/webhooks/svix-token', {}, admin()),
    records: 'webhook_token.issued',
  },
  'POST /internal/projects': {
    run: async () => {
      const keys = (await createApiKeySet(service.storage, internalProjectId)) as TestKeys;
      const internal = { ...service, projectId: internalProjectId, keys };
      const owner = await signUp(internal);
      return call(service, 'POST', '/internal/projects', {
        headers: userHeaders(internal, owner),
        json: { display_name: 'Owned' },
      });
    },
  },
  'DELETE /projects/current': {
    run: async () => {
      const other = await service.createOtherProject();
      return call(service, 'DELETE', '/projects/current', {
        headers: {
          ...admin(),
          'x-stack-project-id': other.projectId,
          'x-stack-publishable-client-key': other.keys.publishableClientKey,
          'x-stack-secret-server-key': other.keys.secretServerKey,
          'x-stack-super-secret-admin-key': other.keys.superSecretAdminKey,
        },
      });
    },
  },
  // Changes nothing: exercised to prove it writes nothing outside an action either.
  'POST /check-feature-support': {
    run: () => call(service, 'POST', '/check-feature-support', { headers: authHeaders(service), json: {} }),
  },

  'POST /auth/password/sign-up': {
    run: () => post('/auth/password/sign-up', { email: newEmail(), password: goodPassword }),
    records: 'sign_up',
  },
  'POST /auth/password/sign-in': {
    run: async () => post('/auth/password/sign-in', { email: (await signUp(service)).email, password: goodPassword }),
    records: 'sign_in.succeeded',
  },
  // Queues a code and its mail: no event.
  'POST /auth/otp/send-sign-in-code': {
    run: () => post('/auth/otp/send-sign-in-code', { email: newEmail(), callback_url: magicLinkPage }),
  },
  'POST /auth/otp/sign-in': {
    run: async () => {
      const email = newEmail();
      const code = await mailedCode(email, post('/auth/otp/send-sign-in-code', { email, callback_url: magicLinkPage }));
      return post('/auth/otp/sign-in', { code });
    },
    records: 'sign_up',
  },
  'POST /auth/sessions': {
    run: async () => post('/auth/sessions', { user_id: await newUser() }, server()),
    records: 'session.created',
  },
  // A refresh a minute after the last use writes the session's use (the token endpoint's refresh, not rotated).
  'POST /auth/sessions/current/refresh': {
    run: async () => {
      const user = await signUp(service);
      service.clock.advance(2 * 60_000);
      return call(service, 'POST', '/auth/sessions/current/refresh', { headers: userHeaders(service, user) });
    },
  },
  'DELETE /auth/sessions/current': {
    run: async () =>
      call(service, 'DELETE', '/auth/sessions/current', { headers: userHeaders(service, await signUp(service)) }),
    records: 'session.revoked',
  },
  'DELETE /auth/sessions/:sessionId': {
    run: async () => {
      const user = await signUp(service);
      const [session] = (await ok(call(service, 'GET', '/auth/sessions', { headers: userHeaders(service, user) })))
        .items;
      return call(service, 'DELETE', `/auth/sessions/${session.id}`, { headers: userHeaders(service, user) });
    },
    records: 'session.revoked',
  },

  'POST /teams': {
    run: () => post('/teams', { display_name: 'Proof' }, server()),
    records: 'team.created',
  },
  'PATCH /teams/:teamId': {
    run: async () =>
      call(service, 'PATCH', `/teams/${await newTeam()}`, { headers: server(), json: { display_name: 'Renamed' } }),
    records: 'team.updated',
  },
  'DELETE /teams/:teamId': {
    run: async () => call(service, 'DELETE', `/teams/${await newTeam()}`, { headers: server() }),
    records: 'team.deleted',
  },
  'POST /team-memberships/:teamId/:userId': {
    run: async () => post(`/team-memberships/${await newTeam()}/${await newUser()}`, {}, server()),
    records: 'team.member_added',
  },
  'DELETE /team-memberships/:teamId/:userId': {
    run: async () => {
      const { team, user } = await membership();
      return call(service, 'DELETE', `/team-memberships/${team}/${user}`, { headers: server(), json: {} });
    },
    records: 'team.member_removed',
  },
  // A member's name in one team is not a security event: not audited.
  'PATCH /team-member-profiles/:teamId/:userId': {
    run: async () => {
      const { team, user } = await membership();
      return call(service, 'PATCH', `/team-member-profiles/${team}/${user}`, {
        headers: server(),
        json: { display_name: 'In the team' },
      });
    },
  },
  'POST /team-permissions/:teamId/:userId/:permissionId': {
    run: async () => {
      const { team, user } = await membership();
      return post(`/team-permissions/${team}/${user}/admin`, {}, server());
    },
    records: 'team_permission.granted',
  },
  'DELETE /team-permissions/:teamId/:userId/:permissionId': {
    run: async () => {
      const { team, user } = await membership();
      return call(service, 'DELETE', `/team-permissions/${team}/${user}/member`, { headers: server(), json: {} });
    },
    records: 'team_permission.revoked',
  },
  'POST /team-permission-definitions': {
    run: () => post('/team-permission-definitions', { id: 'proof_created', contained_permission_ids: [] }, admin()),
    records: 'permission_definition.created',
  },
  'PATCH /team-permission-definitions/:permissionId': {
    run: async () =>
      call(service, 'PATCH', `/team-permission-definitions/${await newDefinition()}`, {
        headers: admin(),
        json: { description: 'Proved' },
      }),
    records: 'permission_definition.updated',
  },
  'DELETE /team-permission-definitions/:permissionId': {
    run: async () =>
      call(service, 'DELETE', `/team-permission-definitions/${await newDefinition()}`, { headers: admin() }),
    records: 'permission_definition.deleted',
  },

  'POST /team-invitations/send-code': {
    run: async () =>
      post(
        '/team-invitations/send-code',
        { email: newEmail(), team_id: await newTeam(), callback_url: invitationPage },
        server(),
      ),
    records: 'team_invitation.sent',
  },
  'DELETE /team-invitations/:invitationId': {
    run: async () => {
      const team = await newTeam();
      const sent = await ok(
        post(
          '/team-invitations/send-code',
          { email: newEmail(), team_id: team, callback_url: invitationPage },
          server(),
        ),
      );
      return call(service, 'DELETE', `/team-invitations/${sent.id}?team_id=${team}`, { headers: server() });
    },
    records: 'team_invitation.revoked',
  },
  // Reads a code: no change, so no event.
  'POST /team-invitations/accept/check-code': {
    run: async () => post('/team-invitations/accept/check-code', { code: (await invitation()).code }),
  },
  'POST /team-invitations/accept/details': {
    run: async () => post('/team-invitations/accept/details', { code: (await invitation()).code }),
  },
  'POST /team-invitations/accept': {
    run: async () => {
      const { invitee, code } = await invitation();
      return post('/team-invitations/accept', { code }, userHeaders(service, invitee));
    },
    records: 'team_invitation.accepted',
  },

  'POST /contact-channels': {
    run: async () =>
      post(
        '/contact-channels',
        { user_id: 'me', value: newEmail('second'), type: 'email', used_for_auth: false },
        userHeaders(service, await signUp(service)),
      ),
    records: 'contact_channel.added',
  },
  // Queues a code and its mail: no event.
  'POST /contact-channels/send-verification-code': {
    run: async () => {
      const user = await signUp(service);
      return post(
        '/contact-channels/send-verification-code',
        { email: user.email, callback_url: verificationPage },
        userHeaders(service, user),
      );
    },
  },
  'POST /contact-channels/verify/check-code': {
    run: async () => post('/contact-channels/verify/check-code', { code: await verificationCode() }),
  },
  'POST /contact-channels/verify': {
    run: async () => post('/contact-channels/verify', { code: await verificationCode() }),
    records: 'contact_channel.verified',
  },
  'PATCH /contact-channels/:userId/:channelId': {
    run: async () => {
      const { user, channel } = await secondChannel();
      return call(service, 'PATCH', `/contact-channels/me/${channel}`, {
        headers: userHeaders(service, user),
        json: { value: newEmail('changed') },
      });
    },
    records: 'contact_channel.updated',
  },
  'DELETE /contact-channels/:userId/:channelId': {
    run: async () => {
      const { user, channel } = await secondChannel();
      return call(service, 'DELETE', `/contact-channels/me/${channel}`, { headers: userHeaders(service, user) });
    },
    records: 'contact_channel.removed',
  },
  'POST /contact-channels/:userId/:channelId/send-verification-code': {
    run: async () => {
      const { user, channel } = await secondChannel();
      return post(
        `/contact-channels/me/${channel}/send-verification-code`,
        { callback_url: verificationPage },
        userHeaders(service, user),
      );
    },
  },

  // Refreshes the provider's expired access token (a change), which records nothing.
  'POST /connected-accounts/:userId/:providerId/access-token': {
    run: async () => {
      const user = await linkedUser();
      service.clock.advance(11 * 60_000);
      return post(`/connected-accounts/${user.user_id}/corp/access-token`, { scope: '' }, server());
    },
  },
  'DELETE /connected-accounts/:userId/:providerId': {
    run: async () => {
      const user = await linkedUser();
      return call(service, 'DELETE', '/connected-accounts/me/corp', { headers: userHeaders(service, user) });
    },
    records: 'oauth.disconnected',
  },

  // The OAuth flow: the authorize request keeps the flow (no event); the callback uses it and signs up.
  'GET /auth/oauth/authorize/:providerId': {
    run: async () => {
      const app = authorizeUrl(service, 'corp');
      return reached(await new TestBrowser().go(app.url, { stopAt: [upstream.issuer] }), upstream.issuer);
    },
  },
  'GET /auth/oauth/callback/:providerId': { run: () => upstreamSignUp('GET'), records: 'sign_up' },
  'POST /auth/oauth/callback/:providerId': { run: () => upstreamSignUp('POST'), records: 'sign_up' },
  // The stand-in's form writes nothing itself; the flow it returns to signs up.
  'POST /auth/oauth/dev-provider/:providerId': {
    run: async () => {
      const browser = new TestBrowser();
      const page = await browser.go(authorizeUrl(service, 'github').url);
      const form = new URLSearchParams({ ...Object.fromEntries(new URL(page.url).searchParams), email: newEmail() });
      const end = await browser.go(page.url, {
        init: { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: form },
      });
      return reached(end, appCallbackUrl);
    },
    records: 'sign_up',
  },
  // A replaced refresh token back after the grace window ends its session; a rotating refresh marks use.
  'POST /auth/oauth/token': {
    run: async () => {
      const stolen = await signUp(service);
      await ok(rotatingRefresh(stolen.refresh_token));
      service.clock.advance(2 * 60_000);
      const reused = await rotatingRefresh(stolen.refresh_token);
      expect(reused.body.code, reused.text).toBe('REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED');
      const user = await signUp(service);
      service.clock.advance(2 * 60_000);
      return rotatingRefresh(user.refresh_token);
    },
    records: 'session.refresh_token_reused',
  },

  // Queues a code and its mail: no event.
  'POST /auth/password/send-reset-code': {
    run: async () =>
      post('/auth/password/send-reset-code', { email: (await signUp(service)).email, callback_url: resetPage }),
  },
  'POST /auth/password/reset/check-code': {
    run: async () => post('/auth/password/reset/check-code', { code: await resetCode() }),
  },
  'POST /auth/password/reset': {
    run: async () => post('/auth/password/reset', { code: await resetCode(), password: 'brand-new-pass-1' }),
    records: 'password.reset',
  },
  'POST /auth/password/update': {
    run: async () =>
      post(
        '/auth/password/update',
        { old_password: goodPassword, new_password: 'changed-pass-1' },
        userHeaders(service, await signUp(service)),
      ),
    records: 'password.changed',
  },
  'POST /auth/password/set': {
    run: async () => {
      const user = await newUser();
      const session = await ok(post('/auth/sessions', { user_id: user }, server()));
      return post('/auth/password/set', { password: 'first-password-1' }, userHeaders(service, session));
    },
    records: 'password.set',
  },

  // A type's first edit records `created`.
  'PATCH /email-templates/:type': {
    run: () =>
      call(service, 'PATCH', '/email-templates/magic_link', { headers: admin(), json: { subject: 'Come in' } }),
    records: 'email_template.created',
  },
  'DELETE /email-templates/:type': {
    run: async () => {
      await ok(
        call(service, 'PATCH', '/email-templates/password_reset', { headers: admin(), json: { subject: 'Reset' } }),
      );
      return call(service, 'DELETE', '/email-templates/password_reset', { headers: admin() });
    },
    records: 'email_template.reset',
  },
  // Renders without saving: no event.
  'POST /email-templates/:type/preview': {
    run: () => post('/email-templates/team_invitation/preview', {}, admin()),
  },
  'POST /internal/send-test-email': {
    run: () =>
      post(
        '/internal/send-test-email',
        {
          recipient_email: newEmail('test-mail'),
          email_config: {
            host: '127.0.0.1',
            port: smtp.port,
            username: 'tester',
            password: 'test-password-1',
            sender_email: 'admin@acme.example',
            sender_name: 'Acme Admin',
          },
        },
        admin(),
      ),
    records: 'email.test_sent',
  },

  // Hands out a challenge (a code): no event.
  'POST /auth/passkey/initiate-passkey-registration': {
    run: async () =>
      post('/auth/passkey/initiate-passkey-registration', {}, userHeaders(service, await signUp(service))),
  },
  'POST /auth/passkey/register': {
    run: async () => (await passkeyRegistration()).register(),
    records: 'passkey.added',
  },
  'POST /auth/passkey/initiate-passkey-authentication': {
    run: () => post('/auth/passkey/initiate-passkey-authentication', {}),
  },
  'POST /auth/passkey/sign-in': {
    run: async () => {
      const { authenticator } = await passkeyUser();
      const started = await ok(post('/auth/passkey/initiate-passkey-authentication', {}));
      const response = authenticator.authenticate(started.options_json, passkeyPage);
      return post('/auth/passkey/sign-in', { authentication_response: response, code: started.code });
    },
    records: 'sign_in.succeeded',
  },
  'PATCH /users/:userId/passkeys/:passkeyId': {
    run: async () => {
      const { user, passkeyId } = await passkeyUser();
      return call(service, 'PATCH', `/users/me/passkeys/${passkeyId}`, {
        headers: userHeaders(service, user),
        json: { name: 'Renamed' },
      });
    },
    records: 'passkey.renamed',
  },
  'DELETE /users/:userId/passkeys/:passkeyId': {
    run: async () => {
      const { user, passkeyId } = await passkeyUser();
      return call(service, 'DELETE', `/users/me/passkeys/${passkeyId}`, { headers: userHeaders(service, user) });
    },
    records: 'passkey.removed',
  },

  // Multi-factor: a pending enrolment records nothing until it is proven.
  'POST /users/me/mfa/totp': {
    run: async () => post('/users/me/mfa/totp', {}, userHeaders(service, await signUp(service))),
  },
  'POST /users/me/mfa/totp/confirm': {
    run: async () => {
      const headers = userHeaders(service, await signUp(service));
      const { secret_base32 } = await ok(post('/users/me/mfa/totp', {}, headers));
      return post(
        '/users/me/mfa/totp/confirm',
        { totp: totpAt({ base32: secret_base32 }, service.clock.now()) },
        headers,
      );
    },
    records: 'mfa.enabled',
  },
  'DELETE /users/me/mfa/totp': {
    run: async () => {
      const { headers, codes } = await withTotp();
      return call(service, 'DELETE', '/users/me/mfa/totp', { headers, json: { recovery_code: codes[0] } });
    },
    records: 'mfa.disabled',
  },
  'POST /users/me/mfa/recovery-codes': {
    run: async () => {
      const { headers, next } = await withTotp();
      return post('/users/me/mfa/recovery-codes', { totp: next() }, headers);
    },
    records: 'mfa.recovery_codes_regenerated',
  },
  'POST /auth/mfa/sign-in': {
    run: async () => {
      const { user, next } = await withTotp();
      const refused = await post('/auth/password/sign-in', { email: user.email, password: user.password });
      return post('/auth/mfa/sign-in', { code: refused.body.details.attempt_code, type: 'totp', totp: next() });
    },
    records: 'sign_in.succeeded',
  },
  // Keeps a pending secret for the sign-in's user: no event until it is proven.
  'POST /auth/mfa/setup': {
    run: async () => post('/auth/mfa/setup', { code: await setupCode() }),
  },
  'POST /auth/mfa/setup/confirm': {
    run: async () => {
      const code = await setupCode();
      const { secret_base32 } = await ok(post('/auth/mfa/setup', { code }));
      return post('/auth/mfa/setup/confirm', { code, totp: totpAt({ base32: secret_base32 }, service.clock.now()) });
    },
    records: 'mfa.enabled',
  },
  'POST /webhooks/endpoints/:endpointId/test': {
    run: async () => post(`/webhooks/endpoints/${await webhookEndpoint()}/test`, {}, admin()),
  },
  'POST /webhooks/messages/:messageId/replay': {
    run: async () => {
      const message = await ok(post(`/webhooks/endpoints/${await webhookEndpoint()}/test`, {}, admin()));
      return post(`/webhooks/messages/${message.id}/replay`, {}, admin());
    },
  },
};

/** A webhook endpoint of the project (the service itself answers its posts, 404). */
const webhookEndpoint = async (): Promise<string> =>
  (await addWebhookEndpoint(service, `${service.url}/webhook`, { eventTypes: ['webhook.test'] })).id;

/** A signed-in user who turned TOTP on, and the code of the step after the one that proved it. */
async function withTotp() {
  const user = await signUp(service);
  const headers = userHeaders(service, user);
  const { secret_base32 } = await ok(post('/users/me/mfa/totp', {}, headers));
  const secret = { base32: secret_base32 as string };
  const confirmed = await ok(
    post('/users/me/mfa/totp/confirm', { totp: totpAt(secret, service.clock.now()) }, headers),
  );
  const next = () => totpAt(secret, service.clock.now() + 30_000);
  return { user, headers, next, codes: confirmed.recovery_codes as string[] };
}

/** The attempt code of a sign-in the project's policy sent to set TOTP up (the policy is on only meanwhile). */
async function setupCode(): Promise<string> {
  const user = await signUp(service);
  await service.setProjectConfig({ mfa_required: true });
  try {
    const refused = await post('/auth/password/sign-in', { email: user.email, password: user.password });
    expect(refused.body.code, refused.text).toBe('MULTI_FACTOR_AUTHENTICATION_SETUP_REQUIRED');
    return refused.body.details.attempt_code;
  } finally {
    await service.setProjectConfig({ mfa_required: false });
  }
}

const routeKeys = apiRoutes.map((route) => `${route.method} ${route.path}`);
const writing = routeKeys.filter((key) => !key.startsWith('GET '));

describe('every route that writes', () => {
  it('is exercised here as an action, or named as not one yet', () => {
    const unaccounted = writing.filter((key) => !(key in exercises) && !routesNotYetActions.has(key));
    expect(unaccounted).toEqual([]);
    const both = Object.keys(exercises).filter((key) => routesNotYetActions.has(key));
    expect(both).toEqual([]);
  });

  it('names only routes of the table', () => {
    const known = new Set(routeKeys);
    expect(Object.keys(exercises).filter((key) => !known.has(key))).toEqual([]);
    expect([...routesNotYetActions].filter((key) => !known.has(key))).toEqual([]);
  });

  for (const [key, exercise] of Object.entries(exercises)) {
    it(`${key} writes inside an action${exercise.records ? `, recording ${exercise.records} once` : ''}`, async () => {
      const before = exercise.records ? await ofType(exercise.records) : [];
      const answer = await exercise.run();
      expect(answer.status, answer.text).toBeLessThan(300);
      expect(answer.headers.get('x-stack-known-error'), answer.text).toBeNull();
      if (exercise.records) {
        const after = await ofType(exercise.records);
        expect(after.length - before.length).toBe(1);
      }
    });
  }
});

describe('the write guard in a test service', () => {
  it('fails a route handler that writes outside an action', async () => {
    // A handler that changes the caller's name straight through its database handle.
    const route = apiRoutes.find((each) => `${each.method} ${each.path}` === 'PATCH /users/me') as Route;
    const handler = route.handler;
    route.handler = async ({ deps, auth, userId }) => {
      await deps.db
        .updateTable('users')
        .set({ display_name: 'Unrecorded' })
        .where('project_id', '=', auth!.project.id)
        .where('id', '=', userId!)
        .execute();
      return {};
    };
    try {
      // Without the status override, so a failure answers its own status.
      const { [h.overrideErrorStatus]: _override, ...headers } = userHeaders(service, await signUp(service));
      const answer = await call(service, 'PATCH', '/users/me', { headers, json: { display_name: 'T' } });
      expect(answer.status, answer.text).toBe(500);
    } finally {
      route.handler = handler;
    }
  });
});

function ofType(type: string): Promise<AuditEvent[]> {
  return auditEvents(service, { type, limit: '1000' });
}
