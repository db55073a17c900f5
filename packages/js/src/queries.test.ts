/**
 * Queries on every audience, against the real service in-process: a
 * subscribed query is re-loaded after a mutation of the app, concurrent
 * loads of one key send one request, and an entry is gone 5 s after its last
 * subscriber (the apps' timers injected, so the 5 s are counted by the test).
 * Which audience may run which query is checked by the compiler.
 */
import { internalProjectId } from '@latchkey/protocol';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { AdminApp } from './admin-app.js';
import { apiKeySetsQuery } from './api-keys/api-key-sets.js';
import { auditEventsQuery } from './audit/audit-log.js';
import { sentEmailsQuery } from './emails/email-delivery.js';
import { emailTemplatesQuery } from './emails/email-templates.js';
import type { AdminScope, ServerScope } from './internal/audience.js';
import { metricsQuery } from './metrics/metrics.js';
import type { Timers } from './options.js';
import { ProjectOwnerApp } from './project-owner-app.js';
import { ownedProjectsQuery } from './projects/owned-projects.js';
import { adminProjectQuery } from './projects/project-admin.js';
import { projectQuery } from './projects/projects-api.js';
import type { Query } from './query.js';
import { permissionDefinitionsQuery } from './teams/permission-definitions.js';
import { serverTeamMembersQuery, serverTeamsQuery } from './teams/server-team.js';
import { teamInvitationsQuery, teamMembersQuery, teamsQuery } from './teams/team.js';
import { teamPermissionsQuery } from './teams/team-permissions.js';
import { createTestServerApp, internalPublishableKey } from './test-support/server-apps.js';
import { createTestApp, newCredentials, recordingFetch, useTestService } from './test-support/service.js';
import { currentUserQuery } from './users/current-user.js';
import {
  serverUserQuery,
  serverUsersQuery,
  userContactChannelsQuery,
  userSessionsQuery,
  userTeamPermissionsQuery,
  userTeamsQuery,
} from './users/server-users.js';

const service = useTestService();

/** Timers the test moves by hand: what the cache's 5 s drop is counted on. */
function manualTimers() {
  let now = 0;
  let nextId = 1;
  const pending = new Map<number, { at: number; run: () => void }>();
  const timers: Timers = {
    setTimeout(run, ms) {
      const id = nextId++;
      pending.set(id, { at: now + ms, run });
      return id;
    },
    clearTimeout: (id) => void pending.delete(id as number),
  };
  const advance = (ms: number) => {
    now += ms;
    for (const [id, timer] of [...pending]) {
      if (timer.at > now) continue;
      pending.delete(id);
      timer.run();
    }
  };
  return { timers, advance };
}

function adminApp(timers?: Timers) {
  const recording = recordingFetch(service());
  const app = new AdminApp({
    projectId: service().projectId,
    baseUrl: service().url,
    superSecretAdminKey: service().keys.superSecretAdminKey,
    fetch: recording.fetch,
    clock: service().clock,
    timers,
  });
  return { app, ...recording };
}

/** Resolves once `listener` has been called `times` times. */
function calledTimes(listener: ReturnType<typeof vi.fn>, times: number) {
  return vi.waitFor(() => expect(listener).toHaveBeenCalledTimes(times));
}

