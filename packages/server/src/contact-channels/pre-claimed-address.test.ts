/**
 * Pre-claimed addresses: someone adds another person's address to an account
 * he controls and waits for her. A client-added address is no sign-in address
 * and no primary until its mailbox is proven; code sign-in refuses an address
 * another account merely claims; a mailbox proof (password reset, provider
 * sign-up with a verified e-mail) that meets such an address gives the prover
 * an account only she can enter; codes of what changed die with the change;
 * it is all audited.
 * On PGlite and, when it answers, PostgreSQL.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import {
  authHeaders,
  call,
  expectKnownError,
  goodPassword,
  newEmail,
  refreshGrant,
  signUp,
  userHeaders,
} from '../test-support/api.js';
import { auditEvents } from '../test-support/audit.js';
import { describeEachBackend } from '../test-support/backends.js';
import { codeFromMail, lastMailTo } from '../test-support/mail.js';
import { startTestService, type TestService } from '../testing/index.js';
import { appCallbackUrl, authorizeUrl, exchangeCode, landing, TestBrowser } from '../testing/oauth-browser.js';
import { type OidcUpstream, startUpstreamFor } from '../testing/oidc-upstream.js';

type Tokens = { access_token: string; refresh_token?: string; user_id?: string };

describeEachBackend('pre-claimed addresses', ({ databaseUrl }) => {
  let service: TestService;
  let upstream: OidcUpstream;
  beforeAll(async () => {
    service = await startTestService({ databaseUrl, projectConfig: { magic_link_enabled: true } });
    let provider: Awaited<ReturnType<typeof startUpstreamFor>>['provider'];
    ({ upstream, provider } = await startUpstreamFor(service.url));
    await service.setProjectConfig({ oauth_providers: [provider] });
  }, 60_000);
  afterAll(async () => {
    await upstream?.close();
    await service?.close();
  });
  beforeEach(() => {
    service.clock.startWindow(10 * 60_000);
  });

  const callback = 'http://localhost:3000/handler/callback';
  const client = (tokens: Tokens) => userHeaders(service, tokens);
  const server = () => authHeaders(service, 'server');
  const post = (path: string, json: unknown, headers = authHeaders(service)) =>
    call(service, 'POST', path, { headers, json });
  const addChannel = (tokens: Tokens, body: Record<string, unknown>) =>
    post('/contact-channels', { user_id: 'me', type: 'email', ...body }, client(tokens));
  const patchChannel = (tokens: Tokens, id: string, body: unknown) =>
    call(service, 'PATCH', `/contact-channels/me/${id}`, { headers: client(tokens), json: body });
  const channelsOf = async (userId: string) =>
    (await call(service, 'GET', `/contact-channels?user_id=${userId}`, { headers: server() })).body.items as Array<{
      id: string;
      value: string;
      is_verified: boolean;
      is_primary: boolean;
      used_for_auth: boolean;
    }>;
  const signIn = (email: string, password = goodPassword) => post('/auth/password/sign-in', { email, password });
  const userById = async (id: string) =>
    (await call(service, 'GET', `/users/${id}`, { headers: server() })).body as Record<string, unknown>;

  /** Mails the channel's verification link and follows it, as the mailbox's owner would. */
  async function verifyChannel(tokens: Tokens, channelId: string, address: string) {
    const sent = await post(
      `/contact-channels/me/${channelId}/send-verification-code`,
      { callback_url: callback },
      client(tokens),
    );
    expect(sent.status, sent.text).toBe(200);
    return post('/contact-channels/verify', { code: codeFromMail(await lastMailTo(service, address)) });
  }

  /** Asks for a reset code for the address and returns it, as the mailbox's owner reads it. */
  async function resetCode(address: string) {
    const sent = await post('/auth/password/send-reset-code', { email: address, callback_url: callback });
    expect(sent.status, sent.text).toBe(200);
    return codeFromMail(await lastMailTo(service, address));
  }

  /** A provider flow through the loopback OpenID provider; `link` connects it to the signed-in user. */
  async function providerFlow(sub: string, email: string, link?: Tokens) {
    upstream.setAccount({ sub, email, email_verified: true, name: sub });
    const flow = authorizeUrl(service, 'corp', link ? { type: 'link', token: link.access_token } : {});
    upstream.nextLogin(sub);
    const end = await new TestBrowser().go(flow.url);
    const { page, params } = landing(end.url);
    if (page !== appCallbackUrl) return { error: params.get('errorCode'), body: null };
    const exchanged = await exchangeCode(service, { code: params.get('code')!, verifier: flow.verifier });
    return { error: null, body: exchanged.body as { access_token: string; user_id: string; is_new_user: boolean } };
  }

  /**
   * The attack of the report: Mallory signs up with Victoria's address and a
   * password, adds and verifies his own address, and links his own provider
   * identity. Returns his tokens, his own address and Victoria's.
   */
  async function preClaim() {
    const victim = newEmail('victoria');
    const mallory = await signUp(service, victim);
    const own = newEmail('mallory');
    const added = await addChannel(mallory, { value: own, used_for_auth: true });
    expect(added.status, added.text).toBe(201);
    expect((await verifyChannel(mallory, added.body.id, own)).status).toBe(200);
    const linked = await providerFlow(`mallory-${own}`, own, mallory);
    expect(linked.error).toBeNull();
    return { mallory, own, victim };
  }

  /** Mallory still enters his account by his own address and provider, and not by Victoria's address. */
  async function expectMalloryKeepsOnlyHisWaysIn(mallory: Tokens & { user_id: string }, own: string, victim: string) {
    expect((await signIn(own)).body.user_id).toBe(mallory.user_id);
    expectKnownError(await signIn(victim), 'EMAIL_PASSWORD_MISMATCH', 400);
    expect((await channelsOf(mallory.user_id)).map((channel) => channel.value)).toEqual([own]);
  }

  it('a client-added address is no sign-in address until verified: it neither signs in nor blocks its owner', async () => {
    const mallory = await signUp(service);
    const victim = newEmail('victoria');
    const added = await addChannel(mallory, { value: victim, used_for_auth: true });
    // The wire answer Stack's reference gives: asked for sign-in, not primary, not verified.
    expect(added.status, added.text).toBe(201);
    expect(added.body).toMatchObject({ value: victim, used_for_auth: true, is_primary: false, is_verified: false });
    expectKnownError(await signIn(victim), 'EMAIL_PASSWORD_MISMATCH', 400);
    // Nothing is mailed to a reset of an address nobody signs in with.
    await post('/auth/password/send-reset-code', { email: victim, callback_url: callback });
    const victoria = await post('/auth/password/sign-up', { email: victim, password: 'her-own-password-1' });
    expect(victoria.status, victoria.text).toBe(200);
    expect(victoria.body.user_id).not.toBe(mallory.user_id);
    expect((await signIn(victim, 'her-own-password-1')).body.user_id).toBe(victoria.body.user_id);
    // The same through PATCH: a renamed or switched channel is no sign-in address either.
    const [primary] = await channelsOf(mallory.user_id);
    const other = newEmail('other');
    const renamed = await patchChannel(mallory, primary!.id, { is_primary: false });
    expect(renamed.status, renamed.text).toBe(200);
    const changed = await patchChannel(mallory, primary!.id, { value: other });
    expect(changed.body).toMatchObject({ value: other, used_for_auth: true, is_verified: false });
    expectKnownError(await signIn(other), 'EMAIL_PASSWORD_MISMATCH', 400);
  });

  it('a client cannot make an unverified address its primary face', async () => {
    const mallory = await signUp(service);
    const victim = newEmail('victoria');
    const asked = await addChannel(mallory, { value: victim, used_for_auth: true, is_primary: true });
    expectKnownError(asked, 'SCHEMA_ERROR', 400);
    const added = await addChannel(mallory, { value: victim, used_for_auth: false });
    expectKnownError(await patchChannel(mallory, added.body.id, { is_primary: true }), 'SCHEMA_ERROR', 400);
    const [primary] = await channelsOf(mallory.user_id);
    expect(primary).toMatchObject({ is_primary: true, value: mallory.email });
    // Renaming the primary would put an unproven address in front just the same.
    expectKnownError(await patchChannel(mallory, primary!.id, { value: newEmail('x') }), 'SCHEMA_ERROR', 400);
    expect((await userById(mallory.user_id)).primary_email).toBe(mallory.email);
    // Once verified, it may be made primary; server code may do as it likes.
    expect((await verifyChannel(mallory, added.body.id, victim)).status).toBe(200);
    expect((await patchChannel(mallory, added.body.id, { is_primary: true })).body.is_primary).toBe(true);
    const serverAdded = await post(
      '/contact-channels',
      { user_id: mallory.user_id, type: 'email', value: newEmail('srv'), used_for_auth: true, is_primary: true },
      server(),
    );
    expect(serverAdded.body).toMatchObject({ is_primary: true, used_for_auth: true, is_verified: false });
  });

  it('a verified client-added address becomes a sign-in address, unless someone else signs in with it by then', async () => {
    const user = await signUp(service);
    const second = newEmail('second');
    const added = await addChannel(user, { value: second, used_for_auth: true });
    expect((await verifyChannel(user, added.body.id, second)).body).toEqual({ success: true });
    expect((await signIn(second)).body.user_id).toBe(user.user_id);

    const taken = newEmail('taken');
    const pending = await addChannel(user, { value: taken, used_for_auth: true });
    await post(
      `/contact-channels/me/${pending.body.id}/send-verification-code`,
      { callback_url: callback },
      client(user),
    );
    const code = codeFromMail(await lastMailTo(service, taken));
    const owner = await signUp(service, taken);
    const refused = await post('/contact-channels/verify', { code });
    expectKnownError(refused, 'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE', 409);
    expect((await channelsOf(user.user_id)).find((c) => c.value === taken)).toMatchObject({ is_verified: false });
    expect((await signIn(taken)).body.user_id).toBe(owner.user_id);
  });

  it("a pre-claimed address gets no sign-in code: the claimer's account is neither entered nor changed", async () => {
    const { mallory, own, victim } = await preClaim();
    const refused = await post('/auth/otp/send-sign-in-code', { email: victim, callback_url: callback });
    expectKnownError(refused, 'USER_EMAIL_ALREADY_EXISTS', 409);
    // Nothing detached: the claim stays until she proves the mailbox another way (a reset, a provider).
    expect((await channelsOf(mallory.user_id)).map((channel) => channel.value).sort()).toEqual([own, victim].sort());
    expect(await auditEvents(service, { user_id: mallory.user_id, type: 'contact_channel.detached' })).toEqual([]);
  });

  it("a password reset of a pre-claimed address does not hand over the claimer's account", async () => {
    const { mallory, own, victim } = await preClaim();
    const code = await resetCode(victim);
    const reset = await post('/auth/password/reset', { code, password: 'her-own-password-1' });
    expect(reset.body, reset.text).toEqual({ success: true });
    const victoria = await signIn(victim, 'her-own-password-1');
    expect(victoria.status, victoria.text).toBe(200);
    expect(victoria.body.user_id).not.toBe(mallory.user_id);
    expect(await userById(victoria.body.user_id)).toMatchObject({
      primary_email: victim,
      primary_email_verified: true,
      oauth_providers: [],
    });
    await expectMalloryKeepsOnlyHisWaysIn(mallory, own, victim);
    // Mallory's password is his; Victoria's reset did not change it.
    expect((await signIn(own, goodPassword)).status).toBe(200);
  });

  it('a provider sign-up with a pre-claimed address gives its owner her own account', async () => {
    const { mallory, own, victim } = await preClaim();
    const victoria = await providerFlow(`victoria-${victim}`, victim);
    expect(victoria.error).toBeNull();
    expect(victoria.body).toMatchObject({ is_new_user: true });
    expect(victoria.body!.user_id).not.toBe(mallory.user_id);
    expect(await userById(victoria.body!.user_id)).toMatchObject({
      primary_email: victim,
      primary_email_verified: true,
    });
    await expectMalloryKeepsOnlyHisWaysIn(mallory, own, victim);
  });

  it("an address that is the claimer's only way in becomes the owner's account: his password and sessions end", async () => {
    // The classic pre-hijack: an account made with her address and a password, nothing else.
    const victim = newEmail('victoria');
    const squatter = await signUp(service, victim);
    const victoria = await providerFlow(`victoria-${victim}`, victim);
    expect(victoria.error).toBeNull();
    expect(victoria.body).toMatchObject({ user_id: squatter.user_id, is_new_user: false });
    expect(await userById(squatter.user_id)).toMatchObject({ has_password: false, primary_email_verified: true });
    expect((await refreshGrant(service, squatter.refresh_token)).status).toBe(401);
    expectKnownError(await signIn(victim), 'EMAIL_PASSWORD_MISMATCH', 400);
  });

  it('outstanding codes of a taken-over account die with the change', async () => {
    const victim = newEmail('victoria');
    const squatter = await signUp(service, victim);
    // Codes the squatter (or anybody) had asked for before the owner proved her mailbox.
    const staleReset = await resetCode(victim);
    const code = await resetCode(victim);
    expect((await post('/auth/password/reset', { code, password: 'her-own-password-1' })).status).toBe(200);
    expect((await signIn(victim, 'her-own-password-1')).body.user_id).toBe(squatter.user_id);
    expectKnownError(
      await post('/auth/password/reset', { code: staleReset, password: 'x-password-2' }),
      'VERIFICATION_CODE_EXPIRED',
      400,
    );
  });
});
