/**
 * Magic-link sign-in over HTTP: the mail (link and typed code), sign-in by
 * link and by OTP + nonce for existing and new users, who a code may sign in
 * (an unproven sign-in address and a closed sign-up refused, at the send call
 * and at sign-in), every refused code (changing nothing), callbacks and the
 * send limits.
 */
import { headers as h } from '@latchkey/protocol';
import { describe, expect, it } from 'vitest';
import { issueCode } from '../codes/codes.js';
import { dbOf } from '../storage/open-storage.js';
import {
  type Answer,
  authHeaders,
  call,
  countRows,
  expectKnownError,
  expectStatusRefusal,
  newEmail,
  refreshGrant,
  signUp,
  snapshot,
  userHeaders,
} from '../test-support/api.js';
import { otherProjectForSuite, testServiceForSuite } from '../test-support/backends.js';
import { codeFromMail, lastMailTo, mailsTo } from '../test-support/mail.js';

// Every test starts in fresh rate-limit windows (the limits have tests of their own).
const service = testServiceForSuite({ projectConfig: { magic_link_enabled: true }, freshWindows: true });
const other = otherProjectForSuite(service, { magic_link_enabled: true });

const callback = 'http://localhost:3000/handler/magic-link-callback';
const post = (path: string, json: unknown, headers = authHeaders(service)) =>
  call(service, 'POST', path, { headers, json });
const sendCode = (email: string, callbackUrl = callback, headers = authHeaders(service)) =>
  post('/auth/otp/send-sign-in-code', { email, callback_url: callbackUrl }, headers);
const signInWith = (code: unknown, headers = authHeaders(service)) => post('/auth/otp/sign-in', { code }, headers);

/** Sends a code to `email`; returns the nonce, the whole code from the link, and the OTP the mail shows. */
async function mailedCode(email: string) {
  const sent = await sendCode(email);
  expect(sent.status, sent.text).toBe(200);
  const mail = await lastMailTo(service, email);
  const code = codeFromMail(mail);
  const otp = code.slice(0, 6).toUpperCase();
  return { nonce: sent.body.nonce as string, code, otp, mail };
}

async function me(tokens: { access_token: string }) {
  return (await call(service, 'GET', '/users/me', { headers: userHeaders(service, tokens) })).body;
}

/** A user created by server code with a verified sign-in address and no codes enabled (`otp_auth_enabled` false). */
async function verifiedUser(email = newEmail('verified')) {
  const made = await call(service, 'POST', '/users', {
    headers: authHeaders(service, 'server'),
    json: { primary_email: email, primary_email_verified: true, primary_email_auth_enabled: true },
  });
  expect(made.status, made.text).toBe(201);
  expect(made.body).toMatchObject({ otp_auth_enabled: false, auth_with_email: false });
  return { user_id: made.body.id as string, email };
}

/** The same code with its first (typed) character changed. */
function wrongOtp(code: string): string {
  return (code[0] === '0' ? '1' : '0') + code.slice(1);
}