describe('ServerApp queries', () => {
  it('re-loads a subscribed user and a subscribed page of users after the app changes the user', async () => {
    const { app } = createTestServerApp(service());
    const ada = await app.createUser({ primaryEmail: newCredentials().email, displayName: 'Ada' });
    const byId = serverUserQuery(ada.id);
    const page = serverUsersQuery({ query: ada.id });
    const onUser = vi.fn();
    const onPage = vi.fn();
    const stops = [app.subscribe(byId, onUser), app.subscribe(page, onPage)];
    await Promise.all([calledTimes(onUser, 1), calledTimes(onPage, 1)]);
    expect(app.getSnapshot(byId)?.displayName).toBe('Ada');

    await ada.update({ displayName: 'Ada Lovelace' });
    // The update resolves once what it changed has been re-read.
    expect(app.getSnapshot(byId)?.displayName).toBe('Ada Lovelace');
    expect(app.getSnapshot(page)?.items.map((user) => user.displayName)).toEqual(['Ada Lovelace']);
    expect([onUser, onPage].map((listener) => listener.mock.calls.length)).toEqual([2, 2]);

    await (await app.getUser(ada.id))?.delete();
    expect(app.getSnapshot(byId)).toBeNull();
    expect(app.getSnapshot(page)?.items).toEqual([]);
    for (const stop of stops) stop();
  });

  it('sends one request for concurrent loads of one key, and none for a fresh one', async () => {
    const { app, calls } = createTestServerApp(service());
    const before = calls().length;
    const [first, second] = await Promise.all([
      app.load(serverUsersQuery({ limit: 2 })),
      app.load(serverUsersQuery({ limit: 2 })),
    ]);
    expect(second).toBe(first);
    await app.load(serverUsersQuery({ limit: 2 }));
    expect(calls().slice(before)).toEqual(['GET /users']);
    await app.load(serverUsersQuery({ limit: 3 })); // another key
    expect(calls().slice(before)).toEqual(['GET /users', 'GET /users']);
  });

  it('drops an entry 5 s after its last subscriber leaves; the next load asks again', async () => {
    const clock = manualTimers();
    const { app, calls } = createTestServerApp(service(), { timers: clock.timers });
    const listener = vi.fn();
    const stop = app.subscribe(serverTeamsQuery, listener);
    await calledTimes(listener, 1);
    stop();
    clock.advance(4999);
    expect(app.getSnapshot(serverTeamsQuery)).toEqual([]);
    clock.advance(1);
    expect(app.getSnapshot(serverTeamsQuery)).toBeUndefined();
    await app.load(serverTeamsQuery);
    expect(calls().filter((call) => call === 'GET /teams')).toHaveLength(2);
  });

  it('re-loads a team’s members and a user’s permissions and addresses after the changes that touch them', async () => {
    const { app } = createTestServerApp(service());
    const user = await app.createUser({ primaryEmail: newCredentials().email });
    const team = await app.createTeam({ displayName: 'Queried', creatorUserId: user.id });
    const members = serverTeamMembersQuery(team.id);
    const channels = userContactChannelsQuery(user.id);
    const stops = ([members, channels] as Query<unknown, ServerScope>[]).map((query) => app.subscribe(query, () => {}));
    await vi.waitFor(() => expect(app.getSnapshot(channels)).toHaveLength(1));
    await vi.waitFor(() => expect(app.getSnapshot(members)).toHaveLength(1));
    const other = await app.createUser({ primaryEmail: newCredentials().email });
    await team.addUser(other.id);
    const ids = app.getSnapshot(members)?.map((member) => member.id);
    expect(ids?.sort()).toEqual([user.id, other.id].sort());
    const held = userTeamPermissionsQuery(other.id, team, { recursive: false });
    stops.push(app.subscribe(held, () => {}));
    const before = await app.load(held);
    expect(before.map((permission) => permission.id)).not.toContain('$update_team');
    await other.grantPermission(team, '$update_team');
    expect(app.getSnapshot(held)?.map((permission) => permission.id)).toContain('$update_team');
    await user.createContactChannel({ type: 'email', value: newCredentials().email, usedForAuth: false });
    expect(app.getSnapshot(channels)).toHaveLength(2);
    for (const stop of stops) stop();
  });

  it('re-loads a user’s sessions after one is created or revoked, and the user’s teams after joining one', async () => {
    const { app } = createTestServerApp(service());
    const user = await app.createUser({ primaryEmail: newCredentials().email });
    const sessions = userSessionsQuery(user.id);
    const teams = userTeamsQuery(user.id);
    const stops = [app.subscribe(sessions, () => {}), app.subscribe(teams, () => {})];
    await vi.waitFor(() => expect(app.getSnapshot(sessions)).toEqual([]));
    await vi.waitFor(() => expect(app.getSnapshot(teams)).toEqual([]));
    await user.createSession({ isImpersonation: true });
    expect(app.getSnapshot(sessions)?.map((session) => session.isImpersonation)).toEqual([true]);
    await app.getSnapshot(sessions)?.[0]?.revoke();
    expect(app.getSnapshot(sessions)).toEqual([]);
    const team = await app.createTeam({ displayName: 'Joined', creatorUserId: user.id });
    expect(app.getSnapshot(teams)?.map((each) => each.id)).toEqual([team.id]);
    for (const stop of stops) stop();
  });

  it('marks a key and every key below it out of date on invalidate', async () => {
    const { app, calls } = createTestServerApp(service());
    const user = await app.createUser({ primaryEmail: newCredentials().email });
    const stop = app.subscribe(serverUserQuery(user.id), () => {});
    await app.load(serverUserQuery(user.id));
    const before = calls().length;
    await app.invalidate(['user']);
    expect(calls().slice(before)).toEqual([`GET /users/${user.id}`]);
    stop();
  });

  it('runs only the queries of its access (checked by the compiler)', async () => {
    const { app } = createTestServerApp(service());
    // @ts-expect-error API key sets are for admin access only.
    await expect(app.load(apiKeySetsQuery)).rejects.toMatchObject({ code: 'INSUFFICIENT_ACCESS_TYPE' });
    // @ts-expect-error the client's project query is the client's.
    expect(() => app.getSnapshot(projectQuery)).not.toThrow();
  });
});

