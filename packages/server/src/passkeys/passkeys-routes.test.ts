/**
 * Passkeys over HTTP, on every backend, with a software authenticator that
 * builds real WebAuthn objects (`testing/software-authenticator.ts`):
 * registration, listing, sign-in whose tokens work, rename and removal; and
 * every refusal (origin, RP id, tampered client data, used challenge, counter,
 * another user's or project's credential, passkeys off, malformed bodies)
 * answering its known error with nothing kept and no session opened.
 */
import { describe, expect, it } from 'vitest';
import { dbOf } from '../storage/open-storage.js';
import {
  type Answer,
  authHeaders,
  call,
  countRows,
  expectKnownError,
  newEmail,
  signUp,
  snapshot,
  userHeaders,
} from '../test-support/api.js';
import { auditEvents } from '../test-support/audit.js';
import { describeEachBackend, otherProjectForSuite, testServiceForSuite } from '../test-support/backends.js';
import { codeFromMail, lastMailTo } from '../test-support/mail.js';
import { mfaSignIn, newSecret, totpAt } from '../test-support/mfa.js';
import { type Page, SoftwareAuthenticator } from '../testing/software-authenticator.js';
import { placeholderRpId } from './webauthn.js';

type Tokens = { access_token: string; refresh_token: string; user_id: string };

const localhost: Page = { origin: 'http://localhost:3000' };
const appDomain = 'https://app.example.com';

