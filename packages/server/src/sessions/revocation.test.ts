/**
 * Immediate sign-out: access tokens used to keep working for up to
 * 10 minutes after their session ended. Each token now names its session, and
 * every instance hears of a revoked session through the database within
 * moments: the token is refused (ACCESS_TOKEN_EXPIRED, so the SDK refreshes and
 * finds itself signed out) on this instance and, on PostgreSQL, on a second
 * instance sharing the database, within a second, without a read per request.
 */
import { randomUUID } from 'node:crypto';
import { headers as h } from '@latchkey/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeFeedOf } from '../storage/change-feed.js';
import { dbOf } from '../storage/open-storage.js';
import {
  authHeaders,
  call,
  expectKnownError,
  goodPassword,
  refreshGrant,
  signUp,
  userHeaders,
  within,
} from '../test-support/api.js';
import { auditTrail } from '../test-support/audit.js';
import { describeEachBackend } from '../test-support/backends.js';
import { toldLocally } from '../test-support/feed.js';
import { postgresUp } from '../test-support/postgres.js';
import { twoInstances } from '../test-support/second-instance.js';
import { startTestService, type TestService } from '../testing/index.js';
import { rotationGraceMs } from './refresh-rotation.js';
import { SessionRevocations } from './revocations.js';

describeEachBackend('revoked sessions', ({ databaseUrl }) => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ databaseUrl });
  });
  afterAll(() => service?.close());

  const me = (tokens: { access_token: string }) =>
    call(service, 'GET', '/users/me', { headers: userHeaders(service, { access_token: tokens.access_token }) });
  const refused = async (tokens: { access_token: string }) => {
    const answer = await me(tokens);
    return answer.headers.get(h.knownError) === 'ACCESS_TOKEN_EXPIRED';
  };

  it('a signed-out session’s access token stops working at once', async () => {
    const user = await signUp(service);
    expect((await me(user)).status).toBe(200);
    const out = await call(service, 'DELETE', '/auth/sessions/current', {
      headers: userHeaders(service, user),
      json: {},
    });
    expect(out.status).toBe(200);
    await within(() => refused(user));
    expectKnownError(await me(user), 'ACCESS_TOKEN_EXPIRED', 401);
  });

  it('so do the tokens of a revoked session, of a password reset’s sessions and of a deleted user', async () => {
    const user = await signUp(service);
    const second = await call(service, 'POST', '/auth/password/sign-in', {
      headers: authHeaders(service),
      json: { email: user.email, password: user.password },
    });
    // The password changes: every other session ends.
    await call(service, 'POST', '/auth/password/update', {
      headers: userHeaders(service, user),
      json: { old_password: goodPassword, new_password: 'another-horse-2' },
    });
    await within(() => refused(second.body));
    expect((await me(user)).status).toBe(200); // the session that changed it stays

    await call(service, 'DELETE', `/users/${user.user_id}`, { headers: authHeaders(service, 'server') });
    await within(() => refused(user));
  });

  it('two sign-outs of one session at once: one ends it and is recorded, once', async () => {
    const user = await signUp(service);
    // The refresh token alone, as a page whose access token expired signs out.
    const headers = { ...authHeaders(service), [h.refreshToken]: user.refresh_token };
    const signOut = () => call(service, 'DELETE', '/auth/sessions/current', { headers, json: {} });
    const answers = await Promise.all([signOut(), signOut(), signOut()]);
    // The test headers ask errors to answer 200 (as the SDK does): the body tells them apart.
    const ended = answers.filter((answer) => answer.body?.success === true);
    expect(ended).toHaveLength(1);
    for (const answer of answers.filter((answer) => answer.body?.success !== true)) {
      expectKnownError(answer, 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401);
    }
    expect(await auditTrail(service, user.user_id)).toEqual(['sign_up', 'session.revoked']);
    await within(() => refused(user));
  });

  it('this instance refuses an ended session’s token on the very next request, told before the database answers', async () => {
    /** The session an access token names (its `sid` claim). */
    const sessionOf = (tokens: { access_token: string }) =>
      JSON.parse(Buffer.from(tokens.access_token.split('.')[1]!, 'base64url').toString()).sid as string;
    const signIn = async (user: { email: string; password: string }, password = user.password) =>
      (
        await call(service, 'POST', '/auth/password/sign-in', {
          headers: authHeaders(service),
          json: { email: user.email, password },
        })
      ).body as { access_token: string; refresh_token: string };
    /** Ends `tokens`' session with `end`; the very next request with them is refused, with no wait. */
    const endsAtOnce = async (tokens: { access_token: string }, end: () => Promise<unknown>) => {
      const sessionId = sessionOf(tokens);
      const told = toldLocally(service.storage);
      try {
        await end();
        expect(told.events).toContainEqual({ type: 'revoked', sessionIds: expect.arrayContaining([sessionId]) });
      } finally {
        told.stop();
      }
      expectKnownError(await me(tokens), 'ACCESS_TOKEN_EXPIRED', 401);
    };

    const user = await signUp(service);
    await endsAtOnce(user, () =>
      call(service, 'DELETE', '/auth/sessions/current', { headers: userHeaders(service, user), json: {} }),
    );
    const revokedById = await signIn(user);
    const id = sessionOf(revokedById);
    await endsAtOnce(revokedById, () =>
      call(service, 'DELETE', `/auth/sessions/${id}`, { headers: authHeaders(service, 'server') }),
    );
    const [changer, other] = [await signIn(user), await signIn(user)];
    await endsAtOnce(other, () =>
      call(service, 'POST', '/auth/password/update', {
        headers: userHeaders(service, changer),
        json: { old_password: user.password, new_password: 'another-horse-2' },
      }),
    );
    await endsAtOnce(changer, () =>
      call(service, 'PATCH', `/users/${user.user_id}`, {
        headers: authHeaders(service, 'server'),
        json: { password: 'a-third-horse-3' },
      }),
    );
    // A replaced refresh token back after its grace window: a reuse, which ends the session.
    const rotating = await signIn(user, 'a-third-horse-3');
    expect((await refreshGrant(service, rotating.refresh_token, { rotate: true })).status).toBe(200);
    service.clock.advance(rotationGraceMs + 1_000);
    await endsAtOnce(rotating, () => refreshGrant(service, rotating.refresh_token));
    const last = await signIn(user, 'a-third-horse-3');
    await endsAtOnce(last, () =>
      call(service, 'DELETE', `/users/${user.user_id}`, { headers: authHeaders(service, 'server') }),
    );
  });

  it('a token whose session is alive keeps working (no false refusals)', async () => {
    const [a, b] = [await signUp(service), await signUp(service)];
    await call(service, 'DELETE', '/auth/sessions/current', { headers: userHeaders(service, a), json: {} });
    await within(() => refused(a));
    expect((await me(b)).status).toBe(200);
  });
});