describe('POST /auth/otp/send-sign-in-code', () => {
  it('mails the link and the six-character code, and answers the other 39 characters', async () => {
    const email = newEmail('magic');
    const { nonce, code, otp, mail } = await mailedCode(email);
    expect(nonce).toMatch(/^[0-9a-hjkmnp-tv-z]{39}$/);
    expect(code.slice(6)).toBe(nonce);
    expect(mail.kind).toBe('magic_link');
    expect(mail.text).toContain(`${callback}?code=${code}`);
    expect(mail.text).toContain(otp);
  });

  it('mails a code to a verified sign-in address and to an address nobody signs in with', async () => {
    const user = await verifiedUser();
    const unknownEmail = newEmail('new');
    expect((await sendCode(user.email)).status).toBe(200);
    expect((await sendCode(unknownEmail)).status).toBe(200);
    expect(await mailsTo(service, user.email)).toHaveLength(1);
    expect(await mailsTo(service, unknownEmail)).toHaveLength(1);
  });

  it('refuses an address a user signs in with unverified with USER_EMAIL_ALREADY_EXISTS, mailing nothing', async () => {
    // A password sign-up not verified yet: nobody proved the address, so no code may enter or duplicate the account.
    const user = await signUp(service);
    const before = await snapshot(service);
    expectKnownError(await sendCode(user.email.toUpperCase()), 'USER_EMAIL_ALREADY_EXISTS', 409);
    expect(await snapshot(service)).toEqual(before);
    expect(await mailsTo(service, user.email)).toEqual([]);
  });

  it('refuses again once server code marks the address of a code user unverified', async () => {
    const { code } = await mailedCode(newEmail('unverified'));
    const signedIn = await signInWith(code);
    const headers = authHeaders(service, 'server');
    const channels = await call(service, 'GET', `/contact-channels?user_id=${signedIn.body.user_id}`, { headers });
    const [channel] = channels.body.items;
    await call(service, 'PATCH', `/contact-channels/${signedIn.body.user_id}/${channel.id}`, {
      headers,
      json: { is_verified: false },
    });
    expectKnownError(await sendCode(channel.value), 'USER_EMAIL_ALREADY_EXISTS', 409);
  });

  it('refuses an address nobody signs in with while sign-up is disabled, mailing nothing', async () => {
    const email = newEmail('closed');
    const user = await verifiedUser();
    await service.setProjectConfig({ sign_up_enabled: false });
    try {
      const before = await snapshot(service);
      expectKnownError(await sendCode(email), 'SIGN_UP_NOT_ENABLED', 400);
      expect(await snapshot(service)).toEqual(before);
      expect(await mailsTo(service, email)).toEqual([]);
      // An existing user still gets their code.
      expect((await sendCode(user.email)).status).toBe(200);
    } finally {
      await service.setProjectConfig({ sign_up_enabled: true });
    }
  });

  it.each([
    ['a foreign domain', 'https://evil.example.com/handler/magic-link-callback'],
    ['a look-alike of localhost', 'http://localhost.evil.example.com/cb'],
    ['a javascript: URL', 'javascript:alert(1)'],
  ])('refuses a callback on %s and queues nothing', async (_name, url) => {
    const email = newEmail();
    const before = await snapshot(service);
    expectKnownError(await sendCode(email, url), 'REDIRECT_URL_NOT_WHITELISTED', 400);
    expect(await snapshot(service)).toEqual(before);
  });

  it('refuses both calls while magic link is disabled', async () => {
    const email = newEmail();
    const { code } = await mailedCode(email);
    await service.setProjectConfig({ magic_link_enabled: false });
    try {
      const before = await snapshot(service);
      // A plain 403 with the original backend's text.
      expectStatusRefusal(await sendCode(email), 403, 'Magic link is not enabled for this project');
      expectStatusRefusal(await signInWith(code), 403, 'Magic link is not enabled for this project');
      expect(await snapshot(service)).toEqual(before);
    } finally {
      await service.setProjectConfig({ magic_link_enabled: true });
    }
    expect((await signInWith(code)).status).toBe(200);
  });

  it.each([
    ['no callback', { email: 'a@example.com' }],
    ['no e-mail', { callback_url: callback }],
    ['an invalid e-mail', { email: 'a b@example.com', callback_url: callback }],
    ['a callback that is not a URL', { email: 'a@example.com', callback_url: 'nope' }],
    ['an extra field', { email: 'a@example.com', callback_url: callback, nonce: 'x' }],
  ])('refuses %s with SCHEMA_ERROR', async (_name, body) => {
    const before = await snapshot(service);
    expectKnownError(await post('/auth/otp/send-sign-in-code', body), 'SCHEMA_ERROR', 400);
    expect(await snapshot(service)).toEqual(before);
  });
});