describeEachBackend('passkeys', (backend) => {
  const service = testServiceForSuite({
    databaseUrl: backend.databaseUrl,
    projectConfig: {
      passkey_enabled: true,
      magic_link_enabled: true,
      domains: [{ domain: appDomain, handler_path: '/handler' }],
    },
  });
  const other = otherProjectForSuite(service, { passkey_enabled: true });

  const otherService = () => ({ ...service, projectId: other.projectId, keys: other.keys });
  const post = (path: string, json: unknown, headers: Record<string, string>, on = service) =>
    call(on, 'POST', path, { headers, json });

  async function ok(request: Promise<Answer>) {
    const answer = await request;
    expect(answer.status, answer.text).toBe(200);
    expect(answer.headers.get('x-stack-known-error'), answer.text).toBeNull();
    return answer.body;
  }

  const startRegistration = (user: Tokens, on = service) =>
    ok(post('/auth/passkey/initiate-passkey-registration', {}, userHeaders(on, user), on));

  /** Registers a new passkey of `authenticator` for `user` on `page`; the answer. */
  async function register(user: Tokens, authenticator: SoftwareAuthenticator, page = localhost, on = service) {
    const { options_json, code } = await startRegistration(user, on);
    const credential = authenticator.register(options_json, page);
    return post('/auth/passkey/register', { credential, code }, userHeaders(on, user), on);
  }

  const startSignIn = (on = service) =>
    ok(post('/auth/passkey/initiate-passkey-authentication', {}, authHeaders(on), on));

  async function signIn(authenticator: SoftwareAuthenticator, page = localhost, on = service) {
    const { options_json, code } = await startSignIn(on);
    const authentication_response = authenticator.authenticate(options_json, page);
    return post('/auth/passkey/sign-in', { authentication_response, code }, authHeaders(on), on);
  }

  const me = async (tokens: { access_token: string }) =>
    ok(call(service, 'GET', '/users/me', { headers: userHeaders(service, tokens) }));
  const listOwn = async (user: Tokens) =>
    (await ok(call(service, 'GET', '/users/me/passkeys', { headers: userHeaders(service, user) }))).items;

  /** What a refusal must leave alone: the snapshot, every passkey row, and the project's sessions. */
  async function state() {
    const passkeys = await dbOf(service.storage).selectFrom('passkeys').selectAll().orderBy('id').execute();
    const { codes: _codes, ...rest } = await snapshot(service);
    return { ...rest, passkeys };
  }

  /** A user with one passkey of a new authenticator. */
  async function userWithPasskey() {
    const user = await signUp(service);
    const authenticator = new SoftwareAuthenticator();
    await ok(register(user, authenticator));
    return { user, authenticator };
  }

  /** Base64url JSON, changed by `change`. */
  function rewrite(encoded: string, change: (value: Record<string, unknown>) => void): string {
    const value = JSON.parse(Buffer.from(encoded, 'base64url').toString('utf8'));
    change(value);
    return Buffer.from(JSON.stringify(value)).toString('base64url');
  }

  describe('registration', () => {
    it('offers a discoverable credential for the user, with the placeholder RP id and the user id as bytes', async () => {
      const user = await signUp(service);
      const { options_json, code } = await startRegistration(user);
      expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{45}$/);
      expect(options_json.rp.id).toBe(placeholderRpId);
      expect(Buffer.from(options_json.user.id, 'base64url').toString('utf8')).toBe(user.user_id);
      expect(options_json.user.name).toBe(user.email);
      expect(options_json.authenticatorSelection).toMatchObject({
        residentKey: 'required',
        userVerification: 'preferred',
      });
      expect(options_json.excludeCredentials).toEqual([]);
      expect(options_json.challenge).toMatch(/^[A-Za-z0-9_-]{20,}$/);
      expect(options_json.timeout).toBe(60_000);
      expect(options_json).not.toHaveProperty('hints');
    });

    it('is refused, both calls, while the project has passkeys off', async () => {
      const user = await signUp(service);
      const { options_json, code } = await startRegistration(user);
      await service.setProjectConfig({ passkey_enabled: false });
      try {
        const before = await state();
        expectKnownError(
          await post('/auth/passkey/initiate-passkey-registration', {}, userHeaders(service, user)),
          'PASSKEY_AUTHENTICATION_NOT_ENABLED',
          400,
        );
        const credential = new SoftwareAuthenticator().register(options_json, localhost);
        expectKnownError(
          await post('/auth/passkey/register', { credential, code }, userHeaders(service, user)),
          'PASSKEY_AUTHENTICATION_NOT_ENABLED',
          400,
        );
        expect(await state()).toEqual(before);
      } finally {
        await service.setProjectConfig({ passkey_enabled: true });
      }
    });

    it('keeps the passkey, turns passkey sign-in on for the user and excludes the passkey next time', async () => {
      const user = await signUp(service);
      expect((await me(user)).passkey_auth_enabled).toBe(false);
      const authenticator = new SoftwareAuthenticator();
      const answer = await ok(register(user, authenticator));
      expect(answer).toEqual({ user_handle: Buffer.from(user.user_id).toString('base64url') });
      expect((await me(user)).passkey_auth_enabled).toBe(true);
      const [passkey] = await listOwn(user);
      expect(passkey).toEqual({
        id: expect.any(String),
        name: 'Passkey',
        created_at_millis: expect.any(Number),
        last_used_at_millis: null,
      });
      const next = await startRegistration(user);
      expect(next.options_json.excludeCredentials.map((each: { id: string }) => each.id)).toEqual([
        authenticator.credentials[0]!.id,
      ]);
      const [added] = await auditEvents(service, { user_id: user.user_id, type: 'passkey.added' });
      expect(added?.data).toEqual({ passkey_id: passkey.id });
    });

    it('accepts a page on a trusted domain of the project, its hostname the RP id', async () => {
      const user = await signUp(service);
      await ok(register(user, new SoftwareAuthenticator(), { origin: appDomain }));
      expect(await listOwn(user)).toHaveLength(1);
    });

    it('refuses a response from an untrusted origin, another RP id, or with tampered client data: nothing kept', async () => {
      const user = await signUp(service);
      const before = await state();
      const attempts: [string, Page, ((credential: ReturnType<SoftwareAuthenticator['register']>) => void)?][] = [
        ['untrusted origin', { origin: 'https://evil.example' }],
        ['RP id of another site', { origin: 'http://localhost:3000', rpId: 'evil.example' }],
        ['RP id of another trusted site', { origin: appDomain, rpId: 'localhost' }],
        [
          'challenge changed',
          localhost,
          (credential) => {
            credential.response.clientDataJSON = rewrite(credential.response.clientDataJSON, (data) => {
              data.challenge = Buffer.from('another challenge').toString('base64url');
            });
          },
        ],
        [
          'type changed',
          localhost,
          (credential) => {
            credential.response.clientDataJSON = rewrite(credential.response.clientDataJSON, (data) => {
              data.type = 'webauthn.get';
            });
          },
        ],
      ];
      for (const [label, page, tamper] of attempts) {
        const { options_json, code } = await startRegistration(user);
        const credential = new SoftwareAuthenticator().register(options_json, page);
        tamper?.(credential);
        const answer = await post('/auth/passkey/register', { credential, code }, userHeaders(service, user));
        expectKnownError(answer, 'PASSKEY_REGISTRATION_FAILED', 400);
        expect(answer.body.details.message, label).toEqual(expect.any(String));
        // The challenge was answered: a good response with the same code is refused too.
        const good = new SoftwareAuthenticator().register(options_json, localhost);
        const again = await post('/auth/passkey/register', { credential: good, code }, userHeaders(service, user));
        expectKnownError(again, 'PASSKEY_REGISTRATION_FAILED', 400);
        expect(again.body.details.message).toMatch(/already answered/);
      }
      expect(await state()).toEqual(before);
      expect((await me(user)).passkey_auth_enabled).toBe(false);
    });

    it('refuses a used code, another user’s code and a code of another project', async () => {
      const user = await signUp(service);
      const { options_json, code } = await startRegistration(user);
      const authenticator = new SoftwareAuthenticator();
      const credential = authenticator.register(options_json, localhost);
      await ok(post('/auth/passkey/register', { credential, code }, userHeaders(service, user)));
      const reused = await post(
        '/auth/passkey/register',
        { credential: new SoftwareAuthenticator().register(options_json, localhost), code },
        userHeaders(service, user),
      );
      expectKnownError(reused, 'PASSKEY_REGISTRATION_FAILED', 400);

      const owner = await signUp(service);
      const stranger = await signUp(service);
      const elsewhere = await signUp(otherService());
      const started = await startRegistration(owner);
      const foreign = new SoftwareAuthenticator().register(started.options_json, localhost);
      const before = await state();
      const byStranger = await post(
        '/auth/passkey/register',
        { credential: foreign, code: started.code },
        userHeaders(service, stranger),
      );
      expectKnownError(byStranger, 'PASSKEY_REGISTRATION_FAILED', 400);
      const inOther = await post(
        '/auth/passkey/register',
        { credential: foreign, code: started.code },
        userHeaders(otherService(), elsewhere),
        otherService(),
      );
      expectKnownError(inOther, 'PASSKEY_REGISTRATION_FAILED', 400);
      expect(await state()).toEqual(before);
      // The owner's ceremony was left alone.
      await ok(
        post('/auth/passkey/register', { credential: foreign, code: started.code }, userHeaders(service, owner)),
      );
    });

    it('refuses a credential registered already, and a response whose id is not its credential’s', async () => {
      const { user, authenticator } = await userWithPasskey();
      const held = authenticator.credentials[0]!;
      const before = await state();
      const first = await startRegistration(user);
      const again = authenticator.register(first.options_json, localhost, { again: held });
      const twice = await post(
        '/auth/passkey/register',
        { credential: again, code: first.code },
        userHeaders(service, user),
      );
      expectKnownError(twice, 'PASSKEY_REGISTRATION_FAILED', 400);
      expect(twice.body.details.message).toMatch(/already registered/);
      const second = await startRegistration(user);
      const renamed = authenticator.register(second.options_json, localhost);
      renamed.id = held.id;
      renamed.rawId = held.id;
      const mismatch = await post(
        '/auth/passkey/register',
        { credential: renamed, code: second.code },
        userHeaders(service, user),
      );
      expectKnownError(mismatch, 'PASSKEY_REGISTRATION_FAILED', 400);
      expect(await state()).toEqual(before);
    });

    it('refuses malformed bodies with SCHEMA_ERROR and needs a signed-in user', async () => {
      const user = await signUp(service);
      const { options_json, code } = await startRegistration(user);
      const credential = new SoftwareAuthenticator().register(options_json, localhost);
      const before = await state();
      const bodies: unknown[] = [
        {},
        { credential, code: 42 },
        { credential, code: 'short' },
        { credential: 'credential', code },
        { credential: { ...credential, type: 'password' }, code },
        { credential: { ...credential, response: { ...credential.response, clientDataJSON: 7 } }, code },
        { credential: { ...credential, response: { ...credential.response, clientDataJSON: 'x'.repeat(9000) } }, code },
        { credential: { ...credential, id: 'not base64url!' }, code },
        { credential, code, extra: true },
        { credential, code, name: 'n'.repeat(65) },
      ];
      for (const body of bodies) {
        const answer = await post('/auth/passkey/register', body, userHeaders(service, user));
        expectKnownError(answer, 'SCHEMA_ERROR', 400);
      }
      const anonymous = await post('/auth/passkey/register', { credential, code }, authHeaders(service));
      expectKnownError(anonymous, 'CANNOT_GET_OWN_USER_WITHOUT_USER', 400);
      expect(await state()).toEqual(before);
      // None of them used the code.
      await ok(post('/auth/passkey/register', { credential, code }, userHeaders(service, user)));
    });
  });

  describe('sign-in', () => {
    it('offers any discoverable credential of the site, and signs in whose passkey it is', async () => {
      const { user, authenticator } = await userWithPasskey();
      const { options_json } = await startSignIn();
      expect(options_json.rpId).toBe(placeholderRpId);
      expect(options_json.allowCredentials).toEqual([]);
      expect(options_json.userVerification).toBe('preferred');
      const signedIn = await ok(signIn(authenticator));
      expect(signedIn).toEqual({
        access_token: expect.any(String),
        refresh_token: expect.any(String),
        user_id: user.user_id,
        is_new_user: false,
      });
      expect((await me(signedIn)).id).toBe(user.user_id);
      const [passkey] = await listOwn(user);
      expect(passkey.last_used_at_millis).toBeGreaterThanOrEqual(passkey.created_at_millis);
      const [event] = await auditEvents(service, { user_id: user.user_id, type: 'sign_in.succeeded' });
      expect(event?.data).toEqual({ method: 'passkey' });
      // Again, with the counter one up.
      expect((await ok(signIn(authenticator))).user_id).toBe(user.user_id);
    });

    it('signs in twice with an authenticator that keeps no counter', async () => {
      const user = await signUp(service);
      const authenticator = new SoftwareAuthenticator();
      authenticator.counterStep = 0;
      await ok(register(user, authenticator));
      await ok(signIn(authenticator));
      await ok(signIn(authenticator));
    });

    it('asks a user with TOTP for the second factor, then the TOTP code signs in', async () => {
      const { user, authenticator } = await userWithPasskey();
      const secret = newSecret();
      await ok(
        call(service, 'PATCH', '/users/me', {
          headers: userHeaders(service, user),
          json: { totp_secret_base64: secret },
        }),
      );
      const sessions = await countRows(service, 'sessions');
      const refused = await signIn(authenticator);
      expectKnownError(refused, 'MULTI_FACTOR_AUTHENTICATION_REQUIRED', 400);
      expect(await countRows(service, 'sessions')).toBe(sessions);
      const signedIn = await ok(
        mfaSignIn(service, refused.body.details.attempt_code, totpAt({ base64: secret }, service.clock.now())),
      );
      expect((await me(signedIn)).id).toBe(user.user_id);
      const [event] = await auditEvents(service, { user_id: user.user_id, type: 'sign_in.succeeded' });
      expect(event?.data).toEqual({ method: 'passkey', second_factor: 'totp' });
    });

    async function expectRefused(answer: Answer, message?: RegExp) {
      expectKnownError(answer, 'PASSKEY_AUTHENTICATION_FAILED', 400);
      if (message) expect(answer.body.details.message).toMatch(message);
    }

    it('refuses an untrusted origin, another RP id and tampered client data, using the challenge up', async () => {
      const { user, authenticator } = await userWithPasskey();
      const before = await state();
      const attempts: [Page, Record<string, unknown>?, boolean?][] = [
        [{ origin: 'https://evil.example' }],
        [{ origin: 'http://localhost:3000', rpId: 'evil.example' }],
        [localhost, undefined, true],
        [localhost, { type: 'webauthn.create' }],
      ];
      for (const [page, clientData, tamperAfterSigning] of attempts) {
        const { options_json, code } = await startSignIn();
        const credential = authenticator.credentials[0]!;
        const response = authenticator.authenticate(
          options_json,
          page,
          clientData ? { clientData, credential } : { credential },
        );
        if (tamperAfterSigning) {
          response.response.clientDataJSON = rewrite(response.response.clientDataJSON, (data) => {
            data.crossOrigin = true;
          });
        }
        await expectRefused(
          await post('/auth/passkey/sign-in', { authentication_response: response, code }, authHeaders(service)),
        );
        const good = authenticator.authenticate(options_json, localhost);
        await expectRefused(
          await post('/auth/passkey/sign-in', { authentication_response: good, code }, authHeaders(service)),
          /already answered/,
        );
      }
      expect(await state()).toEqual(before);
      const failures = await auditEvents(service, { user_id: user.user_id, type: 'sign_in.failed' });
      expect(failures.map((event) => event.data)).toContainEqual({ method: 'passkey', reason: 'bad_assertion' });
    });

    it('refuses a used code, and a counter that did not go up', async () => {
      const { authenticator } = await userWithPasskey();
      const { options_json, code } = await startSignIn();
      const response = authenticator.authenticate(options_json, localhost);
      await ok(post('/auth/passkey/sign-in', { authentication_response: response, code }, authHeaders(service)));
      const sessions = await countRows(service, 'sessions');
      await expectRefused(
        await post('/auth/passkey/sign-in', { authentication_response: response, code }, authHeaders(service)),
        /already answered/,
      );
      // The same signed response with a new challenge fails its signature check; a fresh one with the old counter, the counter's.
      const replayed = await startSignIn();
      await expectRefused(
        await post(
          '/auth/passkey/sign-in',
          { authentication_response: response, code: replayed.code },
          authHeaders(service),
        ),
      );
      authenticator.counterStep = 0;
      await expectRefused(await signIn(authenticator), /counter/i);
      authenticator.credentials[0]!.counter -= 1;
      await expectRefused(await signIn(authenticator), /counter/i);
      expect(await countRows(service, 'sessions')).toBe(sessions);
    });

    it('refuses a passkey of another project, and one answering for another user', async () => {
      const inOther = await signUp(otherService());
      const foreign = new SoftwareAuthenticator();
      await ok(register(inOther, foreign, localhost, otherService()));
      await ok(signIn(foreign, localhost, otherService()));
      const { authenticator } = await userWithPasskey();
      const someoneElse = await signUp(service);
      const before = await state();
      await expectRefused(await signIn(foreign), /not registered/);
      const { options_json, code } = await startSignIn();
      const response = authenticator.authenticate(options_json, localhost);
      response.response.userHandle = Buffer.from(someoneElse.user_id).toString('base64url');
      await expectRefused(
        await post('/auth/passkey/sign-in', { authentication_response: response, code }, authHeaders(service)),
        /another user/,
      );
      expect(await state()).toEqual(before);
    });

    it('refuses when the project has passkey sign-in off, or the user turned it off', async () => {
      const { user, authenticator } = await userWithPasskey();
      const { options_json, code } = await startSignIn();
      await service.setProjectConfig({ passkey_enabled: false });
      try {
        const initiate = await post('/auth/passkey/initiate-passkey-authentication', {}, authHeaders(service));
        expectKnownError(initiate, 'PASSKEY_AUTHENTICATION_NOT_ENABLED', 400);
        const response = authenticator.authenticate(options_json, localhost);
        const refused = await post(
          '/auth/passkey/sign-in',
          { authentication_response: response, code },
          authHeaders(service),
        );
        expectKnownError(refused, 'PASSKEY_AUTHENTICATION_NOT_ENABLED', 400);
      } finally {
        await service.setProjectConfig({ passkey_enabled: true });
      }
      await ok(
        call(service, 'PATCH', '/users/me', {
          headers: userHeaders(service, user),
          json: { passkey_auth_enabled: false },
        }),
      );
      const sessions = await countRows(service, 'sessions');
      await expectRefused(await signIn(authenticator), /turned off/);
      expect(await countRows(service, 'sessions')).toBe(sessions);
    });

    it('refuses malformed bodies with SCHEMA_ERROR, opening no session', async () => {
      const { authenticator } = await userWithPasskey();
      const { options_json, code } = await startSignIn();
      const response = authenticator.authenticate(options_json, localhost);
      const before = await state();
      const bodies: unknown[] = [
        { code },
        { authentication_response: response },
        { authentication_response: response, code: [] },
        { authentication_response: { ...response, rawId: 5 }, code },
        {
          authentication_response: { ...response, response: { ...response.response, signature: 'a'.repeat(5000) } },
          code,
        },
        { authentication_response: { ...response, response: { ...response.response, signature: null } }, code },
        { authentication_response: response, code, user_id: 'x' },
      ];
      for (const body of bodies) {
        expectKnownError(await post('/auth/passkey/sign-in', body, authHeaders(service)), 'SCHEMA_ERROR', 400);
      }
      expect(await state()).toEqual(before);
      await ok(post('/auth/passkey/sign-in', { authentication_response: response, code }, authHeaders(service)));
    });
  });

  describe('passkey-only accounts', () => {
    it('signs up by an e-mailed code, adds a passkey, and signs in with it: no password anywhere', async () => {
      const email = newEmail('passkey-only');
      await ok(
        post(
          '/auth/otp/send-sign-in-code',
          { email, callback_url: 'http://localhost:3000/handler/magic-link-callback' },
          authHeaders(service),
        ),
      );
      const code = codeFromMail(await lastMailTo(service, email));
      const signedUp = await ok(post('/auth/otp/sign-in', { code }, authHeaders(service)));
      expect(signedUp.is_new_user).toBe(true);
      const authenticator = new SoftwareAuthenticator();
      await ok(register(signedUp, authenticator));
      const signedIn = await ok(signIn(authenticator));
      expect(signedIn.user_id).toBe(signedUp.user_id);
      const user = await me(signedIn);
      expect(user).toMatchObject({
        primary_email: email,
        primary_email_verified: true,
        has_password: false,
        passkey_auth_enabled: true,
      });
    });
  });

  describe('managing passkeys', () => {
    it('renames a passkey, 1 to 64 characters, and only one’s own', async () => {
      const { user } = await userWithPasskey();
      const [passkey] = await listOwn(user);
      const path = `/users/me/passkeys/${passkey.id}`;
      const renamed = await ok(
        call(service, 'PATCH', path, { headers: userHeaders(service, user), json: { name: ' Work laptop ' } }),
      );
      expect(renamed).toEqual({ ...passkey, name: 'Work laptop' });
      expect((await listOwn(user))[0].name).toBe('Work laptop');
      for (const name of ['', '   ', 'n'.repeat(65), 7]) {
        const answer = await call(service, 'PATCH', path, { headers: userHeaders(service, user), json: { name } });
        expectKnownError(answer, 'SCHEMA_ERROR', 400);
      }
      const stranger = await signUp(service);
      const theirs = await call(service, 'PATCH', `/users/me/passkeys/${passkey.id}`, {
        headers: userHeaders(service, stranger),
        json: { name: 'Mine now' },
      });
      expectKnownError(theirs, 'PASSKEY_NOT_FOUND', 404);
      const malformed = await call(service, 'PATCH', '/users/me/passkeys/nope', {
        headers: userHeaders(service, user),
        json: { name: 'x' },
      });
      expectKnownError(malformed, 'PASSKEY_NOT_FOUND', 404);
      const [event] = await auditEvents(service, { user_id: user.user_id, type: 'passkey.renamed' });
      expect(event?.data).toEqual({ passkey_id: passkey.id });
    });

    it('removes a passkey: it signs in no more, and without passkeys left passkey sign-in is off', async () => {
      const { user, authenticator } = await userWithPasskey();
      const second = new SoftwareAuthenticator();
      await ok(register(user, second));
      const [first, other] = await listOwn(user);
      expect(other.name).toBe('Passkey 2');
      await ok(call(service, 'DELETE', `/users/me/passkeys/${first.id}`, { headers: userHeaders(service, user) }));
      expect((await me(user)).passkey_auth_enabled).toBe(true);
      expectKnownError(await signIn(authenticator), 'PASSKEY_AUTHENTICATION_FAILED', 400);
      await ok(signIn(second));
      await ok(call(service, 'DELETE', `/users/me/passkeys/${other.id}`, { headers: userHeaders(service, user) }));
      expect(await listOwn(user)).toEqual([]);
      expect((await me(user)).passkey_auth_enabled).toBe(false);
      const again = await call(service, 'DELETE', `/users/me/passkeys/${other.id}`, {
        headers: userHeaders(service, user),
      });
      expectKnownError(again, 'PASSKEY_NOT_FOUND', 404);
      const events = await auditEvents(service, { user_id: user.user_id, type: 'passkey.removed' });
      expect(events.map((event) => event.data)).toEqual([{ passkey_id: other.id }, { passkey_id: first.id }]);
    });

    it('lets server code list and remove any user’s passkeys, and a client only its own', async () => {
      const { user } = await userWithPasskey();
      const server = authHeaders(service, 'server');
      const listed = await ok(call(service, 'GET', `/users/${user.user_id}/passkeys`, { headers: server }));
      expect(listed.items).toHaveLength(1);
      expect(listed.is_paginated).toBe(false);
      const stranger = await signUp(service);
      const peek = await call(service, 'GET', `/users/${user.user_id}/passkeys`, {
        headers: userHeaders(service, stranger),
      });
      expectKnownError(peek, 'INSUFFICIENT_ACCESS_TYPE', 401);
      await ok(call(service, 'DELETE', `/users/${user.user_id}/passkeys/${listed.items[0].id}`, { headers: server }));
      expect((await me(user)).passkey_auth_enabled).toBe(false);
    });

    it('deletes a user’s passkeys with the user', async () => {
      const { user } = await userWithPasskey();
      await ok(call(service, 'DELETE', `/users/${user.user_id}`, { headers: authHeaders(service, 'server') }));
      const left = await dbOf(service.storage)
        .selectFrom('passkeys')
        .select('id')
        .where('user_id', '=', user.user_id)
        .execute();
      expect(left).toEqual([]);
    });
  });
});

