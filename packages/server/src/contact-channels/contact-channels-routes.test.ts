/**
 * Contact channels over HTTP: CRUD for a client (`me`) and server code (any
 * user), one primary per user mirrored into the user, sign-in addresses unique
 * across users, the refusals (each changing nothing), and e-mail verification
 * by the mailed code from sign-up, the primary route and a channel's own route.
 */
import { headers as h } from '@latchkey/protocol';
import { describe, expect, it } from 'vitest';
import { codeLifetimeMs, issueCode } from '../codes/codes.js';
import { dbOf } from '../storage/open-storage.js';
import {
  type Answer,
  authHeaders,
  call,
  expectKnownError,
  expectStatusRefusal,
  goodPassword,
  newEmail,
  signUp,
  snapshot,
  userHeaders,
} from '../test-support/api.js';
import { otherProjectForSuite, testServiceForSuite } from '../test-support/backends.js';
import { codeFromMail, lastMailTo, mailsTo } from '../test-support/mail.js';

// Every test starts in fresh rate-limit windows (one test exercises the limit).
const service = testServiceForSuite({ freshWindows: true });
const other = otherProjectForSuite(service);

const callback = 'http://localhost:3000/handler/email-verification';
const untrusted = 'https://evil.example/verify';

type Tokens = { access_token: string; refresh_token?: string };
const client = (tokens: Tokens) => userHeaders(service, tokens);
const server = () => authHeaders(service, 'server');

const list = (userId: string, headers: Record<string, string>) =>
  call(service, 'GET', `/contact-channels?user_id=${encodeURIComponent(userId)}`, { headers });
const create = (json: unknown, headers: Record<string, string>) =>
  call(service, 'POST', '/contact-channels', { headers, json });
const patch = (userId: string, id: string, json: unknown, headers: Record<string, string>) =>
  call(service, 'PATCH', `/contact-channels/${userId}/${id}`, { headers, json });
const remove = (userId: string, id: string, headers: Record<string, string>) =>
  call(service, 'DELETE', `/contact-channels/${userId}/${id}`, { headers });
const sendChannelCode = (userId: string, id: string, headers: Record<string, string>, callbackUrl = callback) =>
  call(service, 'POST', `/contact-channels/${userId}/${id}/send-verification-code`, {
    headers,
    json: { callback_url: callbackUrl },
  });
const sendPrimaryCode = (email: string, headers: Record<string, string>, callbackUrl = callback) =>
  call(service, 'POST', '/contact-channels/send-verification-code', {
    headers,
    json: { email, callback_url: callbackUrl },
  });
const verify = (code: unknown) =>
  call(service, 'POST', '/contact-channels/verify', { headers: authHeaders(service), json: { code } });
const checkCode = (code: unknown) =>
  call(service, 'POST', '/contact-channels/verify/check-code', { headers: authHeaders(service), json: { code } });
const signIn = (email: string, password = goodPassword) =>
  call(service, 'POST', '/auth/password/sign-in', { headers: authHeaders(service), json: { email, password } });
const me = async (tokens: Tokens) => (await call(service, 'GET', '/users/me', { headers: client(tokens) })).body;

/** Asserts the known error and that nothing changed. */
async function refused(request: () => Promise<Answer>, code: Parameters<typeof expectKnownError>[1], status: number) {
  const before = await snapshot(service);
  const answer = await request();
  expectKnownError(answer, code, status);
  expect(await snapshot(service)).toEqual(before);
  return answer;
}

/** Like `refused`, for a plain status error (wire-protocol §4.2): text, no known-error header. */
async function refusedPlain(request: () => Promise<Answer>, status: number, text: string) {
  const before = await snapshot(service);
  expectStatusRefusal(await request(), status, text);
  expect(await snapshot(service)).toEqual(before);
}
const notFound = 'Contact channel not found';
const ownOnly = (verb: string) => `Client can only ${verb} contact channels for their own user.`;

/** A signed-up user's channels, primary first. */
async function channelsOf(tokens: Tokens) {
  const answer = await list('me', client(tokens));
  expect(answer.status, answer.text).toBe(200);
  return answer.body.items as Array<{ id: string; value: string; is_primary: boolean; is_verified: boolean }>;
}

/** Signs up and adds a secondary address. */
async function withSecondary(usedForAuth = false) {
  const user = await signUp(service);
  const value = newEmail('second');
  const added = await create({ user_id: 'me', value, type: 'email', used_for_auth: usedForAuth }, client(user));
  expect(added.status, added.text).toBe(201);
  return { user, value, channel: added.body as { id: string; user_id: string } };
}