describe('POST /auth/otp/sign-in', () => {
  it('signs an existing user in by the typed code plus nonce, enabling their codes', async () => {
    const user = await verifiedUser();
    const { nonce, otp } = await mailedCode(user.email);
    const users = await countRows(service, 'users');
    const answer = await signInWith(`${otp.toLowerCase()}${nonce.toUpperCase()}`);
    expect(answer.status, answer.text).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(['access_token', 'is_new_user', 'refresh_token', 'user_id']);
    expect(answer.body).toMatchObject({ user_id: user.user_id, is_new_user: false });
    expect(await countRows(service, 'users')).toBe(users);
    expect(await me(answer.body)).toMatchObject({
      id: user.user_id,
      primary_email_verified: true,
      otp_auth_enabled: true,
      auth_with_email: true,
    });
    expectKnownError(await signInWith(otp + nonce), 'VERIFICATION_CODE_ALREADY_USED', 409);
  });

  it('refuses a code for an address someone signed up with, unproven, after it was mailed; nothing changes', async () => {
    // Pre-hijacking: someone signs up with another person's address and a password while her code is on its way.
    const email = newEmail('late');
    const { code } = await mailedCode(email);
    const squatter = await signUp(service, email);
    const before = await snapshot(service);
    expectKnownError(await signInWith(code), 'USER_EMAIL_ALREADY_EXISTS', 409);
    expect(await snapshot(service)).toEqual(before);
    // The squatter's account is not handed over, and no second account takes the address.
    expect((await refreshGrant(service, squatter.refresh_token)).status).toBe(200);
    expect(await me(squatter)).toMatchObject({ primary_email_verified: false, otp_auth_enabled: false });
  });

  it('keeps the password and sessions of a user whose address was already verified', async () => {
    const user = await signUp(service);
    await call(service, 'PATCH', `/users/${user.user_id}`, {
      headers: authHeaders(service, 'server'),
      json: { primary_email_verified: true },
    });
    const { code } = await mailedCode(user.email);
    expect((await signInWith(code)).status).toBe(200);
    expect(await me(user)).toMatchObject({ has_password: true });
    const signIn = await post('/auth/password/sign-in', { email: user.email, password: user.password });
    expect(signIn.status).toBe(200);
  });

  it('creates a user for a new e-mail, by the link', async () => {
    const email = newEmail('Fresh');
    const { code } = await mailedCode(email);
    const answer = await signInWith(code);
    expect(answer.status, answer.text).toBe(200);
    expect(answer.body.is_new_user).toBe(true);
    const created = await call(service, 'GET', `/users/${answer.body.user_id}`, {
      headers: authHeaders(service, 'server'),
    });
    expect(created.body).toMatchObject({
      id: answer.body.user_id,
      primary_email: email,
      primary_email_verified: true,
      primary_email_auth_enabled: true,
      otp_auth_enabled: true,
      has_password: false,
    });
    expect((await me(answer.body)).id).toBe(answer.body.user_id);
    // Next time the same address signs the same user in.
    const again = await mailedCode(email);
    expect((await signInWith(again.code)).body).toMatchObject({ user_id: answer.body.user_id, is_new_user: false });
  });

  it('signs in whoever signs in with the address now, when it was verified after the code was sent', async () => {
    const email = newEmail('late');
    const { code } = await mailedCode(email);
    const user = await verifiedUser(email);
    expect((await signInWith(code)).body).toMatchObject({ user_id: user.user_id, is_new_user: false });
  });

  it('refuses a new e-mail with SIGN_UP_NOT_ENABLED when sign-up was disabled after the code was sent, and leaves the code usable', async () => {
    const email = newEmail('closed');
    const { code } = await mailedCode(email);
    const user = await verifiedUser(newEmail('open'));
    const theirs = await mailedCode(user.email);
    await service.setProjectConfig({ sign_up_enabled: false });
    try {
      const before = await snapshot(service);
      expectKnownError(await signInWith(code), 'SIGN_UP_NOT_ENABLED', 400);
      expect(await snapshot(service)).toEqual(before);
      // An existing user still signs in.
      expect((await signInWith(theirs.code)).body.user_id).toBe(user.user_id);
    } finally {
      await service.setProjectConfig({ sign_up_enabled: true });
    }
    expect((await signInWith(code)).body.is_new_user).toBe(true);
  });
});

describe('one code used concurrently', () => {
  it('signs in once and creates one user; the other uses get VERIFICATION_CODE_ALREADY_USED', async () => {
    const email = newEmail('race');
    const { code } = await mailedCode(email);
    const users = await countRows(service, 'users');
    const answers = await Promise.all(Array.from({ length: 4 }, () => signInWith(code)));
    const won = answers.filter((answer) => answer.body.access_token);
    expect(won).toHaveLength(1);
    expect(won[0]!.body.is_new_user).toBe(true);
    for (const answer of answers.filter((a) => !won.includes(a))) {
      expectKnownError(answer, 'VERIFICATION_CODE_ALREADY_USED', 409);
    }
    expect(await countRows(service, 'users')).toBe(users + 1);
  });
});

