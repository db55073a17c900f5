/**
 * The session cache behind refresh: a session is read once, then refreshes
 * within its life read no database; a session that ends (sign-out, a deleted
 * user) or expires is refused at once on the instance that ended it and, on
 * PostgreSQL, on another within moments. Tests wait on the feed's events,
 * never on timers.
 */
import { constants } from '@latchkey/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeFeedOf } from '../storage/change-feed.js';
import { dbOf } from '../storage/open-storage.js';
import { call, expectKnownError, refreshGrant, signUp, userHeaders } from '../test-support/api.js';
import { describeEachBackend } from '../test-support/backends.js';
import { nextFeedEvent } from '../test-support/feed.js';
import { postgresUp } from '../test-support/postgres.js';
import { twoInstances } from '../test-support/second-instance.js';
import { startTestService, type TestService } from '../testing/index.js';
import { SessionRevocations } from './revocations.js';
import { SessionCache } from './session-cache.js';

describeEachBackend('the session cache', (backend) => {
  let service: TestService;
  let cache: SessionCache;

  beforeAll(async () => {
    service = await startTestService({ databaseUrl: backend.databaseUrl });
    const feed = changeFeedOf(service.storage);
    const db = dbOf(service.storage);
    const revocations = new SessionRevocations({ feed, clock: service.clock, db });
    cache = new SessionCache({ db, feed, revocations });
  });
  afterAll(() => service?.close());

  it('reads a session once, then answers from memory', async () => {
    const user = await signUp(service);
    const before = { ...cache.stats };
    const first = await cache.find(service.projectId, user.refresh_token, service.clock.now());
    const again = await cache.find(service.projectId, user.refresh_token, service.clock.now());
    expect(first?.user_id).toBe(user.user_id);
    expect(again).toBe(first);
    expect(cache.stats).toEqual({ hits: before.hits + 1, loads: before.loads + 1 });
  });

  it('never holds an unknown token, nor a token of another project', async () => {
    const user = await signUp(service);
    const other = await service.createOtherProject();
    const before = cache.stats.loads;
    for (let i = 0; i < 2; i++) {
      expect(await cache.find(service.projectId, 'x'.repeat(45), service.clock.now())).toBeNull();
      expect(await cache.find(other.projectId, user.refresh_token, service.clock.now())).toBeNull();
    }
    expect(cache.stats.loads).toBe(before + 4);
  });

  it('refuses a held session once it expired', async () => {
    const user = await signUp(service);
    const now = service.clock.now();
    expect(await cache.find(service.projectId, user.refresh_token, now)).not.toBeNull();
    expect(
      await cache.find(service.projectId, user.refresh_token, now + constants.defaultServerSessionExpiresInMs),
    ).toBeNull();
  });

  it('a signed-out session is refused at once by the instance that ended it, though it held it', async () => {
    const user = await signUp(service);
    for (let i = 0; i < 2; i++) expect((await refreshGrant(service, user.refresh_token)).status).toBe(200);
    expect(await cache.find(service.projectId, user.refresh_token, service.clock.now())).not.toBeNull();
    const signedOut = await call(service, 'DELETE', '/auth/sessions/current', {
      headers: userHeaders(service, user),
      json: {},
    });
    expect(signedOut.body).toEqual({ success: true });
    // No waiting: this instance learnt of it as it deleted the row.
    expectKnownError(await refreshGrant(service, user.refresh_token), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401, false);
    expect(await cache.find(service.projectId, user.refresh_token, service.clock.now())).toBeNull();
  });

  it("a deleted user's sessions are refused at once", async () => {
    const user = await signUp(service);
    expect((await refreshGrant(service, user.refresh_token)).status).toBe(200);
    const deleted = await call(service, 'DELETE', '/users/me', { headers: userHeaders(service, user, 'server') });
    expect(deleted.body).toEqual({ success: true });
    expectKnownError(await refreshGrant(service, user.refresh_token), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401, false);
  });
});

describe.skipIf(!postgresUp)('the session cache across instances on PostgreSQL', () => {
  const instances = twoInstances();

  it('a session signed out through one instance is refused by the other as soon as it hears', async () => {
    const { first: service, second: other } = instances;
    const user = await signUp(service);
    expect((await refreshGrant(other, user.refresh_token)).status).toBe(200);
    expect((await refreshGrant(other, user.refresh_token)).status).toBe(200);
    const heard = nextFeedEvent(other.storage, (event) => event.type === 'revoked');
    const signedOut = await call(service, 'DELETE', '/auth/sessions/current', {
      headers: userHeaders(service, user),
      json: {},
    });
    expect(signedOut.body).toEqual({ success: true });
    await heard;
    expectKnownError(await refreshGrant(other, user.refresh_token), 'REFRESH_TOKEN_NOT_FOUND_OR_EXPIRED', 401, false);
  });
});
