/** Password sign-up and sign-in over HTTP: successes, every refusal, races, and where the hashing happens. */
import { describe, expect, it } from 'vitest';
import { findProject } from '../projects/projects.js';
import { dbOf } from '../storage/open-storage.js';
import {
  authHeaders,
  call,
  countRows,
  expectKnownError,
  goodPassword,
  newEmail,
  signUp,
  snapshot,
  userHeaders,
} from '../test-support/api.js';
import { describeEachBackend, testServiceForSuite } from '../test-support/backends.js';
import { startTestService } from '../testing/index.js';
import { PasswordHasher } from './passwords.js';

const service = testServiceForSuite();

const signUpCall = (body: unknown, headers = authHeaders(service)) =>
  call(service, 'POST', '/auth/password/sign-up', { headers, json: body });
const signInCall = (body: unknown, headers = authHeaders(service)) =>
  call(service, 'POST', '/auth/password/sign-in', { headers, json: body });

describe('POST /auth/password/sign-up', () => {
  it('creates a user and a session and returns working tokens', async () => {
    const email = newEmail('Mixed.Case');
    const answer = await signUpCall({
      email,
      password: goodPassword,
      verification_callback_url: 'http://localhost:3000/handler/email-verification',
    });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(['access_token', 'refresh_token', 'user_id']);
    expect(answer.body.refresh_token).toMatch(/^[0-9a-hjkmnp-tv-z]{45}$/);
    const me = await call(service, 'GET', '/users/me', { headers: userHeaders(service, answer.body) });
    expect(me.body).toMatchObject({ id: answer.body.user_id, primary_email: email, has_password: true });
  });

  it('accepts passwords of 8 and 64 and 70 characters, counted in code points', async () => {
    for (const password of ['12345678', 'p'.repeat(64), 'q'.repeat(70), '🔑'.repeat(70)]) {
      expect((await signUpCall({ email: newEmail(), password })).status).toBe(200);
    }
  });

  it.each([
    ['a missing email', { password: goodPassword }],
    ['a missing password', { email: 'x@example.com' }],
    ['an extra field', { email: 'x@example.com', password: goodPassword, admin: true }],
    ['a numeric email', { email: 7, password: goodPassword }],
    ['a numeric password', { email: 'x@example.com', password: 12345678 }],
    ['a null password', { email: 'x@example.com', password: null }],
    ['an invalid email', { email: 'not-an-email', password: goodPassword }],
    ['an email with spaces', { email: 'a b@example.com', password: goodPassword }],
    ['an email without a domain dot', { email: 'a@localhost', password: goodPassword }],
    ['an over-long email', { email: `${'a'.repeat(250)}@example.com`, password: goodPassword }],
    [
      'a callback that is not a URL',
      { email: 'x@example.com', password: goodPassword, verification_callback_url: 'nope' },
    ],
    ['a non-string callback', { email: 'x@example.com', password: goodPassword, verification_callback_url: 5 }],
  ])('refuses %s with SCHEMA_ERROR', async (_name, body) => {
    const before = await snapshot(service);
    expectKnownError(await signUpCall(body), 'SCHEMA_ERROR', 400);
    expect(await snapshot(service)).toEqual(before);
  });

  it.each([
    ['', 'PASSWORD_TOO_SHORT', { min_length: 8 }],
    ['1234567', 'PASSWORD_TOO_SHORT', { min_length: 8 }],
    ['x'.repeat(71), 'PASSWORD_TOO_LONG', { maxLength: 70 }],
    ['x'.repeat(5000), 'PASSWORD_TOO_LONG', { maxLength: 70 }],
  ] as const)('refuses a password of %# with its requirement', async (password, code, details) => {
    const before = await snapshot(service);
    const answer = await signUpCall({ email: newEmail(), password });
    expectKnownError(answer, code, 400);
    expect(answer.body.details).toEqual(details);
    expect(await snapshot(service)).toEqual(before);
  });

  it('refuses a taken e-mail, whatever its case, with 409', async () => {
    const { email } = await signUp(service);
    const before = await snapshot(service);
    for (const variant of [email, email.toUpperCase()]) {
      expectKnownError(await signUpCall({ email: variant, password: goodPassword }), 'USER_EMAIL_ALREADY_EXISTS', 409);
    }
    expect(await snapshot(service)).toEqual(before);
  });

  it('trims the e-mail, keeps its case, and treats Ada@Example.com and ada@example.com as one account', async () => {
    const local = newEmail('Ada').split('@')[0]!;
    const typed = ` ${local}@Example.com\t`;
    const created = await signUpCall({ email: typed, password: goodPassword });
    expect(created.status).toBe(200);
    const me = await call(service, 'GET', '/users/me', { headers: userHeaders(service, created.body) });
    expect(me.body.primary_email).toBe(`${local}@Example.com`);
    const before = await snapshot(service);
    for (const variant of [`${local.toLowerCase()}@example.com`, `  ${local.toUpperCase()}@EXAMPLE.COM  `]) {
      expectKnownError(await signUpCall({ email: variant, password: goodPassword }), 'USER_EMAIL_ALREADY_EXISTS', 409);
    }
    expect(await snapshot(service)).toEqual(before);
    const signedIn = await signInCall({ email: ` ${local.toLowerCase()}@example.com `, password: goodPassword });
    expect(signedIn.body.user_id).toBe(created.body.user_id);
  });

  it('refuses a password holding a lone surrogate, which argon2 hashes like any other lone surrogate', async () => {
    // Regression: argon2 encodes the password as UTF-8, turning every lone
    // surrogate into U+FFFD, so "…\ud800" signed up and "…\udfff" signed in.
    const before = await snapshot(service);
    const email = newEmail();
    const answer = await signUpCall({ email, password: 'correct-horse-\ud800' });
    expectKnownError(answer, 'SCHEMA_ERROR', 400);
    expect(answer.body.details.message).toContain('lone surrogate');
    expect(await snapshot(service)).toEqual(before);
    expectKnownError(await signInCall({ email, password: 'correct-horse-\udfff' }), 'SCHEMA_ERROR', 400);
  });

  it.each([
    ['a foreign domain', 'https://evil.example.com/handler/email-verification'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['a look-alike of localhost', 'http://localhost.evil.example.com/cb'],
  ])('refuses a verification callback on %s', async (_name, url) => {
    const before = await snapshot(service);
    const answer = await signUpCall({ email: newEmail(), password: goodPassword, verification_callback_url: url });
    expectKnownError(answer, 'REDIRECT_URL_NOT_WHITELISTED', 400);
    expect(await snapshot(service)).toEqual(before);
  });

  it('accepts callbacks on trusted domains, and refuses localhost once allow_localhost is off', async () => {
    await service.setProjectConfig({
      allow_localhost: false,
      domains: [{ domain: 'https://app.example.com', handler_path: '/handler' }],
    });
    try {
      const trusted = await signUpCall({
        email: newEmail(),
        password: goodPassword,
        verification_callback_url: 'https://app.example.com/handler/email-verification?x=1',
      });
      expect(trusted.status).toBe(200);
      const local = await signUpCall({
        email: newEmail(),
        password: goodPassword,
        verification_callback_url: 'http://localhost:3000/handler/email-verification',
      });
      expectKnownError(local, 'REDIRECT_URL_NOT_WHITELISTED', 400);
    } finally {
      await service.setProjectConfig({ allow_localhost: true, domains: [] });
    }
  });

  it('refuses when sign-up or password authentication is disabled', async () => {
    const before = await snapshot(service);
    await service.setProjectConfig({ sign_up_enabled: false });
    try {
      expectKnownError(await signUpCall({ email: newEmail(), password: goodPassword }), 'SIGN_UP_NOT_ENABLED', 400);
    } finally {
      await service.setProjectConfig({ sign_up_enabled: true });
    }
    await service.setProjectConfig({ credential_enabled: false });
    try {
      const answer = await signUpCall({ email: newEmail(), password: goodPassword });
      expectKnownError(answer, 'PASSWORD_AUTHENTICATION_NOT_ENABLED', 400);
    } finally {
      await service.setProjectConfig({ credential_enabled: true });
    }
    expect(await snapshot(service)).toEqual(before);
  });

  it('keeps users of different projects apart (same e-mail in two projects)', async () => {
    const other = await service.createOtherProject();
    const { email } = await signUp(service);
    const otherService = { ...service, projectId: other.projectId, keys: other.keys };
    await signUp(otherService, email);
    expect(await countRows(service, 'users', other.projectId)).toBe(1);
  });
});

describeEachBackend('the same e-mail signing up concurrently', ({ databaseUrl }) => {
  it('creates exactly one user; every other answer is USER_EMAIL_ALREADY_EXISTS 409, never a 500', async () => {
    const raced = await startTestService({ databaseUrl });
    try {
      const email = newEmail('race');
      const variants = [email, email.toUpperCase(), ...Array.from({ length: 6 }, () => email)];
      const answers = await Promise.all(
        variants.map((variant) =>
          call(raced, 'POST', '/auth/password/sign-up', {
            headers: authHeaders(raced),
            json: { email: variant, password: goodPassword },
          }),
        ),
      );
      const created = answers.filter((answer) => answer.status === 200 && !answer.headers.get('x-stack-actual-status'));
      expect(created).toHaveLength(1);
      for (const answer of answers.filter((a) => !created.includes(a))) {
        expectKnownError(answer, 'USER_EMAIL_ALREADY_EXISTS', 409);
      }
      expect(await countRows(raced, 'users')).toBe(1);
      expect(await countRows(raced, 'sessions')).toBe(1);
    } finally {
      await raced.close();
    }
  });
});

describe('password hashing and the database connection', () => {
  it('never hashes while holding the PGlite connection: other queries run during sign-ups and sign-ins', async () => {
    // PGlite is one connection. Hashing inside a transaction would make every
    // query wait out the hash (DESIGN.md); hashed first, queries wait ~1 ms.
    const local = await startTestService({ databaseUrl: null });
    try {
      const user = await signUp(local);
      const started = performance.now();
      await new PasswordHasher().hash(goodPassword);
      const hashMs = performance.now() - started;
      const work = Promise.all([
        ...Array.from({ length: 3 }, () =>
          call(local, 'POST', '/auth/password/sign-up', {
            headers: authHeaders(local),
            json: { email: newEmail(), password: goodPassword },
          }),
        ),
        ...Array.from({ length: 3 }, () =>
          call(local, 'POST', '/auth/password/sign-in', {
            headers: authHeaders(local),
            json: { email: user.email, password: user.password },
          }),
        ),
      ]);
      let finished = false;
      void work.finally(() => {
        finished = true;
      });
      const waits: number[] = [];
      while (!finished) {
        // A macrotask turn, so the listener (in this process) gets to read its sockets.
        await new Promise((resolve) => setTimeout(resolve, 1));
        const asked = performance.now();
        await findProject(dbOf(local.storage), local.projectId);
        waits.push(performance.now() - asked);
      }
      expect((await work).map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200, 200]);
      const median = waits.sort((a, b) => a - b)[Math.floor(waits.length / 2)]!;
      expect(waits.length).toBeGreaterThan(5);
      expect(median).toBeLessThan(hashMs / 4);
    } finally {
      await local.close();
    }
  });
});