describe('starting passkey sign-ins from one client address', () => {
  const service = testServiceForSuite({
    databaseUrl: null,
    projectConfig: { passkey_enabled: true, rate_limits: { code_checks_per_client: 3 } },
  });

  const challengeRows = async () =>
    (
      await dbOf(service.storage)
        .selectFrom('verification_codes')
        .select('id')
        .where('project_id', '=', service.projectId)
        .where('purpose', '=', 'passkey_authentication')
        .execute()
    ).length;
  const start = () =>
    call(service, 'POST', '/auth/passkey/initiate-passkey-authentication', {
      headers: authHeaders(service),
      json: {},
    });

  it('is limited per client address (429 with Retry-After, no challenge stored), apart from finishing one', async () => {
    const user = await signUp(service);
    const authenticator = new SoftwareAuthenticator();
    const registration = await call(service, 'POST', '/auth/passkey/initiate-passkey-registration', {
      headers: userHeaders(service, user),
      json: {},
    });
    const credential = authenticator.register(registration.body.options_json, localhost);
    const registered = await call(service, 'POST', '/auth/passkey/register', {
      headers: userHeaders(service, user),
      json: { credential, code: registration.body.code },
    });
    expect(registered.status, registered.text).toBe(200);

    service.clock.startWindow(10 * 60_000);
    const started = [];
    for (let i = 0; i < 3; i++) {
      const answer = await start();
      expect(answer.status, answer.text).toBe(200);
      started.push(answer.body);
    }
    const stored = await challengeRows();
    const refused = await start();
    // The SDK's requests ask for the status in x-stack-actual-status.
    expect(refused.headers.get('x-stack-actual-status'), refused.text).toBe('429');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await challengeRows()).toBe(stored);

    // The sign-ins already started can still be finished: their checks are counted apart.
    const authentication_response = authenticator.authenticate(started[0].options_json, localhost);
    const signedIn = await call(service, 'POST', '/auth/passkey/sign-in', {
      headers: authHeaders(service),
      json: { authentication_response, code: started[0].code },
    });
    expect(signedIn.status, signedIn.text).toBe(200);
    expect(signedIn.body.user_id).toBe(user.user_id);

    service.clock.advance(10 * 60_000);
    const again = await start();
    expect(again.headers.get('x-stack-actual-status'), again.text).toBeNull();
    expect(again.body.code).toEqual(expect.any(String));
  });
});
