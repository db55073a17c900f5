/**
 * A change to the permission definitions changes the project's default lists
 * (a rename or a deletion reaches them), so every instance must drop the
 * project's cached config when it commits, not only the instance that made
 * it. The definition actions' events say so in the catalogue (`project`);
 * this holds whichever write announces it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeFeedOf } from '../storage/change-feed.js';
import { openStorage, type Storage } from '../storage/open-storage.js';
import { type Answer, authHeaders, call } from '../test-support/api.js';
import { nextFeedEvent } from '../test-support/feed.js';
import { postgresUp, postgresUrl } from '../test-support/postgres.js';
import { startTestService, type TestService } from '../testing/index.js';

describe.skipIf(!postgresUp)('permission definitions, seen from another instance on PostgreSQL', () => {
  let service: TestService;
  /** Another instance's view of the same database. */
  let elsewhere: Storage;

  beforeAll(async () => {
    service = await startTestService({ databaseUrl: postgresUrl });
    elsewhere = await openStorage({ databaseUrl: postgresUrl, schema: service.storage.schema });
    const listening = nextFeedEvent(elsewhere, (event) => event.type === 'live', 5_000);
    if (changeFeedOf(elsewhere).live) listening.catch(() => {});
    else await listening;
  });
  afterAll(async () => {
    await elsewhere?.close();
    await service?.close();
  });

  const admin = () => authHeaders(service, 'admin');
  const ok = (answer: Answer, status = 200) => {
    expect(answer.status, answer.text).toBe(status);
    return answer.body;
  };
  /** Resolves when the other instance is told the project's config changed. */
  const projectChangeHeard = () =>
    nextFeedEvent(elsewhere, (event) => event.type === 'change' && event.projectId === service.projectId, 5_000);

  it('hears that the default lists changed when a definition is renamed, then deleted', async () => {
    ok(await call(service, 'POST', '/team-permission-definitions', { headers: admin(), json: { id: 'editor' } }), 201);
    ok(
      await call(service, 'PATCH', '/projects/current', {
        headers: admin(),
        json: { config: { team_member_default_permissions: [{ id: 'editor' }] } },
      }),
    );

    const renamed = projectChangeHeard();
    ok(
      await call(service, 'PATCH', '/team-permission-definitions/editor', { headers: admin(), json: { id: 'writer' } }),
    );
    await renamed;
    const project = ok(await call(service, 'GET', '/projects/current', { headers: admin() }));
    expect(project.config.team_member_default_permissions).toEqual([{ id: 'writer' }]);

    const deleted = projectChangeHeard();
    ok(await call(service, 'DELETE', '/team-permission-definitions/writer', { headers: admin() }));
    await deleted;
    const after = ok(await call(service, 'GET', '/projects/current', { headers: admin() }));
    expect(after.config.team_member_default_permissions).toEqual([]);
  });
});
