/**
 * The write guard of strict mode: inside a route handler, a statement that
 * changes rows is refused unless an action runs it; reads, writes of allowed
 * routes and writes outside any handler pass.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeFeedOf } from '../storage/change-feed.js';
import type { Db } from '../storage/db.js';
import { dbOf } from '../storage/open-storage.js';
import { startTestService, type TestService } from '../testing/index.js';
import { findUser, updateUser } from '../users/user-store.js';
import { actionGuard, asRouteHandler } from './action-guard.js';
import { act, operatorContext } from './recorder.js';

describe('the write guard', () => {
  let service: TestService;
  let guarded: Db;
  const userId = crypto.randomUUID();
  const rename = (db: Db) => updateUser(db, service.projectId, userId, { display_name: 'Ada' });

  beforeAll(async () => {
    service = await startTestService();
    guarded = dbOf(service.storage).withPlugin(actionGuard((route) => route === 'PATCH /allowed'));
  });
  afterAll(() => service?.close());

  it('refuses a handler that writes outside an action, naming the route', async () => {
    await expect(asRouteHandler('PATCH /users/me', () => rename(guarded))).rejects.toThrow(
      /PATCH \/users\/me writes outside an action/,
    );
  });

  it('lets the same write through inside an action, and reads anywhere', async () => {
    const ctx = operatorContext(guarded, changeFeedOf(service.storage), service.projectId);
    await asRouteHandler('PATCH /users/me', async () => {
      await act(ctx, (tx) => rename(tx.db));
      await findUser(guarded, service.projectId, userId);
    });
  });

  it('lets allowed routes and work outside any handler write', async () => {
    await asRouteHandler('PATCH /allowed', () => rename(guarded));
    await rename(guarded);
  });
});
