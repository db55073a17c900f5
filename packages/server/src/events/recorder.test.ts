/**
 * The recorder: an event recorded in an action is written and announced
 * exactly when the action commits — its audit row in the same transaction,
 * its cache notices to this instance after the commit and to the others
 * through the database on commit — and a rolled-back action leaves neither.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listAuditEvents } from '../audit/audit-store.js';
import { changeFeedOf, type FeedEvent } from '../storage/change-feed.js';
import { writeTogether } from '../storage/db.js';
import { dbOf, openStorage, type Storage } from '../storage/open-storage.js';
import { nextFeedEvent } from '../test-support/feed.js';
import { postgresUp, postgresUrl } from '../test-support/postgres.js';
import { startTestService, type TestService } from '../testing/index.js';
import {
  type ActionContext,
  type ActionTx,
  act,
  actInOneStatement,
  inAction,
  oneStatementRefusal,
  operatorContext,
  record,
  recordWrites,
  sessionsEnded,
} from './recorder.js';

const backends = [
  { name: 'the embedded database (PGlite)', databaseUrl: null, skip: false },
  { name: 'PostgreSQL', databaseUrl: postgresUrl, skip: !postgresUp },
] as const;

for (const backend of backends) {
  describe.skipIf(backend.skip)(`the recorder on ${backend.name}`, () => {
    let service: TestService;
    /** Another instance's view of the database: PostgreSQL's second storage, or PGlite's own. */
    let elsewhere: Storage;
    /** What this instance's feed was told directly (not through the database). */
    let announced: FeedEvent[];

    beforeAll(async () => {
      service = await startTestService({ databaseUrl: backend.databaseUrl });
      elsewhere = backend.databaseUrl
        ? await openStorage({ databaseUrl: backend.databaseUrl, schema: service.storage.schema })
        : service.storage;
      // Listening before the first action, so a notification cannot come before the listener.
      const listening = nextFeedEvent(elsewhere, (event) => event.type === 'live', 5_000);
      if (changeFeedOf(elsewhere).live) listening.catch(() => {});
      else await listening;
    });
    afterAll(async () => {
      if (elsewhere !== service?.storage) await elsewhere?.close();
      await service?.close();
    });

    /** An operator context whose feed records what it is told locally. */
    function context(): ActionContext {
      announced = [];
      const feed = changeFeedOf(service.storage);
      return {
        ...operatorContext(dbOf(service.storage), feed, service.projectId, service.clock),
        feed: { ...feed, announce: (event) => announced.push(event), live: feed.live },
      };
    }

    async function eventsOf(type: string) {
      const { rows } = await listAuditEvents(dbOf(service.storage), {
        projectId: service.projectId,
        userId: null,
        types: [type],
        since: null,
        until: null,
        beforeId: null,
        limit: 100,
      });
      return rows;
    }

    it('writes the audit row in the transaction and announces the caches after the commit', async () => {
      const ctx = context();
      const keySetId = crypto.randomUUID();
      const heard = nextFeedEvent(elsewhere, (event) => event.type === 'change' && event.projectId === ctx.projectId);
      let announcedInside = -1;
      await act(ctx, async (tx) => {
        await record(tx, 'api_key.created', {
          userId: null,
          data: { key_set_id: keySetId, kinds: ['secretServerKey'] },
        });
        announcedInside = announced.length;
      });
      expect(announcedInside).toBe(0);
      expect(announced).toEqual([{ type: 'change', projectId: service.projectId }]);
      await heard;
      const rows = (await eventsOf('api_key.created')).filter((row) => row.data.key_set_id === keySetId);
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ actor_type: 'operator', actor_id: null, user_agent: 'latchkey operations' });
    });

    it('leaves no audit row and sends no notice when the action rolls back', async () => {
      const ctx = context();
      const keySetId = crypto.randomUUID();
      const heard: FeedEvent[] = [];
      const stop = changeFeedOf(elsewhere).subscribe((event) => heard.push(event));
      await expect(
        act(ctx, async (tx) => {
          await record(tx, 'api_key.revoked', { userId: null, data: { key_set_id: keySetId, kinds: [] } });
          throw new Error('the change failed');
        }),
      ).rejects.toThrow('the change failed');
      // A committed action after it: its notice arriving proves the rolled-back one would have come first.
      const marker = crypto.randomUUID();
      const after = nextFeedEvent(elsewhere, (event) => event.type === 'change' && event.projectId === marker);
      await act(context(), async (tx) => {
        await record(tx, 'project.created', { data: { project_id: marker } });
      });
      await after;
      stop();
      expect(announced).toEqual([{ type: 'change', projectId: marker }]);
      expect(heard.filter((event) => event.type === 'change' && event.projectId === service.projectId)).toEqual([]);
      expect((await eventsOf('api_key.revoked')).filter((row) => row.data.key_set_id === keySetId)).toEqual([]);
    });

    it('refuses data outside the catalogue row, and the action rolls back', async () => {
      const ctx = context();
      await expect(
        act(ctx, async (tx) => {
          // @ts-expect-error: a password is no fact of a user update
          await record(tx, 'user.updated', { userId: null, data: { fields: [], password: 'secret' } });
        }),
      ).rejects.toThrow();
      expect(announced).toEqual([]);
    });

    it('keeps an unaudited event out of the log but still announces its caches', async () => {
      const ctx = context();
      const projectId = crypto.randomUUID();
      await act(ctx, (tx) => record(tx, 'project.created', { data: { project_id: projectId } }));
      expect(announced).toEqual([{ type: 'change', projectId }]);
      expect(await eventsOf('project.created')).toEqual([]);
    });

    it('joins an enclosing action: one transaction, one announcement after the outer commit', async () => {
      const ctx = context();
      const userId = crypto.randomUUID();
      await act(ctx, async (outer) => {
        await act(ctx, async (inner) => {
          expect(inner.db).toBe(outer.db);
          await record(inner, 'user.updated', { userId, data: { fields: ['display_name'] } });
        });
        await record(outer, 'user.deleted', { userId });
        expect(announced).toEqual([]);
      });
      expect(announced).toEqual([{ type: 'users', userIds: [userId] }]);
      expect(inAction()).toBe(false);
    });

    it('tells only this instance of ended sessions, after the commit, and nothing when the action rolls back', async () => {
      const ended = [crypto.randomUUID(), crypto.randomUUID()];
      const heard: FeedEvent[] = [];
      const stop = changeFeedOf(elsewhere).subscribe((event) => heard.push(event));
      let announcedInside = -1;
      await act(context(), async (tx) => {
        sessionsEnded(tx, ended);
        sessionsEnded(tx, []);
        announcedInside = announced.length;
      });
      expect(announcedInside).toBe(0);
      expect(announced).toEqual([{ type: 'revoked', sessionIds: ended }]);

      const rolledBack = crypto.randomUUID();
      await expect(
        act(context(), async (tx) => {
          sessionsEnded(tx, [rolledBack]);
          throw new Error('the deletion failed');
        }),
      ).rejects.toThrow('the deletion failed');
      expect(announced).toEqual([]);

      // A committed notice after them: had either been sent through the database, it would have come first.
      const marker = crypto.randomUUID();
      const after = nextFeedEvent(elsewhere, (event) => event.type === 'change' && event.projectId === marker);
      await act(context(), (tx) => record(tx, 'project.created', { data: { project_id: marker } }));
      await after;
      stop();
      expect(heard.filter((event) => event.type === 'revoked')).toEqual([]);
    });

    it('runs an action of one statement without a transaction: its event with it, the notices after it, none on failure', async () => {
      const ctx = context();
      const keySetId = crypto.randomUUID();
      const heard = nextFeedEvent(elsewhere, (event) => event.type === 'change' && event.projectId === ctx.projectId);
      let announcedInside = -1;
      let refusals: (string | null)[] = [];
      await actInOneStatement(ctx, async (tx) => {
        const writes = recordWrites(tx, 'api_key.created', { userId: null, data: { key_set_id: keySetId, kinds: [] } });
        await writeTogether(tx.db, writes);
        announcedInside = announced.length;
        // What the strict-mode write guard asks as each writing statement goes: the one, then a second refused.
        refusals = [oneStatementRefusal(), oneStatementRefusal()];
      });
      expect(announcedInside).toBe(0);
      expect(announced).toEqual([{ type: 'change', projectId: service.projectId }]);
      await heard;
      expect((await eventsOf('api_key.created')).filter((row) => row.data.key_set_id === keySetId)).toHaveLength(1);
      expect(refusals[0]).toBeNull();
      expect(refusals[1]).toMatch(/second writing statement/);

      const failed = crypto.randomUUID();
      await expect(
        actInOneStatement(context(), async (tx) => {
          recordWrites(tx, 'api_key.revoked', { userId: null, data: { key_set_id: failed, kinds: [] } });
          throw new Error('the statement failed');
        }),
      ).rejects.toThrow('the statement failed');
      expect(announced).toEqual([]);
      expect((await eventsOf('api_key.revoked')).filter((row) => row.data.key_set_id === failed)).toEqual([]);
      expect(oneStatementRefusal()).toBeNull();
    });

    it('records nothing once its action has ended', async () => {
      let kept: ActionTx | undefined;
      await act(context(), async (tx) => {
        kept = tx;
      });
      await expect(record(kept!, 'user.deleted', { userId: null })).rejects.toThrow(/outside an open action/);
      expect(() => sessionsEnded(kept!, [crypto.randomUUID()])).toThrow(/outside an open action/);
    });
  });
}