describe.skipIf(!postgresUp)('a second instance on the same PostgreSQL', () => {
  const instances = twoInstances();

  it('refuses a session signed out on the first instance within a second, with no read per request', async () => {
    const { first: service, second } = instances;
    const user = await signUp(service);
    const onSecond = () =>
      call(second, 'GET', '/users/me', { headers: userHeaders(second, { access_token: user.access_token }) });
    expect((await onSecond()).headers.get(h.actualStatus)).toBeNull();
    await call(service, 'DELETE', '/auth/sessions/current', { headers: userHeaders(service, user), json: {} });
    const took = await within(async () => (await onSecond()).headers.get(h.knownError) === 'ACCESS_TOKEN_EXPIRED');
    console.log(`[figure] sign-out seen by a second instance after ${Math.round(took)} ms`);
  });

  it('hears of every one of the 161 sessions of a deleted user', async () => {
    const { first: service, second } = instances;
    const user = await signUp(service);
    const open = () =>
      call(service, 'POST', '/auth/sessions', {
        headers: authHeaders(service, 'server'),
        json: { user_id: user.user_id },
      });
    for (let i = 0; i < 16; i++) await Promise.all(Array.from({ length: 10 }, open));
    const ids = await dbOf(service.storage)
      .selectFrom('sessions')
      .select('id')
      .where('user_id', '=', user.user_id)
      .execute();
    expect(ids.length).toBe(161);
    const unheard = new Set(ids.map((row) => row.id));
    const heardAll = new Promise<void>((resolve) => {
      changeFeedOf(second.storage).subscribe((event) => {
        if (event.type !== 'revoked') return;
        for (const id of event.sessionIds) unheard.delete(id);
        if (unheard.size === 0) resolve();
      });
    });
    const deleted = await call(service, 'DELETE', `/users/${user.user_id}`, {
      headers: authHeaders(service, 'server'),
    });
    expect(deleted.body).toEqual({ success: true });
    await heardAll;
    expectKnownError(
      await call(second, 'GET', '/users/me', { headers: userHeaders(second, { access_token: user.access_token }) }),
      'ACCESS_TOKEN_EXPIRED',
      401,
    );
  });
});

describe('more revocations than are held', () => {
  let service: TestService;
  beforeAll(async () => {
    service = await startTestService({ databaseUrl: null });
  });
  afterAll(() => service?.close());

  it('reads sessions from the database until every revoked id would have been forgotten', async () => {
    const feed = changeFeedOf(service.storage);
    const revocations = new SessionRevocations({ feed, clock: service.clock, db: dbOf(service.storage), maxHeld: 3 });
    const live = await signUp(service);
    const liveSession = (
      await call(service, 'GET', '/auth/sessions?user_id=me', { headers: userHeaders(service, live) })
    ).body.items[0].id as string;
    const gone = [randomUUID(), randomUUID(), randomUUID()];
    revocations.add(gone.slice(0, 2));
    expect(await revocations.isRevoked(gone[0]!)).toBe(true);
    // Held in memory only: an id never revoked here (nor in the database) reads as not revoked.
    expect(await revocations.isRevoked(gone[2]!)).toBe(false);
    revocations.add([gone[2]!, randomUUID()]);
    // Over the limit: nothing is held, and the database answers, for every id.
    expect(await revocations.isRevoked(gone[0]!)).toBe(true);
    expect(await revocations.isRevoked(gone[2]!)).toBe(true);
    expect(await revocations.isRevoked(liveSession)).toBe(false);
    service.clock.advance(11 * 60_000 + 1);
    expect(await revocations.isRevoked(gone[2]!)).toBe(false);
  });
});