describe('contact channels as a client (me)', () => {
  it('lists the primary address made at sign-up, then adds, changes and removes one', async () => {
    const user = await signUp(service);
    const listed = await list('me', client(user));
    expect(listed.body).toEqual({
      is_paginated: false,
      items: [
        {
          user_id: user.user_id,
          id: expect.any(String),
          value: user.email,
          type: 'email',
          used_for_auth: true,
          is_verified: false,
          is_primary: true,
        },
      ],
    });
    // A client may also name itself by id.
    expect((await list(user.user_id, client(user))).body).toEqual(listed.body);

    const value = newEmail('second');
    const added = await create({ user_id: 'me', value, type: 'email', used_for_auth: false }, client(user));
    expect(added.status).toBe(201);
    expect(added.body).toEqual({
      user_id: user.user_id,
      id: expect.any(String),
      value,
      type: 'email',
      used_for_auth: false,
      is_verified: false,
      is_primary: false,
    });
    expect((await channelsOf(user)).map((channel) => channel.value)).toEqual([user.email, value]);

    const changed = await patch('me', added.body.id, { used_for_auth: true }, client(user));
    expect(changed.body).toMatchObject({ id: added.body.id, used_for_auth: true, is_primary: false });

    expect((await remove('me', added.body.id, client(user))).body).toEqual({ success: true });
    expect((await channelsOf(user)).map((channel) => channel.value)).toEqual([user.email]);
    expect(await me(user)).toMatchObject({ primary_email: user.email });
  });

  it('switches the primary: exactly one at a time, and the user shows it', async () => {
    const { user, value, channel } = await withSecondary(true);
    const [first] = await channelsOf(user);
    // Only a verified address may become the primary (pre-claimed-address.test.ts has the refusals).
    await patch(user.user_id, channel.id, { is_verified: true }, server());

    const promoted = await patch('me', channel.id, { is_primary: true }, client(user));
    expect(promoted.body).toMatchObject({ value, is_primary: true });
    expect((await channelsOf(user)).map((c) => [c.value, c.is_primary])).toEqual([
      [value, true],
      [user.email, false],
    ]);
    expect(await me(user)).toMatchObject({
      primary_email: value,
      primary_email_verified: true,
      auth_with_email: true,
    });

    // A new channel created primary (by server code: it is unverified) demotes the current one too.
    const third = newEmail('third');
    const created = await create(
      { user_id: user.user_id, value: third, type: 'email', used_for_auth: false, is_primary: true },
      server(),
    );
    expect(created.body.is_primary).toBe(true);
    const channels = await channelsOf(user);
    expect(channels.filter((c) => c.is_primary).map((c) => c.value)).toEqual([third]);
    // The user still signs in with an e-mail and a password, whichever address is primary.
    expect(await me(user)).toMatchObject({ primary_email: third, auth_with_email: true });

    // Removing the primary leaves the user without one; nothing is promoted behind their back.
    expect((await remove('me', created.body.id, client(user))).status).toBe(200);
    expect((await channelsOf(user)).some((c) => c.is_primary)).toBe(false);
    expect(await me(user)).toMatchObject({
      primary_email: null,
      primary_email_verified: false,
      auth_with_email: true,
    });
    // Making the first address primary again restores it (server code: the client may not, it is unverified).
    expectKnownError(await patch('me', first!.id, { is_primary: true }, client(user)), 'SCHEMA_ERROR', 400);
    await patch(user.user_id, first!.id, { is_primary: true }, server());
    expect(await me(user)).toMatchObject({ primary_email: user.email, auth_with_email: true });
  });

  it('a changed address is unverified again', async () => {
    const { user, channel } = await withSecondary();
    await patch(user.user_id, channel.id, { is_verified: true }, authHeaders(service, 'server'));
    const renamed = newEmail('renamed');
    const changed = await patch('me', channel.id, { value: renamed }, client(user));
    expect(changed.body).toMatchObject({ value: renamed, is_verified: false });
  });

  it('refuses what a client may not do, changing nothing', async () => {
    const { user, channel } = await withSecondary();
    const stranger = await signUp(service);
    const [strangerChannel] = await channelsOf(stranger);
    // Another user, by id: only server access may.
    await refusedPlain(() => list(stranger.user_id, client(user)), 403, ownOnly('list'));
    await refusedPlain(
      () => create({ user_id: stranger.user_id, value: newEmail(), type: 'email', used_for_auth: false }, client(user)),
      403,
      ownOnly('create'),
    );
    await refusedPlain(
      () => patch(stranger.user_id, strangerChannel!.id, { is_primary: true }, client(user)),
      403,
      ownOnly('update'),
    );
    await refusedPlain(() => remove(stranger.user_id, strangerChannel!.id, client(user)), 403, ownOnly('delete'));
    // Another user's channel under `me`: not found.
    await refusedPlain(() => patch('me', strangerChannel!.id, { is_primary: true }, client(user)), 400, notFound);
    await refusedPlain(() => remove('me', strangerChannel!.id, client(user)), 400, notFound);
    // A client cannot verify an address by saying so.
    await refused(
      () =>
        create(
          { user_id: 'me', value: newEmail(), type: 'email', used_for_auth: false, is_verified: true },
          client(user),
        ),
      'SCHEMA_ERROR',
      400,
    );
    await refused(() => patch('me', channel.id, { is_verified: true }, client(user)), 'SCHEMA_ERROR', 400);
    // Without a signed-in user, `me` is nobody.
    await refused(() => list('me', authHeaders(service)), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    await refused(
      () => create({ user_id: 'me', value: newEmail(), type: 'email', used_for_auth: false }, authHeaders(service)),
      'CANNOT_GET_OWN_USER_WITHOUT_USER',
      400,
    );
    // Naming a user by id, signed out, is the same: there is no own user to compare with.
    await refused(() => list(stranger.user_id, authHeaders(service)), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    await refused(
      () => remove(stranger.user_id, strangerChannel!.id, authHeaders(service)),
      'CANNOT_GET_OWN_USER_WITHOUT_USER',
      400,
    );
  });

  it('refuses malformed input with known errors, changing nothing', async () => {
    const { user, channel } = await withSecondary();
    const base = { user_id: 'me', value: newEmail(), type: 'email', used_for_auth: false };
    for (const body of [
      { ...base, value: 'not an e-mail' },
      { ...base, type: 'phone' },
      { ...base, used_for_auth: 'yes' },
      { ...base, extra: 1 },
      { value: base.value, type: 'email' },
    ]) {
      await refused(() => create(body, client(user)), 'SCHEMA_ERROR', 400);
    }
    await refused(() => patch('me', channel.id, { value: '' }, client(user)), 'SCHEMA_ERROR', 400);
    await refusedPlain(() => patch('me', 'not-a-uuid', { is_primary: true }, client(user)), 400, notFound);
    await refusedPlain(() => remove('me', '00000000-0000-4000-8000-000000000000', client(user)), 400, notFound);
    await refused(() => remove('me', 'x'.repeat(101), client(user)), 'SCHEMA_ERROR', 400);
    await refused(() => list('x'.repeat(101), server()), 'SCHEMA_ERROR', 400);
    await refused(() => call(service, 'GET', '/contact-channels', { headers: client(user) }), 'SCHEMA_ERROR', 400);
  });
});

describe('contact channels as server code', () => {
  it('lists, creates verified, changes and removes any user’s channels', async () => {
    const user = await signUp(service);
    const listed = await list(user.user_id, server());
    expect(listed.body.items).toHaveLength(1);

    const value = newEmail('work');
    const created = await create(
      { user_id: user.user_id, value, type: 'email', used_for_auth: true, is_verified: true, is_primary: true },
      server(),
    );
    expect(created.status, created.text).toBe(201);
    expect(created.body).toMatchObject({ user_id: user.user_id, value, is_verified: true, is_primary: true });
    expect(await me(user)).toMatchObject({ primary_email: value, primary_email_verified: true });

    // A new address set together with is_verified stays verified.
    const moved = newEmail('moved');
    const changed = await patch(user.user_id, created.body.id, { value: moved, is_verified: true }, server());
    expect(changed.body).toMatchObject({ value: moved, is_verified: true });
    expect(await me(user)).toMatchObject({ primary_email: moved, primary_email_verified: true });
    const unverified = await patch(user.user_id, created.body.id, { is_verified: false }, server());
    expect(unverified.body.is_verified).toBe(false);
    expect(await me(user)).toMatchObject({ primary_email_verified: false });

    expect((await remove(user.user_id, created.body.id, server())).status).toBe(200);
    expect(await me(user)).toMatchObject({ primary_email: null });
  });

  it('answers the user and channel errors', async () => {
    const user = await signUp(service);
    const [channel] = await channelsOf(user);
    const stranger = await signUp(service);
    const unknown = '00000000-0000-4000-8000-000000000000';
    await refused(() => list(unknown, server()), 'USER_NOT_FOUND', 404);
    await refused(() => list('not-a-uuid', server()), 'USER_NOT_FOUND', 404);
    await refused(() => list('me', server()), 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    await refused(
      () => create({ user_id: unknown, value: newEmail(), type: 'email', used_for_auth: false }, server()),
      'USER_NOT_FOUND',
      404,
    );
    // The channel of one user named under another.
    await refusedPlain(() => remove(stranger.user_id, channel!.id, server()), 400, notFound);
    // Another project's server key sees neither the user nor the channel.
    const otherServer = {
      ...server(),
      [h.projectId]: other.projectId,
      [h.publishableClientKey]: other.keys.publishableClientKey,
      [h.secretServerKey]: other.keys.secretServerKey,
    };
    await refused(() => list(user.user_id, otherServer), 'USER_NOT_FOUND', 404);
    await refused(() => patch(user.user_id, channel!.id, { is_primary: false }, otherServer), 'USER_NOT_FOUND', 404);
    await refused(() => remove(user.user_id, channel!.id, otherServer), 'USER_NOT_FOUND', 404);
  });

  it('lets the last sign-in address of a user without a password go; their session stays', async () => {
    const email = newEmail('nopass');
    const created = await create({ user_id: 'me', value: email, type: 'email', used_for_auth: true }, server());
    expectKnownError(created, 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
    const made = await call(service, 'POST', '/users', {
      headers: server(),
      json: { primary_email: email, primary_email_auth_enabled: true, otp_auth_enabled: true },
    });
    expect(made.status, made.text).toBe(201);
    const session = await call(service, 'POST', '/auth/sessions', {
      headers: server(),
      json: { user_id: made.body.id },
    });
    const tokens = session.body as Tokens;
    const [only] = await channelsOf(tokens);
    expect(await me(tokens)).toMatchObject({ auth_with_email: true, has_password: false });
    expect((await remove('me', only!.id, client(tokens))).body).toEqual({ success: true });
    // Their codes stay enabled (as the original backend): a new sign-in address would work with them again.
    expect(await me(tokens)).toMatchObject({ primary_email: null, auth_with_email: true, otp_auth_enabled: true });
    expect(await channelsOf(tokens)).toEqual([]);
  });
});

describe('uniqueness of addresses', () => {
  it('an address another user signs in with cannot be used for sign-in again', async () => {
    const owner = await signUp(service);
    const user = await signUp(service);
    const taken = owner.email.toUpperCase();
    const answer = await refused(
      () => create({ user_id: 'me', value: taken, type: 'email', used_for_auth: true }, client(user)),
      'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE',
      409,
    );
    expect(answer.body.details).toEqual({ type: 'email' });
    await refused(
      () => create({ user_id: user.user_id, value: taken, type: 'email', used_for_auth: true }, server()),
      'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE',
      409,
    );

    // A sign-in channel cannot be renamed into it either.
    const secondary = await create(
      { user_id: user.user_id, value: newEmail('secondary'), type: 'email', used_for_auth: true, is_verified: true },
      server(),
    );
    await refused(
      () => patch('me', secondary.body.id, { value: owner.email }, client(user)),
      'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE',
      409,
    );
    // As a plain contact address it is fine, but it cannot be switched to sign-in.
    const contact = await create({ user_id: 'me', value: taken, type: 'email', used_for_auth: false }, client(user));
    expect(contact.status).toBe(201);
    await refused(
      () => patch('me', contact.body.id, { used_for_auth: true }, client(user)),
      'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE',
      409,
    );
    // The owner still signs in with it, the other user does not.
    expect((await signIn(owner.email)).body.user_id).toBe(owner.user_id);
  });

  it('the same address twice on one user: a plain 400 when added, USER_EMAIL_ALREADY_EXISTS when changed to', async () => {
    const { user, value, channel } = await withSecondary();
    await refusedPlain(
      () => create({ user_id: 'me', value: value.toUpperCase(), type: 'email', used_for_auth: false }, client(user)),
      400,
      'Contact channel already exists',
    );
    await refusedPlain(
      () => create({ user_id: 'me', value: user.email, type: 'email', used_for_auth: true }, client(user)),
      400,
      'Contact channel already exists',
    );
    await refused(() => patch('me', channel.id, { value: user.email }, client(user)), 'USER_EMAIL_ALREADY_EXISTS', 409);
    // The same address with another case is the same channel: allowed, and still verified.
    await patch(user.user_id, channel.id, { is_verified: true }, server());
    const recased = await patch('me', channel.id, { value: value.toUpperCase() }, client(user));
    expect(recased.body).toMatchObject({ value: value.toUpperCase(), is_verified: true });
  });
});

describe('signing in with contact channels', () => {
  it('a secondary sign-in address signs in with the password once verified, until it is turned off', async () => {
    const { user, value, channel } = await withSecondary(true);
    expectKnownError(await signIn(value), 'EMAIL_PASSWORD_MISMATCH', 400);
    await patch(user.user_id, channel.id, { is_verified: true }, server());
    expect((await signIn(value)).body.user_id).toBe(user.user_id);
    await patch('me', channel.id, { used_for_auth: false }, client(user));
    expectKnownError(await signIn(value), 'EMAIL_PASSWORD_MISMATCH', 400);
    expect((await signIn(user.email)).body.user_id).toBe(user.user_id);
  });
});

describe('e-mail verification', () => {
  it('sign-up with a callback mails a link; the code verifies the primary e-mail', async () => {
    const email = newEmail('signup');
    const signedUp = await call(service, 'POST', '/auth/password/sign-up', {
      headers: authHeaders(service),
      json: { email, password: goodPassword, verification_callback_url: callback },
    });
    expect(signedUp.status, signedUp.text).toBe(200);
    const mail = await lastMailTo(service, email);
    expect(mail.kind).toBe('email_verification');
    expect(mail.text).toContain(`${callback}?code=`);
    const code = codeFromMail(mail);
    expect(await me(signedUp.body)).toMatchObject({ primary_email_verified: false });

    expect((await checkCode(code)).body).toEqual({ is_code_valid: true });
    expect((await verify(code.toUpperCase())).body).toEqual({ success: true });
    expect(await me(signedUp.body)).toMatchObject({ primary_email: email, primary_email_verified: true });
    expect((await channelsOf(signedUp.body))[0]).toMatchObject({ is_verified: true });

    await refused(() => verify(code), 'VERIFICATION_CODE_ALREADY_USED', 409);
    await refused(() => checkCode(code), 'VERIFICATION_CODE_ALREADY_USED', 409);
    // Verified: no new mail from either send route.
    await refused(() => sendPrimaryCode(email, client(signedUp.body)), 'EMAIL_ALREADY_VERIFIED', 409);
  });

  it('sign-up without a callback mails nothing; with an untrusted one it is refused and nobody is created', async () => {
    const email = newEmail('quiet');
    await signUp(service, email);
    expect(await mailsTo(service, email)).toEqual([]);
    const refusedEmail = newEmail('refused');
    await refused(
      () =>
        call(service, 'POST', '/auth/password/sign-up', {
          headers: authHeaders(service),
          json: { email: refusedEmail, password: goodPassword, verification_callback_url: untrusted },
        }),
      'REDIRECT_URL_NOT_WHITELISTED',
      400,
    );
    expect(await mailsTo(service, refusedEmail)).toEqual([]);
  });

  it('a secondary address is verified by its own code; the primary is not', async () => {
    const { user, value, channel } = await withSecondary();
    expect((await sendChannelCode('me', channel.id, client(user))).body).toEqual({ success: true });
    const mail = await lastMailTo(service, value);
    expect(mail.kind).toBe('email_verification');
    expect(await mailsTo(service, user.email)).toEqual([]);
    expect((await verify(codeFromMail(mail))).body).toEqual({ success: true });
    const channels = await channelsOf(user);
    expect(channels.map((c) => [c.value, c.is_verified])).toEqual([
      [user.email, false],
      [value, true],
    ]);
    expect(await me(user)).toMatchObject({ primary_email_verified: false });
    await refused(() => sendChannelCode('me', channel.id, client(user)), 'EMAIL_ALREADY_VERIFIED', 409);
    await refusedPlain(
      () => sendChannelCode('me', '00000000-0000-4000-8000-000000000000', client(user)),
      404,
      'Contact channel not found',
    );
    // A client mails codes for its own channels only, as the original backend answers: signed out, a known
    // error; signed in as someone else, a plain 400.
    const [primary] = channels;
    await refused(
      () => sendChannelCode(user.user_id, primary!.id, authHeaders(service)),
      'CANNOT_GET_OWN_USER_WITHOUT_USER',
      400,
    );
    const stranger = await signUp(service);
    await refusedPlain(
      () => sendChannelCode(user.user_id, primary!.id, client(stranger)),
      400,
      'Can only send verification code for your own user',
    );
    // Server code sends for any user's channel.
    expect((await sendChannelCode(user.user_id, primary!.id, server())).status).toBe(200);
    expect(await mailsTo(service, user.email)).toHaveLength(1);
  });

  it('the primary route mails the primary e-mail only', async () => {
    const { user, value, channel } = await withSecondary();
    const wrong = await refused(() => sendPrimaryCode(value, client(user)), 'EMAIL_IS_NOT_PRIMARY_EMAIL', 400);
    expect(wrong.body.details).toEqual({ email: value, primary_email: user.email });
    await refused(() => sendPrimaryCode(user.email, client(user), untrusted), 'REDIRECT_URL_NOT_WHITELISTED', 400);
    // Signed out: the deprecated route validates the signed-in user with the request, as the original backend.
    await refused(() => sendPrimaryCode(user.email, authHeaders(service)), 'SCHEMA_ERROR', 400);
    expect((await sendPrimaryCode(user.email.toUpperCase(), client(user))).body).toEqual({ success: true });
    await verify(codeFromMail(await lastMailTo(service, user.email)));
    expect(await me(user)).toMatchObject({ primary_email_verified: true });

    // Without a primary e-mail there is nothing to send to.
    const [primary] = await channelsOf(user);
    await remove('me', primary!.id, client(user));
    const none = await refused(() => sendPrimaryCode(user.email, client(user)), 'EMAIL_IS_NOT_PRIMARY_EMAIL', 400);
    expect(none.body.details).toEqual({ email: user.email, primary_email: null });
    expect(channel.id).toBeTruthy();
  });

  it('an untrusted callback is refused and nothing is queued', async () => {
    const { user, channel } = await withSecondary();
    await refused(
      () => sendChannelCode('me', channel.id, client(user), untrusted),
      'REDIRECT_URL_NOT_WHITELISTED',
      400,
    );
    await refused(
      () => sendChannelCode('me', channel.id, client(user), 'javascript:alert(1)'),
      'REDIRECT_URL_NOT_WHITELISTED',
      400,
    );
  });

  it('refuses expired, other-purpose, other-project, stale and malformed codes, changing nothing', async () => {
    const { user, value, channel } = await withSecondary();
    await sendChannelCode('me', channel.id, client(user));
    const code = codeFromMail(await lastMailTo(service, value));

    // A code of another purpose for the same channel.
    const db = dbOf(service.storage);
    const data = { user_id: user.user_id, channel_id: channel.id, email: value };
    const reset = await issueCode(db, {
      projectId: service.projectId,
      purpose: 'password_reset',
      data,
      now: service.clock.now(),
    });
    await refused(() => verify(reset.code), 'VERIFICATION_CODE_NOT_FOUND', 404);
    // The same data, issued in another project.
    const foreign = await issueCode(db, {
      projectId: other.projectId,
      purpose: 'email_verification',
      data,
      now: service.clock.now(),
    });
    await refused(() => verify(foreign.code), 'VERIFICATION_CODE_NOT_FOUND', 404);
    // Not codes at all.
    for (const bad of ['', 'short', 'a'.repeat(46), 42, null]) {
      await refused(() => verify(bad), 'SCHEMA_ERROR', 400);
    }
    // Of the right length, an unknown code is not found whatever its characters.
    for (const unknown of ['u'.repeat(45), 'invalid-attempt-code-123123123123123123123123']) {
      await refused(() => verify(unknown), 'VERIFICATION_CODE_NOT_FOUND', 404);
    }

    // Once the address changes, the code mailed to the old one verifies nothing.
    const renamed = newEmail('renamed');
    await patch('me', channel.id, { value: renamed }, client(user));
    await refused(() => checkCode(code), 'VERIFICATION_CODE_NOT_FOUND', 404);
    await refused(() => verify(code), 'VERIFICATION_CODE_NOT_FOUND', 404);
    await patch('me', channel.id, { value }, client(user));

    // Back on the mailed address it works again until it expires.
    expect((await checkCode(code)).body).toEqual({ is_code_valid: true });
    service.clock.advance(codeLifetimeMs.email_verification + 1000);
    await refused(() => verify(code), 'VERIFICATION_CODE_EXPIRED', 400);
    // (The user's access token has expired too: read as server code.)
    const channels = (await list(user.user_id, server())).body.items as Array<{ id: string; is_verified: boolean }>;
    expect(channels.find((c) => c.id === channel.id)?.is_verified).toBe(false);
  });

  it('a brute-forced code dies after five wrong guesses of its typed part', async () => {
    const { user, value, channel } = await withSecondary();
    await sendChannelCode('me', channel.id, client(user));
    const code = codeFromMail(await lastMailTo(service, value));
    const guesses = ['0', '1', '2', '3', '4'].filter((first) => first !== code[0]).slice(0, 4);
    for (const first of guesses)
      expectKnownError(await verify(first + code.slice(1)), 'VERIFICATION_CODE_NOT_FOUND', 404);
    const fifth = ['5', '6'].find((first) => first !== code[0])!;
    expectKnownError(await checkCode(fifth + code.slice(1)), 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED', 400);
    await refused(() => verify(code), 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED', 400);
    expect((await channelsOf(user)).find((c) => c.id === channel.id)?.is_verified).toBe(false);
  });

  it('a code of a deleted channel verifies nothing', async () => {
    const { user, value, channel } = await withSecondary();
    await sendChannelCode('me', channel.id, client(user));
    const code = codeFromMail(await lastMailTo(service, value));
    await remove('me', channel.id, client(user));
    await refused(() => verify(code), 'VERIFICATION_CODE_NOT_FOUND', 404);
  });

  it('an older code still works after the address was verified by a newer one', async () => {
    const { user, value, channel } = await withSecondary();
    await sendChannelCode('me', channel.id, client(user));
    await sendChannelCode('me', channel.id, client(user));
    const [first, second] = (await mailsTo(service, value)).map(codeFromMail);
    expect((await verify(second!)).status).toBe(200);
    expect((await verify(first!)).body).toEqual({ success: true });
    await refused(() => verify(first!), 'VERIFICATION_CODE_ALREADY_USED', 409);
  });

  it('limits verification mails per address', async () => {
    const { user, value, channel } = await withSecondary();
    let answer: Answer | undefined;
    for (let sent = 0; sent < 6; sent += 1) answer = await sendChannelCode('me', channel.id, client(user));
    expect(answer!.headers.get(h.actualStatus)).toBe('429');
    expect(Number(answer!.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await mailsTo(service, value)).toHaveLength(5);
  });
});

describe('concurrent changes', () => {
  it('several channels made primary at once: every request answers, and one primary remains, mirrored', async () => {
    const user = await signUp(service);
    const ids: string[] = [(await channelsOf(user))[0]!.id];
    for (let i = 0; i < 4; i += 1) {
      const added = await create(
        { user_id: user.user_id, value: newEmail('race'), type: 'email', used_for_auth: false, is_verified: true },
        server(),
      );
      ids.push(added.body.id);
    }
    const answers = await Promise.all(ids.map((id) => patch('me', id, { is_primary: true }, client(user))));
    expect(answers.map((answer) => answer.headers.get(h.actualStatus) ?? String(answer.status))).toEqual(
      ids.map(() => '200'),
    );
    const primaries = (await channelsOf(user)).filter((channel) => channel.is_primary);
    expect(primaries).toHaveLength(1);
    expect((await me(user)).primary_email).toBe(primaries[0]!.value);
  });

  it('one address claimed for sign-in by two users at once: one wins, the other is told why', async () => {
    const [first, second] = [await signUp(service), await signUp(service)];
    const value = newEmail('contested');
    // Server code (a client's address signs in only once verified: the verification decides there).
    const answers = await Promise.all(
      [first, second].map((user) =>
        create({ user_id: user.user_id, value, type: 'email', used_for_auth: true }, server()),
      ),
    );
    const outcomes = answers.map((answer) => answer.headers.get(h.knownError) ?? String(answer.status)).sort();
    expect(outcomes).toEqual(['201', 'CONTACT_CHANNEL_ALREADY_USED_FOR_AUTH_BY_SOMEONE_ELSE']);
  });
});