describe('AdminApp queries', () => {
  it('re-loads subscribed admin data after the app’s own writes', async () => {
    const { app } = adminApp();
    const queries: Query<unknown, AdminScope>[] = [
      apiKeySetsQuery,
      emailTemplatesQuery,
      adminProjectQuery,
      auditEventsQuery({ limit: 5 }),
      metricsQuery,
      permissionDefinitionsQuery,
      sentEmailsQuery({ limit: 5 }),
    ];
    const stops = queries.map((query) => app.subscribe(query, () => {}));
    await vi.waitFor(() => expect(queries.map((query) => app.getSnapshot(query) !== undefined)).not.toContain(false));

    const keys = await app.createApiKeySet({ description: 'Queried', hasSecretServerKey: true });
    expect(app.getSnapshot(apiKeySetsQuery)?.map((set) => set.id)).toContain(keys.id);
    expect(app.getSnapshot(auditEventsQuery({ limit: 5 }))?.items[0]?.type).toBe('api_key.created');
    await keys.revoke();
    expect(
      app
        .getSnapshot(apiKeySetsQuery)
        ?.find((set) => set.id === keys.id)
        ?.whyInvalid(),
    ).toBe('manually-revoked');

    await app.updateEmailTemplate('magic_link', { subject: 'Your queried code' });
    expect(app.getSnapshot(emailTemplatesQuery)?.find((t) => t.type === 'magic_link')?.subject).toBe(
      'Your queried code',
    );
    await app.resetEmailTemplate('magic_link');
    expect(app.getSnapshot(emailTemplatesQuery)?.find((t) => t.type === 'magic_link')?.isDefault).toBe(true);

    await app.updateProject({ description: 'Queried' });
    expect(app.getSnapshot(adminProjectQuery)?.description).toBe('Queried');

    const usersBefore = app.getSnapshot(metricsQuery)?.totalUsers ?? 0;
    await app.createUser({ primaryEmail: newCredentials().email });
    expect(app.getSnapshot(metricsQuery)?.totalUsers).toBe(usersBefore + 1);

    await app.createTeamPermissionDefinition({ id: 'queried:read', containedPermissionIds: [] });
    expect(app.getSnapshot(permissionDefinitionsQuery)?.map((definition) => definition.id)).toContain('queried:read');
    for (const stop of stops) stop();
  });

  it('sends one request for concurrent loads of one key', async () => {
    const { app, calls } = adminApp();
    const loads = await Promise.all([app.load(adminProjectQuery), app.load(adminProjectQuery), app.getProject()]);
    expect(loads[1]).toBe(loads[0]);
    expect(calls()).toEqual(['GET /projects/current', 'GET /projects/current']); // getProject is no query
  });

  it('drops an entry 5 s after its last subscriber leaves', async () => {
    const clock = manualTimers();
    const { app, calls } = adminApp(clock.timers);
    const listener = vi.fn();
    const stop = app.subscribe(emailTemplatesQuery, listener);
    await calledTimes(listener, 1);
    stop();
    clock.advance(4999);
    expect(app.getSnapshot(emailTemplatesQuery)).toHaveLength(5);
    clock.advance(1);
    expect(app.getSnapshot(emailTemplatesQuery)).toBeUndefined();
    await app.load(emailTemplatesQuery);
    expect(calls()).toEqual(['GET /email-templates', 'GET /email-templates']);
  });
});