describe('POST /auth/password/sign-in', () => {
  it('signs in with the right password (e-mail case-insensitive) and opens a new session', async () => {
    const user = await signUp(service);
    const sessions = await countRows(service, 'sessions');
    const answer = await signInCall({ email: user.email.toUpperCase(), password: user.password });
    expect(answer.status).toBe(200);
    expect(answer.body.user_id).toBe(user.user_id);
    expect(answer.body.refresh_token).not.toBe(user.refresh_token);
    expect(await countRows(service, 'sessions')).toBe(sessions + 1);
  });

  it('refuses a wrong password and an unknown e-mail alike', async () => {
    const user = await signUp(service);
    const before = await snapshot(service);
    expectKnownError(
      await signInCall({ email: user.email, password: 'wrong-password' }),
      'EMAIL_PASSWORD_MISMATCH',
      400,
    );
    expectKnownError(await signInCall({ email: newEmail(), password: goodPassword }), 'EMAIL_PASSWORD_MISMATCH', 400);
    expectKnownError(await signInCall({ email: user.email, password: '' }), 'EMAIL_PASSWORD_MISMATCH', 400);
    expect(await snapshot(service)).toEqual(before);
  });

  it.each([
    ['no body', undefined],
    ['an invalid email', { email: 'nope', password: goodPassword }],
    ['an extra field', { email: 'a@example.com', password: goodPassword, remember: true }],
    ['a numeric password', { email: 'a@example.com', password: 1 }],
  ])('refuses %s with SCHEMA_ERROR', async (_name, body) => {
    expectKnownError(await signInCall(body), 'SCHEMA_ERROR', 400);
  });

  it('refuses when password authentication is disabled', async () => {
    const user = await signUp(service);
    await service.setProjectConfig({ credential_enabled: false });
    try {
      const answer = await signInCall({ email: user.email, password: user.password });
      expectKnownError(answer, 'PASSWORD_AUTHENTICATION_NOT_ENABLED', 400);
    } finally {
      await service.setProjectConfig({ credential_enabled: true });
    }
  });

  it('answers an unknown e-mail about as slowly as a wrong password', async () => {
    const user = await signUp(service);
    const time = async (email: string) => {
      const started = performance.now();
      await signInCall({ email, password: 'wrong-password' });
      return performance.now() - started;
    };
    await time(user.email);
    await time(newEmail());
    // The fastest of each: the work a request does, without the waits a busy machine adds to some of them.
    const fastest = (values: number[]) => Math.min(...values);
    // A user each, so that no account's failed sign-ins hold it back (which answers at once, with 429).
    const users = [];
    for (let i = 0; i < 7; i++) users.push(await signUp(service));
    const wrong: number[] = [];
    const unknown: number[] = [];
    for (const other of users) {
      wrong.push(await time(other.email));
      unknown.push(await time(newEmail()));
    }
    const ratio = fastest(wrong) / fastest(unknown);
    expect(ratio).toBeGreaterThan(1 / 3);
    expect(ratio).toBeLessThan(3);
  });
});