describe('refused codes on sign-in', () => {
  async function expectRefused(code: unknown, error: Parameters<typeof expectKnownError>[1], status: number) {
    const before = await snapshot(service);
    expectKnownError(await signInWith(code), error, status);
    expect(await snapshot(service)).toEqual(before);
  }

  it.each([
    ['empty', ''],
    ['only the six typed characters', 'ABC123'],
    ['only the nonce', 'a'.repeat(39)],
    ['46 characters', 'a'.repeat(46)],
    ['a number', 123456],
  ])('refuses a code that is %s with SCHEMA_ERROR', async (_name, code) => {
    await expectRefused(code, 'SCHEMA_ERROR', 400);
  });

  it.each([
    ['of the alphabet', 'z'.repeat(45)],
    ['with letters outside Crockford base32 (i, l, o, u)', `ilou${'a'.repeat(41)}`],
    ['with spaces inside', `ABC 12${'a'.repeat(39)}`],
    ['with punctuation', 'invalid-attempt-code-123123123123123123123123'],
  ])('refuses 45 characters %s that nobody issued with VERIFICATION_CODE_NOT_FOUND', async (_name, code) => {
    await expectRefused(code, 'VERIFICATION_CODE_NOT_FOUND', 404);
  });

  it("refuses another project's code", async () => {
    const email = newEmail('other');
    const otherHeaders = {
      ...authHeaders(service),
      [h.projectId]: other.projectId,
      [h.publishableClientKey]: other.keys.publishableClientKey,
    };
    expect((await sendCode(email, callback, otherHeaders)).status).toBe(200);
    const code = codeFromMail(await lastMailTo(service, email));
    await expectRefused(code, 'VERIFICATION_CODE_NOT_FOUND', 404);
    expect((await signInWith(code, otherHeaders)).body.is_new_user).toBe(true);
  });

  it("refuses a code of another purpose (a password reset's)", async () => {
    const user = await signUp(service);
    const reset = await issueCode(dbOf(service.storage), {
      projectId: service.projectId,
      purpose: 'password_reset',
      data: { email: user.email, user_id: user.user_id },
      now: service.clock.now(),
    });
    await expectRefused(reset.code, 'VERIFICATION_CODE_NOT_FOUND', 404);
  });

  it('refuses an expired code (after ten minutes)', async () => {
    const { code } = await mailedCode(newEmail());
    service.clock.advance(10 * 60_000 + 1000);
    await expectRefused(code, 'VERIFICATION_CODE_EXPIRED', 400);
  });

  it('refuses a used code', async () => {
    const { code } = await mailedCode(newEmail());
    expect((await signInWith(code)).status).toBe(200);
    await expectRefused(code, 'VERIFICATION_CODE_ALREADY_USED', 409);
  });

  it('refuses the right code after wrong typed codes with the right nonce', async () => {
    const email = newEmail('guessed');
    const { code, nonce } = await mailedCode(email);
    const before = await snapshot(service);
    const answers: Answer[] = [];
    for (let i = 0; i < 6; i++) answers.push(await signInWith(wrongOtp(code)));
    for (const answer of answers.slice(0, 4)) expectKnownError(answer, 'VERIFICATION_CODE_NOT_FOUND', 404);
    for (const answer of answers.slice(4)) expectKnownError(answer, 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED', 400);
    expect(code.slice(6)).toBe(nonce);
    await expectRefused(code, 'VERIFICATION_CODE_MAX_ATTEMPTS_REACHED', 400);
    expect(await snapshot(service)).toEqual(before);
    // A new code works.
    expect((await signInWith((await mailedCode(email)).code)).status).toBe(200);
  });
});

/** A 429 with Retry-After, as the SDK sees it (the override header turns the status into 200 + the real one). */
function expectRateLimited(answer: Answer): void {
  expect(answer.headers.get(h.actualStatus)).toBe('429');
  expect(answer.headers.get(h.knownError)).toBeNull();
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
}

describe('the send limits', () => {
  it('refuses the sixth code for one address in ten minutes, queuing nothing; other addresses still get theirs', async () => {
    const email = newEmail('flooded');
    for (let i = 0; i < 5; i++) expect((await sendCode(email)).status).toBe(200);
    const before = await snapshot(service);
    expectRateLimited(await sendCode(email.toUpperCase()));
    expect(await snapshot(service)).toEqual(before);
    expect(await mailsTo(service, email)).toHaveLength(5);
    const another = newEmail('other');
    expect((await sendCode(another)).body.nonce).toBeTypeOf('string');
    service.clock.startWindow(10 * 60_000);
    expect((await sendCode(email)).status).toBe(200);
  });

  it('refuses the 31st code mail from one client in ten minutes, whatever the addresses', async () => {
    for (let i = 0; i < 30; i++) expect((await sendCode(newEmail('many'))).status).toBe(200);
    const email = newEmail('last');
    expectRateLimited(await sendCode(email));
    expect(await mailsTo(service, email)).toEqual([]);
  });

  it('counts code sign-ins per client: the 121st in ten minutes is refused before the code is checked', async () => {
    const email = newEmail('checked');
    const { code } = await mailedCode(email);
    for (let i = 0; i < 120; i++)
      expectKnownError(await signInWith('z'.repeat(45)), 'VERIFICATION_CODE_NOT_FOUND', 404);
    const before = await snapshot(service);
    expectRateLimited(await signInWith(code));
    expect(await snapshot(service)).toEqual(before);
    service.clock.startWindow(10 * 60_000);
    expect((await signInWith((await mailedCode(email)).code)).status).toBe(200);
  });
});