describe('ProjectOwnerApp queries', () => {
  let publishableClientKey: string;
  beforeAll(async () => {
    publishableClientKey = await internalPublishableKey(service());
  });

  it('re-loads the owned projects after creating one, and keeps one AdminApp per project', async () => {
    const { app: internalApp } = createTestApp(service(), { projectId: internalProjectId, publishableClientKey });
    await internalApp.signUpWithCredential({ ...newCredentials(), noRedirect: true });
    const projectOwnerSession = await internalApp.getUser({ or: 'throw' });
    const owner = new ProjectOwnerApp({
      baseUrl: service().url,
      publishableClientKey,
      projectOwnerSession,
      fetch: service().fetch,
    });
    const stop = owner.subscribe(ownedProjectsQuery, () => {});
    await vi.waitFor(() => expect(owner.getSnapshot(ownedProjectsQuery)).toEqual([]));
    const shop = await owner.createProject({ displayName: 'Queried shop' });
    expect(owner.getSnapshot(ownedProjectsQuery)?.map((project) => project.id)).toEqual([shop.id]);
    expect(owner.adminApp(shop.id)).toBe(owner.adminApp(shop.id));
    expect((await owner.adminApp(shop.id).load(adminProjectQuery)).displayName).toBe('Queried shop');
    stop();
  });
});

describe('ClientApp queries', () => {
  it('re-loads a team’s members, invitations and the user’s permissions after the user’s changes', async () => {
    const { app } = createTestApp(service());
    await app.signUpWithCredential({ ...newCredentials(), noRedirect: true });
    const user = await app.getUser({ or: 'throw' });
    const serverApp = createTestServerApp(service()).app;
    const created = await serverApp.createTeam({ displayName: 'Client queried', creatorUserId: user.id });
    const other = await serverApp.createUser({ primaryEmail: newCredentials().email });
    await created.addUser(other.id);
    const [team] = await app.load(teamsQuery);
    if (!team) throw new Error('the team is not listed');

    const members = teamMembersQuery(team);
    const invitations = teamInvitationsQuery(team);
    const held = teamPermissionsQuery(team.id);
    const stops = [members, invitations, held, teamsQuery].map((query) => app.subscribe(query, () => {}));
    await vi.waitFor(() => expect(app.getSnapshot(members)).toHaveLength(2));
    expect(app.getSnapshot(held)?.map((permission) => permission.id)).toContain('$remove_members');

    await team.removeUser(other.id);
    expect(app.getSnapshot(members)?.map((member) => member.id)).toEqual([user.id]);
    const invitee = newCredentials().email;
    await team.inviteUser({ email: invitee, callbackUrl: 'http://localhost:3000/invite' });
    expect(app.getSnapshot(invitations)?.map((invitation) => invitation.recipientEmail)).toEqual([invitee]);
    await app.getSnapshot(invitations)?.[0]?.revoke();
    expect(app.getSnapshot(invitations)).toEqual([]);

    await user.signOut({ noRedirect: true });
    expect(app.getSnapshot(teamsQuery)).toEqual([]);
    expect(app.getSnapshot(currentUserQuery)).toBeNull();
    expect(app.getSnapshot(members)).toBeUndefined(); // what the signed-out user saw of the team is forgotten
    for (const stop of stops) stop();
  });

  it('runs only the client’s queries (checked by the compiler)', () => {
    const { app } = createTestApp(service());
    // @ts-expect-error a server query needs server access.
    expect(app.getSnapshot(serverTeamsQuery)).toBeUndefined();
    expect(app.getSnapshot('teams')).toBe(app.getSnapshot(teamsQuery));
  });
});
